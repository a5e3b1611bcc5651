import { runChain, runNode } from './harness';
import { useSimulator } from './simulatorFixture';

const gateway = useSimulator();

const NODE = 'Node Under Test';
const weatherTool = {
	type: 'function',
	name: 'get_weather',
	description: 'Weather of a city',
	parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

const responsesNode = (parameters: object, extra: object = {}) => ({
	type: 'modelGatewayResponses',
	parameters: { model: 'resp-model-1', input: 'Hello', ...parameters },
	...extra,
});

const sentBodies = () =>
	gateway.simulator
		.requestsTo('POST', '/v1/responses')
		.map((request) => request.body as Record<string, unknown>);

describe('Model Gateway Responses: every field of the spec', () => {
	it('sends a text input and outputs output_text, usage, status, id and trace id', async () => {
		const result = await runNode(responsesNode({ options: { traceId: 'resp-trace' } }), {
			credentials: gateway.credentials(),
		});
		expect(result.error(NODE)).toBeUndefined();
		expect(sentBodies()).toEqual([{ model: 'resp-model-1', input: 'Hello' }]);
		expect(gateway.simulator.requestsTo('POST', '/v1/responses')[0].headers['x-trace-id']).toBe(
			'resp-trace',
		);
		expect(result.items[0].json).toMatchObject({
			outputText: 'Echo: Hello',
			functionCalls: [],
			status: 'completed',
			id: expect.stringMatching(/^resp_/),
			model: 'resp-model-1',
			reasoningTokens: 0,
			usage: {
				inputTokens: expect.any(Number),
				outputTokens: expect.any(Number),
				totalTokens: expect.any(Number),
				reasoningTokens: 0,
			},
			traceId: 'resp-trace',
		});
		expect(result.items[0].json.output).toEqual([
			expect.objectContaining({ type: 'message', role: 'assistant' }),
		]);
	});

	it('sends every optional field under its spec name', async () => {
		const result = await runNode(
			responsesNode({
				inputMode: 'messages',
				messages: {
					values: [
						{ role: 'developer', content: 'Answer in French.' },
						{ role: 'assistant', content: 'Bonjour.' },
						{ role: 'user', content: 'Say hi' },
					],
				},
				options: {
					instructions: 'Be brief.',
					reasoningEffort: 'low',
					reasoningSummary: 'concise',
					maxOutputTokens: 300,
					maxToolCalls: 2,
					metadata: '{"ticket": "T-1"}',
					store: true,
					truncation: 'auto',
					prompt: '{"id": "pmpt_1", "variables": {"city": "Paris"}}',
					tools: JSON.stringify([weatherTool]),
					toolChoice: 'auto',
					parallelToolCalls: false,
				},
			}),
			{ credentials: gateway.credentials() },
		);
		expect(result.error(NODE)).toBeUndefined();
		expect(sentBodies()[0]).toEqual({
			model: 'resp-model-1',
			input: [
				{ role: 'developer', content: 'Answer in French.' },
				{ role: 'assistant', content: 'Bonjour.' },
				{ role: 'user', content: 'Say hi' },
			],
			instructions: 'Be brief.',
			reasoning: { effort: 'low', summary: 'concise' },
			max_output_tokens: 300,
			max_tool_calls: 2,
			metadata: { ticket: 'T-1' },
			store: true,
			truncation: 'auto',
			prompt: { id: 'pmpt_1', variables: { city: 'Paris' } },
			tools: [weatherTool],
			tool_choice: 'auto',
			parallel_tool_calls: false,
		});
		// Reasoning was asked for: a reasoning item and its tokens.
		expect(result.items[0].json.outputText).toBe('Echo: Say hi');
		expect(result.items[0].json.reasoningTokens).toBe(16);
		expect(
			(result.items[0].json.output as Array<{ type: string }>).map((item) => item.type),
		).toEqual(['reasoning', 'message']);
	});

	it.each([
		['maxOutputTokens', 0, 'max_output_tokens', 'must be at least 1'],
		['maxToolCalls', 1.5, 'max_tool_calls', 'must be a whole number'],
		['metadata', '[1, 2]', 'metadata', 'must be a JSON object'],
	])('rejects %s = %p before sending', async (option, value, field, rule) => {
		const result = await runNode(responsesNode({ options: { [option]: value } }), {
			credentials: gateway.credentials(),
		});
		expect(result.error(NODE)?.message).toBe(`Item 0: "${field}": ${rule}`);
		expect(gateway.simulator.requests).toHaveLength(0);
	});

	it('rejects previous_response_id together with conversation, sending nothing', async () => {
		const result = await runNode(
			responsesNode({ options: { previousResponseId: 'resp_123', conversation: 'conv_1' } }),
			{ credentials: gateway.credentials(), input: [{ json: {} }, { json: {} }] },
		);
		expect(result.error(NODE)?.message).toBe(
			'Item 0: "previous_response_id": cannot be combined with "conversation": use one or the other',
		);
		expect(gateway.simulator.requests).toHaveLength(0);
	});

	it('sends a conversation given as text or as a JSON object', async () => {
		await runNode(responsesNode({ options: { conversation: 'conv_42' } }), {
			credentials: gateway.credentials(),
		});
		await runNode(responsesNode({ options: { conversation: '{"id": "conv_43"}' } }), {
			credentials: gateway.credentials(),
		});
		expect(sentBodies().map((body) => body.conversation)).toEqual(['conv_42', { id: 'conv_43' }]);
	});

	it('chains two calls with previous_response_id taken from the first output', async () => {
		const result = await runChain(
			[
				{ name: 'First', ...responsesNode({ input: 'Remember the number 7' }) },
				{
					name: 'Second',
					...responsesNode({
						input: 'Which number?',
						options: { previousResponseId: '={{ $json.id }}' },
					}),
				},
			],
			{ credentials: gateway.credentials() },
		);
		const first = result.output('First')[0].json;
		const second = result.output('Second')[0].json;
		expect(result.error('Second')).toBeUndefined();
		expect(sentBodies()[1]).toEqual({
			model: 'resp-model-1',
			input: 'Which number?',
			previous_response_id: first.id,
		});
		expect(second.outputText).toBe(`Echo: Which number? (after ${String(first.id)})`);
		expect(second.id).not.toBe(first.id);
	});

	it('reports the gateway message when the previous response is unknown', async () => {
		gateway.expectViolations('invalid-body');
		const result = await runNode(
			responsesNode({ options: { previousResponseId: 'resp_missing' } }),
			{ credentials: gateway.credentials() },
		);
		expect(result.error(NODE)?.message).toBe("Previous response with id 'resp_missing' not found.");
	});

	it('returns function calls with parsed arguments and answers a function_call_output turn', async () => {
		const first = await runNode(
			responsesNode({
				input: 'What is the weather in Paris?',
				options: { tools: JSON.stringify([weatherTool]) },
			}),
			{ credentials: gateway.credentials() },
		);
		const call = (
			first.items[0].json.functionCalls as Array<{
				callId: string;
				name: string;
				arguments: unknown;
			}>
		)[0];
		expect(call).toMatchObject({
			name: 'get_weather',
			arguments: { city: 'Paris' },
			callId: expect.stringMatching(/^call_/),
		});
		expect(first.items[0].json.outputText).toBe('');

		const second = await runNode(
			responsesNode({
				inputMode: 'json',
				inputJson: JSON.stringify([
					{ type: 'function_call_output', call_id: call.callId, output: 'sunny' },
				]),
				options: {
					previousResponseId: first.items[0].json.id,
					tools: JSON.stringify([weatherTool]),
				},
			}),
			{ credentials: gateway.credentials() },
		);
		expect(second.error(NODE)).toBeUndefined();
		expect(second.items[0].json.outputText).toBe(
			'Echo: What is the weather in Paris? (tool result: sunny)',
		);
	});

	it('forces a named tool with a tool-choice object', async () => {
		const result = await runNode(
			responsesNode({
				options: {
					tools: JSON.stringify([weatherTool]),
					toolChoice: 'object',
					toolChoiceObject: '{"type": "function", "name": "get_weather"}',
				},
			}),
			{ credentials: gateway.credentials() },
		);
		expect(sentBodies()[0].tool_choice).toEqual({ type: 'function', name: 'get_weather' });
		expect((result.items[0].json.functionCalls as Array<{ name: string }>)[0].name).toBe(
			'get_weather',
		);
	});

	it('sends a JSON-schema text format and parses the answer, keeping the text', async () => {
		const schema = {
			type: 'object',
			properties: { title: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
			required: ['title', 'tags'],
		};
		const result = await runNode(
			responsesNode({
				options: {
					outputFormat: 'json_schema',
					jsonSchema: JSON.stringify(schema),
					schemaName: 'article',
					strictSchema: false,
				},
			}),
			{ credentials: gateway.credentials() },
		);
		expect(sentBodies()[0].text).toEqual({
			format: { type: 'json_schema', name: 'article', schema, strict: false },
		});
		expect(result.items[0].json.parsed).toEqual({ title: 'example', tags: [] });
		expect(result.items[0].json.outputText).toBe('{"title":"example","tags":[]}');
	});

	it('rejects a JSON schema that is not an object', async () => {
		const result = await runNode(
			responsesNode({ options: { outputFormat: 'json_schema', jsonSchema: 'not json' } }),
			{ credentials: gateway.credentials() },
		);
		expect(result.error(NODE)?.message).toBe(
			'Item 0: "JSON Schema" is not valid JSON: Unexpected token \'o\' at position 1 (line 1, column 2)',
		);
		expect(gateway.simulator.requests).toHaveLength(0);
	});

	it('returns the raw response object when Simplify Output is off', async () => {
		const result = await runNode(responsesNode({ simplify: false }), {
			credentials: gateway.credentials(),
		});
		expect(result.items[0].json).toMatchObject({
			object: 'response',
			status: 'completed',
			output: [expect.objectContaining({ type: 'message' })],
			traceId: gateway.simulator.requestsTo('POST', '/v1/responses')[0].headers['x-trace-id'],
		});
	});

	it('keeps order and pairing over many items in flight, with per-item errors under Continue On Fail', async () => {
		const input = Array.from({ length: 20 }, (_, row) => ({
			json: { text: `row ${row}`, tokens: row === 7 ? 0 : 100 },
		}));
		const result = await runNode(
			responsesNode(
				{
					input: '={{ $json.text }}',
					options: { concurrency: 8, maxOutputTokens: '={{ $json.tokens }}' },
				},
				{ continueOnFail: true },
			),
			{ credentials: gateway.credentials(), input },
		);
		expect(result.items.map((item) => item.json.outputText ?? item.json.error)).toEqual(
			input.map((item, row) =>
				row === 7 ? 'Item 7: "max_output_tokens": must be at least 1' : `Echo: ${item.json.text}`,
			),
		);
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			input.map((_, row) => ({ item: row })),
		);
		expect(sentBodies()).toHaveLength(19);
	});
});

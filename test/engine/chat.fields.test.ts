import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';

const gateway = useSimulator();

const NODE = 'Node Under Test';
const weatherTool = {
	type: 'function',
	function: {
		name: 'get_weather',
		description: 'Weather of a city',
		parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
	},
};

const chatNode = (parameters: object, extra: object = {}) => ({
	type: 'modelGatewayChat',
	parameters: {
		model: 'chat-model-1',
		messages: { values: [{ role: 'user', content: 'Hello' }] },
		...parameters,
	},
	...extra,
});

const sentBodies = () =>
	gateway.simulator
		.requestsTo('POST', '/v1/chat/completions')
		.map((request) => request.body as Record<string, unknown>);

describe('Model Gateway Chat: every field of the spec', () => {
	it('sends every sampling option under its spec name, max_completion_tokens winning over max_tokens', async () => {
		const result = await runNode(
			chatNode({
				options: {
					temperature: 0.7,
					topP: 0.9,
					maxTokens: 50,
					maxCompletionTokens: 80,
					n: 2,
					stop: '["END", "###"]',
					presencePenalty: -1.5,
					frequencyPenalty: 2,
					user: 'customer-17',
				},
			}),
			{ credentials: gateway.credentials() },
		);
		expect(result.error(NODE)).toBeUndefined();
		const [body] = sentBodies();
		expect(body).toEqual({
			model: 'chat-model-1',
			messages: [{ role: 'user', content: 'Hello' }],
			temperature: 0.7,
			top_p: 0.9,
			max_completion_tokens: 80,
			n: 2,
			stop: ['END', '###'],
			presence_penalty: -1.5,
			frequency_penalty: 2,
			user: 'customer-17',
		});
		// n = 2: both answers are listed, the first one is also at the top.
		expect(result.items[0].json.content).toBe('Echo: Hello');
		expect(result.items[0].json.choices).toHaveLength(2);
	});

	it('sends max_tokens when it is the only limit, and a single stop word as text', async () => {
		await runNode(chatNode({ options: { maxTokens: 12, stop: 'END' } }), {
			credentials: gateway.credentials(),
		});
		expect(sentBodies()[0]).toMatchObject({ max_tokens: 12, stop: 'END' });
		expect(sentBodies()[0]).not.toHaveProperty('max_completion_tokens');
	});

	it.each([
		['topP', 1.5, 'top_p', 'must be between 0 and 1 (got a larger value)'],
		['presencePenalty', -3, 'presence_penalty', 'must be between -2 and 2 (got a smaller value)'],
		['frequencyPenalty', 2.5, 'frequency_penalty', 'must be between -2 and 2 (got a larger value)'],
		['maxTokens', 0, 'max_tokens', 'must be at least 1'],
		['maxCompletionTokens', 0, 'max_completion_tokens', 'must be at least 1'],
		['n', 0, 'n', 'must be at least 1'],
		['temperature', -0.1, 'temperature', 'must be between 0 and 2 (got a smaller value)'],
	])(
		'rejects %s = %p before sending, naming the field and the item',
		async (option, value, field, rule) => {
			const result = await runNode(chatNode({ options: { [option]: value } }), {
				credentials: gateway.credentials(),
				input: [{ json: {} }, { json: {} }],
			});
			expect(result.error(NODE)?.message).toBe(`Item 0: "${field}": ${rule}`);
			expect(gateway.simulator.requests).toHaveLength(0);
		},
	);

	it('sends name, tool_call_id and tool_calls and answers a tool result', async () => {
		const toolCalls = [
			{
				id: 'call_1',
				type: 'function',
				function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
			},
		];
		const result = await runNode(
			chatNode({
				messages: {
					values: [
						{ role: 'system', content: 'Be brief.', name: 'policy' },
						{ role: 'user', content: 'weather in Paris?', name: 'alice' },
						{ role: 'assistant', content: '', toolCalls: JSON.stringify(toolCalls) },
						{ role: 'tool', content: 'sunny, 21 °C', toolCallId: 'call_1' },
					],
				},
				options: { tools: JSON.stringify([weatherTool]) },
			}),
			{ credentials: gateway.credentials() },
		);
		expect(result.error(NODE)).toBeUndefined();
		expect(sentBodies()[0].messages).toEqual([
			{ role: 'system', content: 'Be brief.', name: 'policy' },
			{ role: 'user', content: 'weather in Paris?', name: 'alice' },
			{ role: 'assistant', content: null, tool_calls: toolCalls },
			{ role: 'tool', content: 'sunny, 21 °C', tool_call_id: 'call_1' },
		]);
		expect(result.items[0].json.content).toBe(
			'Echo: weather in Paris? (tool result: sunny, 21 °C)',
		);
	});

	it('rejects a tool message without tool_call_id', async () => {
		const result = await runNode(
			chatNode({ messages: { values: [{ role: 'tool', content: 'x', toolCallId: '' }] } }),
			{ credentials: gateway.credentials() },
		);
		expect(result.error(NODE)?.message).toBe(
			'Item 0: "messages[0].tool_call_id": is required when role is "tool"',
		);
		expect(gateway.simulator.requests).toHaveLength(0);
	});

	it('takes a whole conversation from an expression', async () => {
		const result = await runNode(
			chatNode({ messagesMode: 'json', messagesJson: '={{ $json.conversation }}' }),
			{
				credentials: gateway.credentials(),
				input: [
					{
						json: {
							conversation: [
								{ role: 'system', content: 'Short.' },
								{ role: 'user', content: 'From a previous node' },
							],
						},
					},
				],
			},
		);
		expect(result.error(NODE)).toBeUndefined();
		expect(sentBodies()[0].messages).toEqual([
			{ role: 'system', content: 'Short.' },
			{ role: 'user', content: 'From a previous node' },
		]);
		expect(result.items[0].json.content).toBe('Echo: From a previous node');
	});

	it('names the problem when the JSON conversation is not a list of messages', async () => {
		const result = await runNode(
			chatNode({ messagesMode: 'json', messagesJson: '{"role": "user"}' }),
			{ credentials: gateway.credentials() },
		);
		expect(result.error(NODE)?.message).toBe(
			'Item 0: "messages": must be a JSON array of messages',
		);
		expect(gateway.simulator.requests).toHaveLength(0);
	});

	it('returns tool calls with parsed arguments, and sends tool_choice and parallel_tool_calls', async () => {
		const result = await runNode(
			chatNode({
				messages: { values: [{ role: 'user', content: 'What is the weather in Paris?' }] },
				options: {
					tools: JSON.stringify([weatherTool]),
					toolChoice: 'required',
					parallelToolCalls: false,
				},
			}),
			{ credentials: gateway.credentials() },
		);
		expect(sentBodies()[0]).toMatchObject({
			tools: [weatherTool],
			tool_choice: 'required',
			parallel_tool_calls: false,
		});
		expect(result.items[0].json).toMatchObject({
			content: null,
			finishReason: 'tool_calls',
			toolCalls: [
				{
					id: expect.stringMatching(/^call_/),
					type: 'function',
					name: 'get_weather',
					arguments: { city: 'Paris' },
				},
			],
		});
	});

	it('forces one tool with a tool-choice object', async () => {
		const choice = { type: 'function', function: { name: 'get_weather' } };
		const result = await runNode(
			chatNode({
				options: {
					tools: JSON.stringify([weatherTool]),
					toolChoice: 'object',
					toolChoiceObject: JSON.stringify(choice),
				},
			}),
			{ credentials: gateway.credentials() },
		);
		expect(sentBodies()[0].tool_choice).toEqual(choice);
		expect((result.items[0].json.toolCalls as Array<{ name: string }>)[0].name).toBe('get_weather');
	});

	it('rejects tools that are not a JSON array of objects', async () => {
		const result = await runNode(chatNode({ options: { tools: '{"type": "function"' } }), {
			credentials: gateway.credentials(),
		});
		expect(result.error(NODE)?.message).toBe(
			"Item 0: \"tools\": is not valid JSON: Expected ',' or '}' after property value at position 19 (line 1, column 20)",
		);
		expect(gateway.simulator.requests).toHaveLength(0);
	});

	it('parses JSON-schema output into an object and keeps the text', async () => {
		const schema = {
			type: 'object',
			properties: {
				sentiment: { type: 'string', enum: ['positive', 'negative'] },
				score: { type: 'number' },
			},
			required: ['sentiment', 'score'],
		};
		const result = await runNode(
			chatNode({
				options: {
					outputFormat: 'json_schema',
					jsonSchema: JSON.stringify(schema),
					schemaName: 'sentiment',
				},
			}),
			{ credentials: gateway.credentials() },
		);
		expect(sentBodies()[0].response_format).toEqual({
			type: 'json_schema',
			json_schema: { name: 'sentiment', schema, strict: true },
		});
		expect(result.items[0].json.parsed).toEqual({ sentiment: 'positive', score: 1 });
		expect(JSON.parse(result.items[0].json.content as string)).toEqual({
			sentiment: 'positive',
			score: 1,
		});
	});

	it('parses JSON-mode output', async () => {
		const result = await runNode(chatNode({ options: { outputFormat: 'json_object' } }), {
			credentials: gateway.credentials(),
		});
		expect(sentBodies()[0].response_format).toEqual({ type: 'json_object' });
		expect(result.items[0].json.parsed).toEqual({ echo: 'Hello' });
	});

	it('returns the raw gateway response when Simplify Output is off', async () => {
		const result = await runNode(chatNode({ simplify: false, options: { traceId: 'raw-1' } }), {
			credentials: gateway.credentials(),
		});
		expect(result.items[0].json).toMatchObject({
			object: 'chat.completion',
			choices: [
				{ index: 0, message: { role: 'assistant', content: 'Echo: Hello' }, finish_reason: 'stop' },
			],
			usage: { total_tokens: expect.any(Number) },
			traceId: 'raw-1',
		});
	});

	it('reports the gateway message on a gateway error', async () => {
		gateway.simulator.injectFault({
			kind: 'status',
			path: '/v1/chat/completions',
			status: 503,
			body: { error: { message: 'all upstreams busy' } },
		});
		const result = await runNode(chatNode({}), { credentials: gateway.credentials() });
		expect(result.error(NODE)?.message).toBe('all upstreams busy');
		// A create is never repeated.
		expect(gateway.simulator.requestsTo('POST', '/v1/chat/completions')).toHaveLength(1);
	});
});

describe('Model Gateway Chat: many items', () => {
	it("keeps order and pairing with 16 items in flight, using each item's own expression values", async () => {
		const input = Array.from({ length: 40 }, (_, row) => ({
			json: { question: `question ${row}` },
		}));
		const result = await runNode(
			chatNode({
				messages: { values: [{ role: 'user', content: '={{ $json.question }}' }] },
				options: { concurrency: 16 },
			}),
			{ credentials: gateway.credentials(), input },
		);
		expect(result.error(NODE)).toBeUndefined();
		expect(result.items.map((item) => item.json.content)).toEqual(
			input.map((item) => `Echo: ${item.json.question}`),
		);
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			input.map((_, row) => ({ item: row })),
		);
		expect(sentBodies()).toHaveLength(40);
	});

	it('turns each failing item into an error item under Continue On Fail, keeping the others', async () => {
		const input = [{ json: { t: 1 } }, { json: { t: 5 } }, { json: { t: 0.5 } }];
		const result = await runNode(
			chatNode(
				{ options: { temperature: '={{ $json.t }}', concurrency: 4 } },
				{ continueOnFail: true },
			),
			{ credentials: gateway.credentials(), input },
		);
		expect(result.items).toHaveLength(3);
		expect(result.items[0].json.content).toBe('Echo: Hello');
		expect(result.items[1].json.error).toBe(
			'Item 1: "temperature": must be between 0 and 2 (got a larger value)',
		);
		expect(result.items[2].json.content).toBe('Echo: Hello');
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(
			sentBodies()
				.map((body) => body.temperature)
				.sort(),
		).toEqual([0.5, 1]);
	});
});

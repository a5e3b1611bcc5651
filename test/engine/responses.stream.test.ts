import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';

const gateway = useSimulator();

const NODE = 'Node Under Test';

const responsesNode = (input: string, options: object = {}, extra: object = {}) => ({
	type: 'modelGatewayResponses',
	parameters: { model: 'resp-model-1', input, options },
	...extra,
});

describe('Model Gateway Responses: streamed answers', () => {
	it('returns the final object of response.completed, like the non-streamed call', async () => {
		const text = 'Streamed — ünïcödé 🌍 text, with reasoning';
		const streamed = await runNode(responsesNode(text, { stream: true, reasoningEffort: 'high' }), {
			credentials: gateway.credentials(),
		});
		const plain = await runNode(responsesNode(text, { reasoningEffort: 'high' }), {
			credentials: gateway.credentials(),
		});
		expect(streamed.error(NODE)).toBeUndefined();
		expect(gateway.simulator.requestsTo('POST', '/v1/responses')[0].body).toMatchObject({
			stream: true,
		});
		const strip = (json: Record<string, unknown>) => {
			const { id, traceId, output, ...rest } = json;
			return {
				...rest,
				outputTypes: (output as Array<{ type: string }>).map((item) => item.type),
				hasId: typeof id === 'string',
				hasTrace: typeof traceId === 'string',
			};
		};
		expect(strip(streamed.items[0].json)).toEqual(strip(plain.items[0].json));
		expect(streamed.items[0].json).toMatchObject({
			outputText: `Echo: ${text}`,
			status: 'completed',
			reasoningTokens: 16,
		});
	});

	it('sends stream_options only when streaming', async () => {
		await runNode(
			responsesNode('hi', { stream: true, streamOptions: '{"include_obfuscation": false}' }),
			{ credentials: gateway.credentials() },
		);
		await runNode(responsesNode('hi', { streamOptions: '{"include_obfuscation": false}' }), {
			credentials: gateway.credentials(),
		});
		const bodies = gateway.simulator
			.requestsTo('POST', '/v1/responses')
			.map((request) => request.body);
		expect(bodies[0]).toMatchObject({
			stream: true,
			stream_options: { include_obfuscation: false },
		});
		expect(bodies[1]).toEqual({ model: 'resp-model-1', input: 'hi' });
	});

	it('streams function-call arguments into a parsed call', async () => {
		const tools = JSON.stringify([
			{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: {} } },
		]);
		const result = await runNode(responsesNode('weather in Paris?', { stream: true, tools }), {
			credentials: gateway.credentials(),
		});
		expect(result.items[0].json.functionCalls).toEqual([
			expect.objectContaining({ name: 'get_weather', arguments: { city: 'Paris' } }),
		]);
	});

	it.each(['STREAM_CRLF', 'STREAM_MULTILINE'])('handles %s framing', async (word) => {
		const result = await runNode(responsesNode(`hi ${word} ✓`, { stream: true }), {
			credentials: gateway.credentials(),
		});
		expect(result.items[0].json.outputText).toBe(`Echo: hi ${word} ✓`);
	});

	it('fails with the gateway message on an error event', async () => {
		const result = await runNode(responsesNode('STREAM_ERROR now', { stream: true }), {
			credentials: gateway.credentials(),
		});
		expect(result.items).toHaveLength(0);
		expect(result.error(NODE)?.message).toBe('upstream overloaded');
	});

	it('fails clearly when the stream ends without response.completed', async () => {
		const result = await runNode(responsesNode('STREAM_TRUNCATE now', { stream: true }), {
			credentials: gateway.credentials(),
		});
		expect(result.items).toHaveLength(0);
		expect(result.error(NODE)?.message).toBe(
			'The gateway stream ended before "response.completed": the response is incomplete',
		);
	});
});

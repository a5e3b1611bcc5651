import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';

const gateway = useSimulator();

const chatNode = (parameters: object) => ({
	type: 'modelGatewayChat',
	parameters: { model: 'chat-model-1', ...parameters },
});

describe('Model Gateway Chat (first slice) through the real engine', () => {
	it('sends the conversation with Bearer auth and a fresh X-Trace-ID, and outputs the answer', async () => {
		const sim = gateway.simulator;
		const result = await runNode(
			chatNode({
				messages: {
					values: [
						{ role: 'system', content: 'Be brief.' },
						{ role: 'user', content: 'Hello gateway' },
					],
				},
				options: { temperature: 0.2 },
			}),
			{ credentials: gateway.credentials(), input: [{ json: { row: 1 } }, { json: { row: 2 } }] },
		);
		expect(result.error('Node Under Test')).toBeUndefined();
		const requests = sim.requestsTo('POST', '/v1/chat/completions');
		expect(requests).toHaveLength(2);
		expect(requests[0].headers.authorization).toBe(`Bearer ${sim.apiKey}`);
		expect(requests[0].body).toEqual({
			model: 'chat-model-1',
			messages: [
				{ role: 'system', content: 'Be brief.' },
				{ role: 'user', content: 'Hello gateway' },
			],
			temperature: 0.2,
		});
		const traceIds = requests.map((request) => request.headers['x-trace-id']);
		expect(traceIds[0]).toMatch(/^[0-9a-f-]{36}$/);
		expect(traceIds[1]).not.toBe(traceIds[0]);

		expect(result.items).toHaveLength(2);
		expect(result.items[0].json).toMatchObject({
			content: 'Echo: Hello gateway',
			finishReason: 'stop',
			model: 'chat-model-1',
			traceId: traceIds[0],
		});
		const usage = result.items[0].json.usage as Record<string, number | null>;
		expect(usage).toEqual({
			inputTokens: expect.any(Number),
			outputTokens: expect.any(Number),
			totalTokens: expect.any(Number),
			reasoningTokens: null,
		});
		expect(usage.totalTokens).toBe(Number(usage.inputTokens) + Number(usage.outputTokens));
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it('uses the trace ID the user gives', async () => {
		const result = await runNode(
			chatNode({
				messages: { values: [{ role: 'user', content: 'hi' }] },
				options: { traceId: 'support-case-42' },
			}),
			{ credentials: gateway.credentials() },
		);
		expect(
			gateway.simulator.requestsTo('POST', '/v1/chat/completions')[0].headers['x-trace-id'],
		).toBe('support-case-42');
		expect(result.items[0].json.traceId).toBe('support-case-42');
	});

	it('rejects an out-of-range value before sending anything, naming field, limit and item', async () => {
		const result = await runNode(
			chatNode({
				messages: { values: [{ role: 'user', content: 'hi' }] },
				options: { temperature: 3 },
			}),
			{ credentials: gateway.credentials() },
		);
		const error = result.error('Node Under Test');
		expect(error?.message).toBe(
			'Item 0: "temperature": must be between 0 and 2 (got a larger value)',
		);
		expect(error?.name).toBe('NodeOperationError');
		expect(gateway.simulator.requests).toHaveLength(0);
	});

	it('rejects an empty conversation and, under Continue On Fail, returns an error item per failing item', async () => {
		const result = await runNode(
			{ ...chatNode({ messages: { values: [] } }), continueOnFail: true },
			{ credentials: gateway.credentials(), input: [{ json: {} }] },
		);
		expect(result.items[0].json.error).toBe('Item 0: "messages": must contain at least 1 message');
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(gateway.simulator.requests).toHaveLength(0);
	});
});

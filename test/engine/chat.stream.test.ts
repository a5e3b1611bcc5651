import type { StreamedChunk } from './harness';
import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';

const gateway = useSimulator();

const NODE = 'Node Under Test';
const weatherTool = {
	type: 'function',
	function: {
		name: 'get_weather',
		parameters: { type: 'object', properties: { city: { type: 'string' } } },
	},
};

const streamingChat = (content: string, options: object = {}) => ({
	type: 'modelGatewayChat',
	parameters: {
		model: 'chat-model-1',
		messages: { values: [{ role: 'user', content }] },
		options: { stream: true, ...options },
	},
});

describe('Model Gateway Chat: streamed answers', () => {
	it('returns the same aggregated result as the non-streamed call, with usage from the final chunk', async () => {
		const text = 'Grüße aus Köln — 你好 🌍 and more words to split';
		const streamed = await runNode(
			streamingChat(text, { streamOptions: '{"include_usage": true}' }),
			{ credentials: gateway.credentials() },
		);
		const plain = await runNode(
			{
				type: 'modelGatewayChat',
				parameters: {
					model: 'chat-model-1',
					messages: { values: [{ role: 'user', content: text }] },
				},
			},
			{ credentials: gateway.credentials() },
		);
		expect(streamed.error(NODE)).toBeUndefined();
		const [streamedRequest] = gateway.simulator.requestsTo('POST', '/v1/chat/completions');
		expect(streamedRequest.body).toMatchObject({
			stream: true,
			stream_options: { include_usage: true },
		});
		expect(streamedRequest.headers.accept).toBe('text/event-stream');
		const { id: streamedId, traceId: streamedTrace, ...streamedRest } = streamed.items[0].json;
		const { id: plainId, traceId: plainTrace, ...plainRest } = plain.items[0].json;
		expect(streamedRest).toEqual(plainRest);
		expect(streamedRest.content).toBe(`Echo: ${text}`);
		expect(streamedRest.usage).toEqual({
			inputTokens: expect.any(Number),
			outputTokens: expect.any(Number),
			totalTokens: expect.any(Number),
			reasoningTokens: null,
		});
		expect(streamedId).toEqual(expect.stringMatching(/^chatcmpl-/));
		const [, plainRequest] = gateway.simulator.requestsTo('POST', '/v1/chat/completions');
		expect(streamedTrace).toBe(streamedRequest.headers['x-trace-id']);
		expect(plainTrace).toBe(plainRequest.headers['x-trace-id']);
		expect(streamedTrace).not.toBe(plainTrace);
		expect(plainId).toEqual(expect.stringMatching(/^chatcmpl-[0-9a-f]{16}$/));
	});

	it('does not send stream_options when not streaming', async () => {
		await runNode(
			{
				type: 'modelGatewayChat',
				parameters: {
					model: 'm',
					messages: { values: [{ role: 'user', content: 'x' }] },
					options: { streamOptions: '{"include_usage": true}' },
				},
			},
			{ credentials: gateway.credentials() },
		);
		expect(gateway.simulator.requestsTo('POST', '/v1/chat/completions')[0].body).toEqual({
			model: 'm',
			messages: [{ role: 'user', content: 'x' }],
		});
	});

	it('merges tool-call fragments by index into one call with parsed arguments', async () => {
		const result = await runNode(
			streamingChat('weather in Paris?', { tools: JSON.stringify([weatherTool]) }),
			{ credentials: gateway.credentials() },
		);
		expect(result.error(NODE)).toBeUndefined();
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

	it.each(['STREAM_CRLF', 'STREAM_MULTILINE'])('handles %s framing', async (word) => {
		const result = await runNode(streamingChat(`hello ${word} ünïcödé ✓`), {
			credentials: gateway.credentials(),
		});
		expect(result.error(NODE)).toBeUndefined();
		expect(result.items[0].json.content).toBe(`Echo: hello ${word} ünïcödé ✓`);
	});

	it('fails with the gateway message when the stream carries an error', async () => {
		const result = await runNode(streamingChat('please STREAM_ERROR'), {
			credentials: gateway.credentials(),
		});
		expect(result.items).toHaveLength(0);
		expect(result.error(NODE)?.message).toBe('upstream overloaded');
		expect(result.error(NODE)?.name).toBe('NodeApiError');
	});

	it.each([
		[
			'STREAM_TRUNCATE',
			'The gateway stream ended before its final "[DONE]" line: the answer is incomplete',
		],
		['STREAM_DROP', expect.stringMatching(/^The gateway stream (ended before|broke off)/)],
	])('fails clearly, not with a partial answer, on %s', async (word, message) => {
		const result = await runNode(streamingChat(`please ${word}`), {
			credentials: gateway.credentials(),
		});
		expect(result.items).toHaveLength(0);
		expect(result.error(NODE)?.message).toEqual(message);
	});

	it('gives each failing stream its own error item under Continue On Fail', async () => {
		const input = [
			{ json: { q: 'fine one' } },
			{ json: { q: 'STREAM_ERROR here' } },
			{ json: { q: 'fine two' } },
		];
		const result = await runNode(
			{ ...streamingChat('={{ $json.q }}', { concurrency: 3 }), continueOnFail: true },
			{ credentials: gateway.credentials(), input },
		);
		expect(result.items.map((item) => item.json.content ?? item.json.error)).toEqual([
			'Echo: fine one',
			'upstream overloaded',
			'Echo: fine two',
		]);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
	});
});

describe('Model Gateway Chat: relaying to a streaming workflow', () => {
	it('sends each text delta to the workflow stream as it arrives, framed by begin and end', async () => {
		const chunks: StreamedChunk[] = [];
		const result = await runNode(streamingChat('relay these words please'), {
			credentials: gateway.credentials(),
			streamedChunks: chunks,
		});

		expect(result.error(NODE)).toBeUndefined();
		const types = chunks.map((chunk) => chunk.type);
		expect(types[0]).toBe('begin');
		expect(types[types.length - 1]).toBe('end');
		const items = chunks.filter((chunk) => chunk.type === 'item');
		expect(items.length).toBeGreaterThan(1);
		expect(items.map((chunk) => chunk.content).join('')).toBe(result.items[0].json.content);
		expect(
			chunks.every((chunk) => chunk.metadata.nodeName === NODE && chunk.metadata.itemIndex === 0),
		).toBe(true);
	});
});

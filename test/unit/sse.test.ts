import type { IDataObject } from 'n8n-workflow';

import type { SseEvent, StreamAggregator } from '../../nodes/shared/streams/sse';
import {
	aggregateEventStream,
	ChatStreamAggregator,
	readStreamedAnswer,
	ResponsesStreamAggregator,
	SseParser,
} from '../../nodes/shared/streams/sse';
import { createRedactor } from '../../nodes/shared/gateway/gatewayError';
import type { Simulator } from '../simulator';
import { testNode } from './testNode';
import { startSimulator } from '../simulator';

const NO_SECRETS = createRedactor([]);

/** Parses `chunks` in order and returns every event. */
function parseChunks(chunks: Array<Uint8Array | string>): SseEvent[] {
	const parser = new SseParser();
	return [...chunks.flatMap((chunk) => parser.push(chunk)), ...parser.end()];
}

function aggregate(events: SseEvent[], aggregator: StreamAggregator<IDataObject>): IDataObject {
	for (const event of events) aggregator.accept(event);
	return aggregator.finish();
}

/** A small deterministic PRNG (mulberry32), so a failing split can be reproduced. */
function random(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

describe('SseParser', () => {
	it('reads fields, comments, multi-line data, every line ending and a last event without blank line', () => {
		const text =
			': keep-alive\r\nevent: first\r\ndata: {"a":\r\ndata:  1}\r\nid: 7\r\n\r\ndata:x\rdata: y\r\rretry: 10\nunknown: field\ndata: last';
		expect(parseChunks([text])).toEqual([
			// One space after the colon is dropped, further spaces are data; the last id persists.
			{ event: 'first', data: '{"a":\n 1}', id: '7' },
			{ data: 'x\ny', id: '7' },
			{ data: 'last', id: '7' },
		]);
	});

	it('waits for the rest of a multi-byte character split across chunks', () => {
		const bytes = Buffer.from('data: 🌍é\n\n');
		const events = parseChunks([bytes.subarray(0, 7), bytes.subarray(7, 9), bytes.subarray(9)]);
		expect(events).toEqual([{ data: '🌍é' }]);
	});

	it('treats \\r then \\n in the next chunk as one line ending', () => {
		expect(parseChunks(['data: a\r', '\ndata: b\r', '\n\r', '\n'])).toEqual([{ data: 'a\nb' }]);
	});

	it('ignores an event with no data lines', () => {
		expect(parseChunks(['event: ping\n\n: only a comment\n\n'])).toEqual([]);
	});
});

describe('stream aggregators', () => {
	const chatChunk = (delta: object, extra: object = {}) => ({
		data: JSON.stringify({
			id: 'c1',
			model: 'm',
			choices: [{ index: 0, delta, finish_reason: null }],
			...extra,
		}),
	});

	it('merges two interleaved tool calls by index and keeps the usage chunk', () => {
		const result = aggregate(
			[
				chatChunk({
					role: 'assistant',
					tool_calls: [
						{ index: 0, id: 'a', type: 'function', function: { name: 'one', arguments: '' } },
					],
				}),
				chatChunk({
					tool_calls: [
						{ index: 1, id: 'b', type: 'function', function: { name: 'two', arguments: '{"y"' } },
					],
				}),
				chatChunk({ tool_calls: [{ index: 0, function: { arguments: '{"x":' } }] }),
				chatChunk({ tool_calls: [{ index: 1, function: { arguments: ':2}' } }] }),
				chatChunk({ tool_calls: [{ index: 0, function: { arguments: '1}' } }] }),
				{
					data: JSON.stringify({
						id: 'c1',
						choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }],
					}),
				},
				{ data: JSON.stringify({ id: 'c1', choices: [], usage: { total_tokens: 9 } }) },
				{ data: '[DONE]' },
			],
			new ChatStreamAggregator(),
		);
		expect(result).toEqual({
			id: 'c1',
			model: 'm',
			object: 'chat.completion',
			choices: [
				{
					index: 0,
					message: {
						role: 'assistant',
						content: null,
						tool_calls: [
							{ id: 'a', type: 'function', function: { name: 'one', arguments: '{"x":1}' } },
							{ id: 'b', type: 'function', function: { name: 'two', arguments: '{"y":2}' } },
						],
					},
					finish_reason: 'tool_calls',
				},
			],
			usage: { total_tokens: 9 },
		});
	});

	it('reports an error payload and a missing [DONE] as failures', () => {
		const failing = new ChatStreamAggregator();
		failing.accept(chatChunk({ content: 'Hi' }));
		expect(() => failing.accept({ data: '{"error":{"message":"boom"}}' })).toThrow('boom');
		const truncated = new ChatStreamAggregator();
		truncated.accept(chatChunk({ content: 'Hi' }));
		expect(() => truncated.finish()).toThrow('ended before its final "[DONE]"');
		expect(() => new ChatStreamAggregator().accept({ data: '{"broken' })).toThrow(
			'not a JSON object',
		);
	});

	it('rebuilds the response output from the deltas when response.completed carries none', () => {
		const event = (type: string, payload: object) => ({
			event: type,
			data: JSON.stringify({ type, ...payload }),
		});
		const result = aggregate(
			[
				event('response.created', {
					response: { id: 'r1', status: 'in_progress', model: 'm', output: [] },
				}),
				event('response.output_item.added', {
					output_index: 0,
					item: { id: 'm1', type: 'message', role: 'assistant', content: [] },
				}),
				event('response.content_part.added', {
					output_index: 0,
					content_index: 0,
					part: { type: 'output_text', text: '' },
				}),
				event('response.output_text.delta', { output_index: 0, content_index: 0, delta: 'Hel' }),
				event('response.output_text.delta', { output_index: 0, content_index: 0, delta: 'lo' }),
				event('response.output_item.added', {
					output_index: 1,
					item: { id: 'f1', type: 'function_call', name: 'f', call_id: 'c', arguments: '' },
				}),
				event('response.function_call_arguments.delta', { output_index: 1, delta: '{"a":' }),
				event('response.function_call_arguments.delta', { output_index: 1, delta: '1}' }),
				event('response.completed', {
					response: { id: 'r1', status: 'completed', usage: { total_tokens: 3 } },
				}),
			],
			new ResponsesStreamAggregator(),
		);
		expect(result).toEqual({
			id: 'r1',
			model: 'm',
			status: 'completed',
			usage: { total_tokens: 3 },
			output: [
				{
					id: 'm1',
					type: 'message',
					role: 'assistant',
					content: [{ type: 'output_text', text: 'Hello' }],
				},
				{ id: 'f1', type: 'function_call', name: 'f', call_id: 'c', arguments: '{"a":1}' },
			],
		});
	});

	it('reports response.failed with the response error', () => {
		const aggregator = new ResponsesStreamAggregator();
		expect(() =>
			aggregator.accept({
				data: JSON.stringify({
					type: 'response.failed',
					response: { error: { message: 'quota gone' } },
				}),
			}),
		).toThrow('quota gone');
	});
});

describe('recorded simulator streams, split at every byte position', () => {
	let simulator: Simulator;
	beforeAll(async () => {
		simulator = await startSimulator();
	});
	afterAll(async () => {
		await simulator.close();
	});

	async function record(path: string, body: object): Promise<Buffer> {
		const response = await fetch(`${simulator.baseUrl}${path}`, {
			method: 'POST',
			headers: { authorization: `Bearer ${simulator.apiKey}`, 'content-type': 'application/json' },
			body: JSON.stringify({ ...body, stream: true }),
		});
		expect(response.headers.get('content-type')).toMatch(/event-stream/);
		return Buffer.from(await response.arrayBuffer());
	}

	const cases: Array<{
		name: string;
		path: string;
		body: object;
		aggregator: () => StreamAggregator<IDataObject>;
	}> = [
		{
			name: 'chat text, CRLF, multi-byte characters, usage',
			path: '/v1/chat/completions',
			body: {
				model: 'm',
				messages: [{ role: 'user', content: 'STREAM_CRLF Grüße 你好 🌍🎉 ok' }],
				stream_options: { include_usage: true },
			},
			aggregator: () => new ChatStreamAggregator(),
		},
		{
			name: 'chat tool-call fragments',
			path: '/v1/chat/completions',
			body: {
				model: 'm',
				messages: [{ role: 'user', content: 'weather?' }],
				tools: [{ type: 'function', function: { name: 'get_weather' } }],
			},
			aggregator: () => new ChatStreamAggregator(),
		},
		{
			name: 'responses events with multi-line data',
			path: '/v1/responses',
			body: { model: 'm', input: 'STREAM_MULTILINE ünïcödé ✓ 🌍', reasoning: { effort: 'low' } },
			aggregator: () => new ResponsesStreamAggregator(),
		},
	];

	it.each(cases)(
		'$name: every two-way split and many random splits give the same events and result',
		async ({ path, body, aggregator }) => {
			const bytes = await record(path, body);
			const expectedEvents = parseChunks([bytes]);
			const expected = aggregate(expectedEvents, aggregator());
			expect(expectedEvents.length).toBeGreaterThan(5);
			expect(JSON.stringify(expected)).toMatch(/Echo|get_weather/);

			for (let cut = 0; cut <= bytes.length; cut++) {
				const events = parseChunks([bytes.subarray(0, cut), bytes.subarray(cut)]);
				if (JSON.stringify(events) !== JSON.stringify(expectedEvents)) {
					throw new Error(`Split at byte ${cut} of ${bytes.length} changed the events`);
				}
			}
			const next = random(42);
			for (let run = 0; run < 300; run++) {
				const chunks: Uint8Array[] = [];
				for (let start = 0; start < bytes.length; ) {
					const size = 1 + Math.floor(next() * 24);
					chunks.push(bytes.subarray(start, start + size));
					start += size;
				}
				expect(aggregate(parseChunks(chunks), aggregator())).toEqual(expected);
			}
			// One byte at a time, the worst case.
			expect(
				aggregate(parseChunks([...bytes].map((byte) => Uint8Array.of(byte))), aggregator()),
			).toEqual(expected);
		},
	);
});

describe('reading a stream for a node', () => {
	async function* chunksOf(text: string, size: number): AsyncGenerator<Buffer> {
		const bytes = Buffer.from(text);
		for (let start = 0; start < bytes.length; start += size)
			yield bytes.subarray(start, start + size);
	}

	const chatStream =
		['Hel', 'lo 🌍', '!']
			.map(
				(content) =>
					`data: ${JSON.stringify({ id: 'c', choices: [{ index: 0, delta: { content } }] })}\n\n`,
			)
			.join('') + 'data: [DONE]\n\n';

	function fakeContext(streaming: boolean | undefined) {
		const chunks: Array<[string, number, string | undefined]> = [];
		const context = {
			getNode: () => testNode(),
			...(streaming === undefined
				? {}
				: {
						isStreaming: () => streaming,
						sendChunk: (type: string, itemIndex: number, content?: string) => {
							chunks.push([type, itemIndex, content]);
						},
					}),
		};
		return { context: context as unknown as Parameters<typeof readStreamedAnswer>[0], chunks };
	}

	it('relays text deltas with sendChunk when the workflow streams', async () => {
		const { context, chunks } = fakeContext(true);
		const result = await readStreamedAnswer(
			context,
			{
				body: chunksOf(chatStream, 5),
				headers: { 'content-type': 'text/event-stream' },
				redactor: NO_SECRETS,
			},
			new ChatStreamAggregator(),
			3,
		);
		expect((result.choices as IDataObject[])[0]).toMatchObject({
			message: { content: 'Hello 🌍!' },
		});
		expect(chunks).toEqual([
			['begin', 3, undefined],
			['item', 3, 'Hel'],
			['item', 3, 'lo 🌍'],
			['item', 3, '!'],
			['end', 3, undefined],
		]);
	});

	it('relays the failure as an error chunk and throws a node error when the stream breaks off', async () => {
		const { context, chunks } = fakeContext(true);
		const truncated = chatStream.replace('data: [DONE]\n\n', '');
		await expect(
			readStreamedAnswer(
				context,
				{ body: chunksOf(truncated, 7), headers: {}, traceId: 't-1', redactor: NO_SECRETS },
				new ChatStreamAggregator(),
				0,
			),
		).rejects.toMatchObject({
			name: 'NodeApiError',
			message: 'The gateway stream ended before its final "[DONE]" line: the answer is incomplete',
			description: expect.stringContaining('X-Trace-ID t-1'),
		});
		expect(chunks.map(([type]) => type)).toEqual(['begin', 'item', 'item', 'item', 'error']);
		expect(chunks[4][2]).toMatch(/ended before its final "\[DONE\]"/);
	});

	it('redacts the key from an in-stream error, in the thrown error and in the relayed chunk', async () => {
		const { context, chunks } = fakeContext(true);
		const key = 'sk-live-secret-123';
		const stream =
			'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}\n\n' +
			`data: {"error":{"message":"key ${key} is over quota","param":{"auth":"Bearer ${key}"},"echo":["${key}"]}}\n\n`;
		const failure = await readStreamedAnswer(
			context,
			{ body: chunksOf(stream, 9), headers: {}, redactor: createRedactor([key]) },
			new ChatStreamAggregator(),
			0,
		).catch((error: unknown) => error as Error & { description?: string });
		expect(failure).toMatchObject({
			name: 'NodeApiError',
			message: 'key *** is over quota',
		});
		expect((failure as unknown as { errorResponse: unknown }).errorResponse).toMatchObject({
			body: { error: { param: { auth: 'Bearer ***' }, echo: ['***'] } },
		});
		expect(JSON.stringify({ failure, chunks, ...failure })).not.toContain(key);
		expect(chunks[chunks.length - 1]).toEqual(['error', 0, 'key *** is over quota']);
	});

	it.each([false, undefined])(
		'only aggregates when the workflow does not stream (isStreaming %p)',
		async (streaming) => {
			const { context, chunks } = fakeContext(streaming);
			const result = await readStreamedAnswer(
				context,
				{ body: chunksOf(chatStream, 3), headers: {}, redactor: NO_SECRETS },
				new ChatStreamAggregator(),
				0,
			);
			expect((result.choices as IDataObject[])[0]).toMatchObject({
				message: { content: 'Hello 🌍!' },
			});
			expect(chunks).toEqual([]);
		},
	);

	it('turns a broken connection into a failure, not a partial result', async () => {
		async function* breaking(): AsyncGenerator<Buffer> {
			yield Buffer.from(chatStream.slice(0, 40));
			throw new Error('socket hang up');
		}
		const outcome = await aggregateEventStream(breaking(), new ChatStreamAggregator());
		expect(outcome).toEqual({
			failure: expect.objectContaining({
				kind: 'truncated',
				message: expect.stringContaining('socket hang up'),
			}),
		});
	});

	it('accepts a plain JSON answer from a gateway that ignored stream: true', async () => {
		const { context } = fakeContext(undefined);
		const answer = { id: 'x', choices: [{ index: 0, message: { content: 'Hi' } }] };
		const result = await readStreamedAnswer(
			context,
			{
				body: chunksOf(JSON.stringify(answer), 4),
				headers: { 'content-type': 'application/json' },
				redactor: NO_SECRETS,
			},
			new ChatStreamAggregator(),
			0,
		);
		expect(result).toEqual(answer);
	});

	it('fails a plain JSON error body sent instead of a stream: its words, its code, the trace id, no key', async () => {
		const { context, chunks } = fakeContext(true);
		const key = 'sk-live-secret-123';
		const body = `{"error":{"message":"quota of ${key} used up","type":"insufficient_quota","code":"quota"}}`;
		const failure = await readStreamedAnswer(
			context,
			{
				body: chunksOf(body, 5),
				headers: { 'content-type': 'application/json' },
				traceId: 't-39',
				redactor: createRedactor([key]),
			},
			new ChatStreamAggregator(),
			0,
		).catch((error: unknown) => error as Error & { description?: string });
		expect(failure).toMatchObject({
			name: 'NodeApiError',
			message: 'quota of *** used up',
			description: expect.stringMatching(/error code quota\)\. X-Trace-ID t-39\.$/),
		});
		expect(JSON.stringify({ failure, ...failure })).not.toContain(key);
		// Nothing was streamed to the chat: no begin, no error chunk.
		expect(chunks).toEqual([]);
	});
});

import type { IDataObject } from 'n8n-workflow';

import type { SseEvent } from '../../nodes/shared/streams/sse';
import {
	ChatStreamAggregator,
	ResponsesStreamAggregator,
	SseParser,
	StreamFailure,
} from '../../nodes/shared/streams/sse';

/** What the stream readers make of the less common shapes upstreams send. */

const data = (payload: unknown, event?: string): SseEvent => ({
	data: typeof payload === 'string' ? payload : JSON.stringify(payload),
	...(event ? { event } : {}),
});

function failureOf(action: () => unknown): StreamFailure {
	try {
		action();
	} catch (error) {
		expect(error).toBeInstanceOf(StreamFailure);
		return error as StreamFailure;
	}
	throw new Error('expected a StreamFailure');
}

describe('SseParser fields', () => {
	it('keeps the id, reads a field without a colon or without the space, and a lone \\r line end', () => {
		const parser = new SseParser();
		const events = [
			...parser.push('id: 7\nevent:delta\ndata:{"a":1}\ndata\n\n'),
			...parser.push('data: x\r\r'),
			...parser.end(),
		];
		expect(events).toEqual([
			{ data: '{"a":1}\n', event: 'delta', id: '7' },
			{ data: 'x', id: '7' },
		]);
	});
});

describe('ChatStreamAggregator', () => {
	it('takes refusals, a second choice (not relayed), tool calls without index or id, and no role', () => {
		const chat = new ChatStreamAggregator();
		const relayed = [
			chat.accept(data({ id: 'c1', model: 'm', choices: [{ delta: { refusal: 'I ' } }] })),
			chat.accept(data({ choices: [{ index: 0, delta: { refusal: 'cannot' } }] })),
			chat.accept(data({ choices: [{ index: 1, delta: { content: 'second' } }] })),
			chat.accept(
				data({
					choices: [
						{
							index: 1,
							delta: { tool_calls: [{ function: { name: 'look', arguments: '{"q":' } }] },
						},
					],
				}),
			),
			chat.accept(
				data({
					choices: [
						{ index: 1, delta: { tool_calls: [{ index: 0, function: { arguments: '1}' } }] } },
					],
				}),
			),
			chat.accept(data({ choices: ['not a choice', { index: 1, finish_reason: 'tool_calls' }] })),
			chat.accept(data('[DONE]')),
		];
		expect(relayed).toEqual([
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
		]);
		expect(chat.finish()).toEqual({
			id: 'c1',
			model: 'm',
			object: 'chat.completion',
			choices: [
				{
					index: 0,
					message: { role: 'assistant', content: null, refusal: 'I cannot' },
					finish_reason: null,
				},
				{
					index: 1,
					message: {
						role: 'assistant',
						content: 'second',
						tool_calls: [{ type: 'function', function: { name: 'look', arguments: '{"q":1}' } }],
					},
					finish_reason: 'tool_calls',
				},
			],
		});
	});

	it('an error chunk without a message, and a chunk that is not a JSON object', () => {
		expect(failureOf(() => new ChatStreamAggregator().accept(data({ error: {} })))).toMatchObject({
			message: 'The gateway reported an error inside the stream',
			kind: 'upstream',
		});
		expect(
			failureOf(() => new ChatStreamAggregator().accept(data({ error: 'overloaded' }))),
		).toMatchObject({ message: 'overloaded' });
		expect(failureOf(() => new ChatStreamAggregator().accept(data('[1,2]')))).toMatchObject({
			kind: 'malformed',
			message: 'The gateway sent a stream event that is not a JSON object: [1,2]',
		});
	});
});

describe('ResponsesStreamAggregator', () => {
	const completed = (response: IDataObject) => data({ type: 'response.completed', response });

	it('reads the type from the event name, and rebuilds text parts, function arguments and status', () => {
		const responses = new ResponsesStreamAggregator();
		const relayed = [
			responses.accept(data({ response: { id: 'r1', model: 'm' } }, 'response.queued')),
			responses.accept(data({ type: 'response.output_text.delta', delta: 'Hel' })),
			responses.accept(data({ type: 'response.output_text.delta', delta: '' })),
			responses.accept(data({ type: 'response.output_text.done', text: 'Hello' })),
			responses.accept(
				data({
					type: 'response.content_part.added',
					output_index: 0,
					content_index: 1,
					part: { type: 'refusal' },
				}),
			),
			responses.accept(
				data({ type: 'response.function_call_arguments.delta', output_index: 1, delta: '{"a"' }),
			),
			responses.accept(data({ type: 'response.function_call_arguments.delta', output_index: 1 })),
			responses.accept(data({ type: 'response.function_call_arguments.done', output_index: 1 })),
			responses.accept(data({ type: 'response.reasoning_summary_text.delta', delta: 'ignored' })),
			responses.accept(data({ type: 'response.incomplete', response: 'not an object' })),
		];
		expect(relayed).toEqual([
			undefined,
			'Hel',
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
			undefined,
		]);
		expect(responses.finish()).toEqual({
			id: 'r1',
			model: 'm',
			status: 'completed',
			output: [
				{
					type: 'message',
					role: 'assistant',
					content: [{ type: 'output_text', text: 'Hello' }, { type: 'refusal' }],
				},
				{ type: 'message', role: 'assistant', content: [], arguments: '{"a"' },
			],
		});
	});

	it('keeps the final response when it carries its output, and its own status', () => {
		const responses = new ResponsesStreamAggregator();
		responses.accept(data({ type: 'response.output_item.added', item: { type: 'message' } }));
		const final = { id: 'r2', status: 'incomplete', output: [{ type: 'message', content: [] }] };
		responses.accept(data({ type: 'response.incomplete', response: final }));
		expect(responses.finish()).toEqual(final);
		const noOutput = new ResponsesStreamAggregator();
		noOutput.accept(completed({ id: 'r3', status: 'incomplete' }));
		expect(noOutput.finish()).toEqual({ id: 'r3', status: 'incomplete', output: [] });
	});

	it('error events: the message at the top, nested under error, or none; response.failed without an error', () => {
		const accept = (payload: IDataObject, event?: string) => () =>
			new ResponsesStreamAggregator().accept(data(payload, event));
		expect(failureOf(accept({ type: 'error', message: 'top' })).message).toBe('top');
		expect(failureOf(accept({ error: { message: 'nested' } }, 'error')).message).toBe('nested');
		expect(failureOf(accept({ type: 'error' })).message).toBe(
			'The gateway reported an error inside the stream',
		);
		expect(failureOf(accept({ type: 'response.failed' })).message).toBe('The response failed');
		expect(failureOf(() => new ResponsesStreamAggregator().finish()).kind).toBe('truncated');
	});
});

describe('held to the API success rule (textAnswers.ts), streamed or whole', () => {
	const gatewayError = { error: { message: 'The upstream is overloaded', code: 'overloaded' } };

	it('a chat stream that ends without a choice is no answer', () => {
		const aggregator = new ChatStreamAggregator();
		aggregator.accept(data({ id: 'c', choices: [], usage: { total_tokens: 3 } }));
		aggregator.accept(data('[DONE]'));
		expect(failureOf(() => aggregator.finish())).toMatchObject({
			kind: 'no-answer',
			code: 'NO_ANSWER',
			message: 'The gateway answered without an answer: the chat completion has no "choices"',
		});
	});

	it('a responses stream whose completed response failed is no answer', () => {
		const aggregator = new ResponsesStreamAggregator();
		aggregator.accept(
			data({
				type: 'response.completed',
				response: { status: 'failed', output: [], error: { code: 'quota', message: 'no quota' } },
			}),
		);
		expect(failureOf(() => aggregator.finish())).toMatchObject({
			kind: 'no-answer',
			code: 'quota',
			message: 'no quota',
		});
	});

	it.each<[string, () => { whole(answer: IDataObject): IDataObject }, IDataObject]>([
		['chat', () => new ChatStreamAggregator(), { choices: [{ message: { content: 'Hi' } }] }],
		['responses', () => new ResponsesStreamAggregator(), { output: [{ type: 'message' }] }],
	])('%s: a whole answer sent instead of a stream is held to it too', (_name, make, answer) => {
		expect(make().whole(answer)).toEqual(answer);
		expect(failureOf(() => make().whole(gatewayError))).toMatchObject({
			kind: 'no-answer',
			code: 'overloaded',
			message: 'The upstream is overloaded',
			payload: gatewayError,
		});
	});
});

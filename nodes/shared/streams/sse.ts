import type { IDataObject, IExecuteFunctions, INode, NodeApiError } from 'n8n-workflow';

import type { Redactor } from '../gateway/gatewayError';
import { gatewayApiError } from '../gateway/gatewayError';
import type { BusinessFailureCheck } from '../gateway/transport';
import { chatCompletionFailure, responseFailure } from '../schemas/textAnswers';

/**
 * Server-sent events: an incremental parser that is correct for every split of the byte
 * stream, and the aggregators that turn a chat or responses event stream into the same
 * object the non-streamed call returns, held to the same success rule (textAnswers.ts).
 */

export interface SseEvent {
	/** The `event:` field, when the server named the event. */
	event?: string;
	/** All `data:` lines of the event, joined with `\n`. */
	data: string;
	id?: string;
}

/**
 * Feed it chunks as they arrive (`push`), then call `end` once. Chunk boundaries may fall
 * anywhere: inside a line, between `\r` and `\n`, inside a multi-byte UTF-8 character.
 */
export class SseParser {
	// `stream: true` keeps an incomplete UTF-8 sequence until its remaining bytes arrive.
	private readonly decoder = new TextDecoder('utf-8');
	private pending = '';
	private dataLines: string[] = [];
	private eventName: string | undefined;
	private eventId: string | undefined;

	push(chunk: Uint8Array | string): SseEvent[] {
		const text = typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true });
		const events: SseEvent[] = [];
		this.consumeLines(text, events, false);
		return events;
	}

	/** Flushes what is left. A last event without its blank line is still delivered. */
	end(): SseEvent[] {
		const events: SseEvent[] = [];
		this.consumeLines(this.decoder.decode(), events, true);
		if (this.pending !== '') this.handleLine(this.pending, events);
		this.pending = '';
		this.dispatch(events);
		return events;
	}

	private consumeLines(text: string, events: SseEvent[], final: boolean): void {
		const buffer = this.pending === '' ? text : this.pending + text;
		let lineStart = 0;
		// Next line feed and carriage return at or after lineStart; -1 = none left in buffer.
		let lineFeed = -2;
		let carriageReturn = -2;
		for (;;) {
			if (lineFeed !== -1 && lineFeed < lineStart) lineFeed = buffer.indexOf('\n', lineStart);
			if (carriageReturn !== -1 && carriageReturn < lineStart)
				carriageReturn = buffer.indexOf('\r', lineStart);
			if (lineFeed === -1 && carriageReturn === -1) break;
			const isCarriageReturn =
				carriageReturn !== -1 && (lineFeed === -1 || carriageReturn < lineFeed);
			const lineEnd = isCarriageReturn ? carriageReturn : lineFeed;
			// A `\r` at the very end may be the first half of `\r\n`: wait for the next chunk.
			if (isCarriageReturn && lineEnd === buffer.length - 1 && !final) break;
			this.handleLine(buffer.slice(lineStart, lineEnd), events);
			lineStart = isCarriageReturn && lineFeed === lineEnd + 1 ? lineEnd + 2 : lineEnd + 1;
		}
		this.pending = buffer.slice(lineStart);
	}

	private handleLine(line: string, events: SseEvent[]): void {
		if (line === '') {
			this.dispatch(events);
			return;
		}
		if (line.charCodeAt(0) === 58 /* ':' */) return; // a comment, e.g. a keep-alive
		const colon = line.indexOf(':');
		const field = colon === -1 ? line : line.slice(0, colon);
		let value = colon === -1 ? '' : line.slice(colon + 1);
		if (value.startsWith(' ')) value = value.slice(1);
		if (field === 'data') this.dataLines.push(value);
		else if (field === 'event') this.eventName = value;
		else if (field === 'id') this.eventId = value;
	}

	private dispatch(events: SseEvent[]): void {
		if (this.dataLines.length > 0) {
			events.push({
				data: this.dataLines.join('\n'),
				...(this.eventName !== undefined ? { event: this.eventName } : {}),
				...(this.eventId !== undefined ? { id: this.eventId } : {}),
			});
		}
		this.dataLines = [];
		this.eventName = undefined;
	}
}

/**
 * Why a stream did not produce a result: an error inside it (`upstream`), an end before its
 * last event (`truncated`), something unreadable (`malformed`), or an answer that is no
 * success of its API (`no-answer`, with the gateway's own code when it gave one).
 */
export class StreamFailure extends Error {
	constructor(
		message: string,
		readonly kind: 'upstream' | 'truncated' | 'malformed' | 'no-answer',
		readonly payload?: IDataObject,
		readonly code?: string,
	) {
		super(message);
		this.name = 'StreamFailure';
	}
}

/** Turns the events of one stream into its final object. */
export interface StreamAggregator<TResult> {
	/** Takes one event; returns the text it adds to the answer, if any (for relaying). */
	accept(event: SseEvent): string | undefined;
	/**
	 * The aggregated result; throws StreamFailure when the stream never finished or finished
	 * without an answer.
	 */
	finish(): TResult;
	/**
	 * A whole answer a gateway sent instead of a stream, held to the same rule as an
	 * aggregated one; throws StreamFailure when it is no answer.
	 */
	whole(answer: IDataObject): TResult;
}

/** The answer when it is a success of its API (`rule`), else the StreamFailure it is. */
function heldTo(rule: BusinessFailureCheck, answer: IDataObject): IDataObject {
	const failure = rule(answer);
	if (failure) throw new StreamFailure(failure.message, 'no-answer', answer, failure.code);
	return answer;
}

function parseEventJson(event: SseEvent): IDataObject {
	try {
		const parsed = JSON.parse(event.data) as unknown;
		if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
			return parsed as IDataObject;
	} catch {
		// reported below
	}
	throw new StreamFailure(
		`The gateway sent a stream event that is not a JSON object: ${event.data.slice(0, 200)}`,
		'malformed',
	);
}

function errorMessageOf(error: unknown): string | undefined {
	if (typeof error === 'string' && error !== '') return error;
	if (error && typeof error === 'object') {
		const message = (error as IDataObject).message;
		if (typeof message === 'string' && message !== '') return message;
	}
	return undefined;
}

const isRecord = (value: unknown): value is IDataObject =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

// ---------------------------------------------------------------------------------------
// Chat completions
// ---------------------------------------------------------------------------------------

interface ToolCallDraft {
	index: number;
	id?: string;
	type?: string;
	name?: string;
	arguments: string;
}

interface ChoiceDraft {
	index: number;
	role?: string;
	content: string;
	hasContent: boolean;
	refusal?: string;
	toolCalls: Map<number, ToolCallDraft>;
	finishReason: string | null;
}

/**
 * `chat.completion.chunk` events → one `chat.completion`: content concatenated, tool-call
 * fragments merged by their `index`, usage from the chunk that carries it, `[DONE]` ends it.
 */
export class ChatStreamAggregator implements StreamAggregator<IDataObject> {
	private readonly choices = new Map<number, ChoiceDraft>();
	private header: IDataObject = {};
	private usage: IDataObject | undefined;
	private done = false;

	accept(event: SseEvent): string | undefined {
		if (event.data.trim() === '[DONE]') {
			this.done = true;
			return undefined;
		}
		const chunk = parseEventJson(event);
		const errorMessage = errorMessageOf(chunk.error);
		if (chunk.error !== undefined && chunk.error !== null) {
			throw new StreamFailure(
				errorMessage ?? 'The gateway reported an error inside the stream',
				'upstream',
				chunk,
			);
		}
		for (const key of ['id', 'model', 'created', 'system_fingerprint', 'service_tier'] as const) {
			if (chunk[key] !== undefined && chunk[key] !== null) this.header[key] = chunk[key];
		}
		if (isRecord(chunk.usage)) this.usage = chunk.usage;
		let text = '';
		for (const choice of Array.isArray(chunk.choices) ? chunk.choices : []) {
			if (isRecord(choice)) text += this.mergeChoice(choice);
		}
		return text === '' ? undefined : text;
	}

	private mergeChoice(choice: IDataObject): string {
		const index = typeof choice.index === 'number' ? choice.index : 0;
		let draft = this.choices.get(index);
		if (!draft) {
			draft = { index, content: '', hasContent: false, toolCalls: new Map(), finishReason: null };
			this.choices.set(index, draft);
		}
		if (typeof choice.finish_reason === 'string') draft.finishReason = choice.finish_reason;
		const delta = isRecord(choice.delta) ? choice.delta : {};
		if (typeof delta.role === 'string') draft.role = delta.role;
		if (typeof delta.refusal === 'string') draft.refusal = (draft.refusal ?? '') + delta.refusal;
		for (const fragment of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
			if (isRecord(fragment)) mergeToolCall(draft.toolCalls, fragment);
		}
		if (typeof delta.content === 'string') {
			draft.content += delta.content;
			draft.hasContent = true;
			return index === 0 ? delta.content : '';
		}
		return '';
	}

	finish(): IDataObject {
		if (!this.done) {
			throw new StreamFailure(
				'The gateway stream ended before its final "[DONE]" line: the answer is incomplete',
				'truncated',
			);
		}
		const choices = [...this.choices.values()]
			.sort((a, b) => a.index - b.index)
			.map((draft) => {
				const toolCalls = [...draft.toolCalls.values()]
					.sort((a, b) => a.index - b.index)
					.map((call) => ({
						...(call.id !== undefined ? { id: call.id } : {}),
						type: call.type ?? 'function',
						function: { name: call.name ?? '', arguments: call.arguments },
					}));
				return {
					index: draft.index,
					message: {
						role: draft.role ?? 'assistant',
						// Like the non-streamed answer: no text at all is null, e.g. next to tool calls.
						content:
							draft.hasContent && (draft.content !== '' || toolCalls.length === 0)
								? draft.content
								: null,
						...(draft.refusal !== undefined ? { refusal: draft.refusal } : {}),
						...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
					},
					finish_reason: draft.finishReason,
				};
			});
		return this.whole({
			...this.header,
			object: 'chat.completion',
			choices,
			...(this.usage ? { usage: this.usage } : {}),
		});
	}

	whole(answer: IDataObject): IDataObject {
		return heldTo(chatCompletionFailure, answer);
	}
}

function mergeToolCall(calls: Map<number, ToolCallDraft>, fragment: IDataObject): void {
	const index = typeof fragment.index === 'number' ? fragment.index : calls.size;
	const call = calls.get(index) ?? { index, arguments: '' };
	if (typeof fragment.id === 'string') call.id = fragment.id;
	if (typeof fragment.type === 'string') call.type = fragment.type;
	const fn = isRecord(fragment.function) ? fragment.function : {};
	if (typeof fn.name === 'string') call.name = (call.name ?? '') + fn.name;
	if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
	calls.set(index, call);
}

// ---------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------

/**
 * Typed responses events → the final response object. The object carried by
 * `response.completed` (or `response.incomplete`) wins; when it lacks its output, the output
 * is rebuilt from the item and delta events.
 */
export class ResponsesStreamAggregator implements StreamAggregator<IDataObject> {
	private snapshot: IDataObject = {};
	private readonly items: IDataObject[] = [];
	private final: IDataObject | undefined;

	accept(event: SseEvent): string | undefined {
		const payload = parseEventJson(event);
		const type = typeof payload.type === 'string' ? payload.type : (event.event ?? '');
		const outputIndex = typeof payload.output_index === 'number' ? payload.output_index : 0;
		const contentIndex = typeof payload.content_index === 'number' ? payload.content_index : 0;
		switch (type) {
			case 'error':
				throw new StreamFailure(
					errorMessageOf(payload) ??
						errorMessageOf(payload.error) ??
						'The gateway reported an error inside the stream',
					'upstream',
					payload,
				);
			case 'response.failed': {
				const response = isRecord(payload.response) ? payload.response : {};
				throw new StreamFailure(
					errorMessageOf(response.error) ?? 'The response failed',
					'upstream',
					payload,
				);
			}
			case 'response.created':
			case 'response.in_progress':
			case 'response.queued':
				if (isRecord(payload.response)) this.snapshot = payload.response;
				return undefined;
			case 'response.completed':
			case 'response.incomplete':
				this.final = isRecord(payload.response) ? payload.response : {};
				return undefined;
			case 'response.output_item.added':
			case 'response.output_item.done':
				if (isRecord(payload.item)) this.items[outputIndex] = { ...payload.item };
				return undefined;
			case 'response.content_part.added':
			case 'response.content_part.done':
				if (isRecord(payload.part)) this.contentOf(outputIndex)[contentIndex] = { ...payload.part };
				return undefined;
			case 'response.output_text.delta': {
				const delta = typeof payload.delta === 'string' ? payload.delta : '';
				const part = this.partOf(outputIndex, contentIndex);
				part.text = (typeof part.text === 'string' ? part.text : '') + delta;
				return delta === '' ? undefined : delta;
			}
			case 'response.output_text.done':
				if (typeof payload.text === 'string')
					this.partOf(outputIndex, contentIndex).text = payload.text;
				return undefined;
			case 'response.function_call_arguments.delta': {
				const item = this.itemAt(outputIndex);
				item.arguments =
					(typeof item.arguments === 'string' ? item.arguments : '') + String(payload.delta ?? '');
				return undefined;
			}
			case 'response.function_call_arguments.done':
				if (typeof payload.arguments === 'string')
					this.itemAt(outputIndex).arguments = payload.arguments;
				return undefined;
			default:
				return undefined;
		}
	}

	private itemAt(outputIndex: number): IDataObject {
		this.items[outputIndex] ??= { type: 'message', role: 'assistant', content: [] };
		return this.items[outputIndex];
	}

	private contentOf(outputIndex: number): IDataObject[] {
		const item = this.itemAt(outputIndex);
		if (!Array.isArray(item.content)) item.content = [];
		return item.content as IDataObject[];
	}

	private partOf(outputIndex: number, contentIndex: number): IDataObject {
		const content = this.contentOf(outputIndex);
		content[contentIndex] ??= { type: 'output_text', text: '' };
		return content[contentIndex];
	}

	finish(): IDataObject {
		if (!this.final) {
			throw new StreamFailure(
				'The gateway stream ended before "response.completed": the response is incomplete',
				'truncated',
			);
		}
		if (Array.isArray(this.final.output)) return this.whole(this.final);
		return this.whole({
			...this.snapshot,
			...this.final,
			status: this.final.status ?? 'completed',
			output: this.items.filter((item) => item !== undefined),
		});
	}

	whole(answer: IDataObject): IDataObject {
		return heldTo(responseFailure, answer);
	}
}

// ---------------------------------------------------------------------------------------
// Reading a stream
// ---------------------------------------------------------------------------------------

export type StreamOutcome<TResult> = { result: TResult } | { failure: StreamFailure };

export function asStreamFailure(error: unknown): StreamFailure {
	if (error instanceof StreamFailure) return error;
	const reason = error instanceof Error ? error.message : String(error);
	return new StreamFailure(
		`The gateway stream broke off before it was complete (${reason})`,
		'truncated',
	);
}

/**
 * Feeds a byte stream through the parser into the aggregator, yielding each text delta as it
 * arrives; returns the aggregate, or the failure of any kind (it never throws one).
 */
export async function* eventStreamTexts<TResult>(
	body: AsyncIterable<Uint8Array | string>,
	aggregator: StreamAggregator<TResult>,
): AsyncGenerator<string, StreamOutcome<TResult>> {
	const parser = new SseParser();
	try {
		for await (const chunk of body) {
			for (const event of parser.push(chunk)) {
				const text = aggregator.accept(event);
				if (text !== undefined) yield text;
			}
		}
		for (const event of parser.end()) {
			const text = aggregator.accept(event);
			if (text !== undefined) yield text;
		}
		return { result: aggregator.finish() };
	} catch (error) {
		return { failure: asStreamFailure(error) };
	}
}

/**
 * Feeds a byte stream through the parser into the aggregator; `onText` sees text deltas.
 * Never throws: a failure of any kind comes back as `failure`.
 */
export async function aggregateEventStream<TResult>(
	body: AsyncIterable<Uint8Array | string>,
	aggregator: StreamAggregator<TResult>,
	onText?: (delta: string) => Promise<void> | void,
): Promise<StreamOutcome<TResult>> {
	const texts = eventStreamTexts(body, aggregator);
	for (;;) {
		const next = await texts.next();
		if (next.done === true) return next.value;
		if (onText) await onText(next.value);
	}
}

/**
 * The node error for a stream failure: the gateway's own words, or what went wrong. Built
 * through gatewayApiError, so a gateway that echoes the key in its stream error leaks nothing.
 */
export function streamFailureError(
	node: INode,
	failure: StreamFailure,
	itemIndex: number,
	redactor: Redactor,
	traceId?: string,
): NodeApiError {
	return gatewayApiError(
		node,
		{
			message: failure.message,
			code: failure.code ?? (failure.kind === 'upstream' ? 'STREAM_ERROR' : 'STREAM_INCOMPLETE'),
			body: failure.payload,
			description: `${STREAM_FAILURE_NOTES[failure.kind](failure)}${traceId ? ` X-Trace-ID ${traceId}.` : ''}`,
			itemIndex,
		},
		redactor,
	);
}

const UNFINISHED = 'The streamed answer did not finish, so no partial result is returned.';

/** What the error's description says about each kind of stream failure. */
const STREAM_FAILURE_NOTES: Record<StreamFailure['kind'], (failure: StreamFailure) => string> = {
	upstream: () =>
		'The gateway reported this error in the middle of the streamed answer; the partial answer was discarded.',
	truncated: () => UNFINISHED,
	malformed: () => UNFINISHED,
	'no-answer': (failure) =>
		`The gateway answered the streamed request with HTTP 200 but without an answer (error code ${failure.code ?? 'none'}).`,
};

/** Whether a streamed request was answered with server-sent events (the default when unsaid). */
export function isEventStream(headers: Record<string, string>): boolean {
	return /event-stream/i.test(headers['content-type'] ?? 'text/event-stream');
}

/** Whether a body is a byte stream, as n8n hands on the answer to a stream request. */
export function isByteStream(body: unknown): body is AsyncIterable<Uint8Array | string> {
	return typeof body === 'object' && body !== null && Symbol.asyncIterator in body;
}

/**
 * A gateway may answer a stream request with one plain JSON object: read it whole, decoded
 * once; anything else throws a StreamFailure.
 */
async function readWholeJsonAnswer(
	stream: AsyncIterable<Uint8Array | string>,
): Promise<IDataObject> {
	const chunks: Buffer[] = [];
	for await (const chunk of stream)
		chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
	const text = Buffer.concat(chunks).toString('utf8');
	try {
		const parsed = JSON.parse(text) as unknown;
		if (isRecord(parsed)) return parsed;
	} catch {
		// reported below
	}
	throw new StreamFailure(
		`The gateway answered a stream request with: ${text.slice(0, 200)}`,
		'malformed',
	);
}

/**
 * The answer to a stream request that is not an event stream (a gateway may answer with one
 * plain JSON object): read whole and held to its API's rule like an aggregated answer. Never
 * throws: a failure of any kind comes back as `failure`.
 */
export async function wholeAnswerOutcome(
	body: unknown,
	aggregator: StreamAggregator<IDataObject>,
): Promise<StreamOutcome<IDataObject>> {
	try {
		if (isByteStream(body)) return { result: aggregator.whole(await readWholeJsonAnswer(body)) };
		if (isRecord(body)) return { result: aggregator.whole(body) };
		throw new StreamFailure('The gateway sent no stream', 'malformed');
	} catch (error) {
		return { failure: asStreamFailure(error) };
	}
}

/**
 * The workflow-streaming side of n8n (`isStreaming`, `sendChunk`), present on n8n 1.10x
 * and later. Typed structurally so the package also loads on lines that lack it.
 */
interface StreamingCapableContext {
	isStreaming?: () => boolean;
	sendChunk?: (
		type: 'begin' | 'item' | 'end' | 'error',
		itemIndex: number,
		content?: string,
	) => unknown;
}

/**
 * Reads a streamed gateway answer for one item into its aggregated object, relaying text
 * deltas to the workflow's own stream when the workflow streams. A gateway that answers
 * with plain JSON despite `stream: true` is read whole; either way the answer is held to its
 * API's rule (the aggregator's), so a body without an answer fails the item.
 */
export async function readStreamedAnswer(
	context: IExecuteFunctions,
	response: {
		body: unknown;
		headers: Record<string, string>;
		traceId?: string;
		redactor: Redactor;
	},
	aggregator: StreamAggregator<IDataObject>,
	itemIndex: number,
): Promise<IDataObject> {
	const body = response.body;
	if (!isByteStream(body) || !isEventStream(response.headers)) {
		const outcome = await wholeAnswerOutcome(body, aggregator);
		if ('failure' in outcome) {
			throw streamFailureError(
				context.getNode(),
				outcome.failure,
				itemIndex,
				response.redactor,
				response.traceId,
			);
		}
		return outcome.result;
	}

	const streaming = context as unknown as StreamingCapableContext;
	const relay = typeof streaming.sendChunk === 'function' && streaming.isStreaming?.() === true;
	const send = async (type: 'begin' | 'item' | 'end' | 'error', content?: string) => {
		if (relay) await streaming.sendChunk?.(type, itemIndex, content);
	};
	await send('begin');
	const outcome = await aggregateEventStream(
		body,
		aggregator,
		async (delta) => await send('item', delta),
	);
	if ('failure' in outcome) {
		// The chat client has already shown part of the answer: tell it the answer broke off.
		await send('error', response.redactor.text(outcome.failure.message));
		throw streamFailureError(
			context.getNode(),
			outcome.failure,
			itemIndex,
			response.redactor,
			response.traceId,
		);
	}
	await send('end');
	return outcome.result;
}

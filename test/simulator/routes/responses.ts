import { openAiInvalid } from '../errors';
import { newId, unixSeconds } from '../ids';
import { streamCutFor, type StreamCut } from '../magic';
import { json, type Reply } from '../reply';
import type { Route } from '../router';
import { KEEP_ALIVE_FRAME, serializeSse, sseStyleFor, type SseFrame } from '../sse';
import type { SimState } from '../state';
import { placeholderObject, schemaInPrompt } from '../structured';
import {
	contentText,
	estimateTokens,
	mentionsWeather,
	namedTool,
	splitIntoPieces,
	TOOL_CALL_ARGUMENTS,
} from '../text';
import {
	arrayField,
	booleanField,
	firstIssue,
	isRecord,
	notAnObject,
	optionalArray,
	optionalBoolean,
	optionalNumber,
	optionalObject,
	optionalOneOf,
	optionalString,
	recordField,
	requiredString,
	stringField,
	type Issue,
	type JsonObject,
} from '../validate';

/** Reasoning tokens reported when the request asks for reasoning. */
const REASONING_TOKENS = 16;

export function responsesRoutes(state: SimState): Route[] {
	return [
		{
			host: 'base',
			methods: ['POST'],
			pattern: /^\/v1\/responses$/,
			handle: ({ body }) => createResponse(state, body),
		},
	];
}

function createResponse(state: SimState, body: unknown): Reply {
	if (!isRecord(body)) return openAiInvalid(notAnObject());
	const issue = validateResponsesRequest(state, body);
	if (issue) return openAiInvalid(issue);

	const previousId = stringField(body, 'previous_response_id');
	const previous = previousId === undefined ? undefined : state.storedResponses.get(previousId);
	const input = readInput(body.input);
	// A tool-result turn carries no user text of its own: echo what the chain started with.
	const userText = input.userText !== '' ? input.userText : (previous?.inputText ?? '');
	const meta: ResponseMeta = { id: newId('resp_', 16), createdAt: unixSeconds(Date.now()), body };
	const output = planOutput(body, userText, input.toolOutput, previousId);
	const outputText = output.find((item) => item.type === 'message')?.text ?? '';

	if (booleanField(body, 'store') !== false)
		state.storedResponses.set(meta.id, { id: meta.id, inputText: userText, outputText });

	const usage = usageOf(body, userText, output);
	if (booleanField(body, 'stream') === true) {
		const cut = streamCutFor(userText);
		return {
			kind: 'sse',
			text: serializeSse(responseStreamFrames(meta, output, usage, cut), sseStyleFor(userText)),
			ending: cut === 'drop' ? 'destroy' : 'end',
		};
	}
	return json(200, responseObject(meta, 'completed', output.map(finalItem), usage));
}

function validateResponsesRequest(state: SimState, body: JsonObject): Issue | undefined {
	const previousId = body.previous_response_id;
	return firstIssue(
		requiredString(body, 'model'),
		body.input === undefined ||
			body.input === null ||
			typeof body.input === 'string' ||
			Array.isArray(body.input)
			? undefined
			: { param: 'input', message: "Invalid type for 'input': expected a string or an array." },
		Array.isArray(body.input) ? optionalArray(body, 'input', { items: 'object' }) : undefined,
		Array.isArray(body.input) ? inputItemIssue(body.input) : undefined,
		optionalString(body, 'instructions'),
		optionalString(body, 'previous_response_id'),
		body.conversation !== undefined &&
			body.conversation !== null &&
			typeof body.conversation !== 'string' &&
			!isRecord(body.conversation)
			? {
					param: 'conversation',
					message: "Invalid type for 'conversation': expected a string or an object.",
				}
			: undefined,
		typeof previousId === 'string' && body.conversation !== undefined && body.conversation !== null
			? {
					param: 'previous_response_id',
					message: "'previous_response_id' cannot be used together with 'conversation'.",
				}
			: undefined,
		typeof previousId === 'string' && !state.storedResponses.has(previousId)
			? {
					param: 'previous_response_id',
					message: `Previous response with id '${previousId}' not found.`,
				}
			: undefined,
		optionalObject(body, 'reasoning'),
		optionalObject(body, 'text'),
		validateTextFormat(recordField(body, 'text')?.format),
		optionalArray(body, 'tools', { items: 'object' }),
		validateTools(arrayField(body, 'tools')),
		body.tool_choice === undefined || body.tool_choice === null || isRecord(body.tool_choice)
			? undefined
			: optionalOneOf(body, 'tool_choice', ['none', 'auto', 'required']),
		optionalBoolean(body, 'parallel_tool_calls'),
		optionalNumber(body, 'max_output_tokens', { min: 1, integer: true }),
		optionalNumber(body, 'max_tool_calls', { integer: true }),
		optionalBoolean(body, 'stream'),
		optionalObject(body, 'stream_options'),
		body.stream_options !== undefined && body.stream_options !== null && body.stream !== true
			? {
					param: 'stream_options',
					message: "'stream_options' is only allowed when 'stream' is true.",
				}
			: undefined,
		optionalObject(body, 'metadata'),
		optionalBoolean(body, 'store'),
		optionalString(body, 'truncation'),
		// Upstream (OpenAI-compatible APIs): stream_options only with stream (README, upstream notes).
		body.stream_options !== undefined && body.stream_options !== null && body.stream !== true
			? {
					param: 'stream_options',
					message: "'stream_options' is only allowed when 'stream' is true.",
				}
			: undefined,
		optionalObject(body, 'prompt'),
	);
}

function validateTextFormat(format: unknown): Issue | undefined {
	if (format === undefined || format === null) return undefined;
	if (!isRecord(format) || !['text', 'json_object', 'json_schema'].includes(String(format.type))) {
		return {
			param: 'text.format.type',
			message: "'text.format.type' must be 'text', 'json_object' or 'json_schema'.",
		};
	}
	if (format.type === 'json_schema' && !isRecord(format.schema)) {
		return {
			param: 'text.format.schema',
			message: "Missing required parameter: 'text.format.schema'.",
		};
	}
	return undefined;
}

function validateTools(tools: unknown[]): Issue | undefined {
	for (const [index, tool] of tools.entries()) {
		if (!isRecord(tool)) continue;
		if (typeof tool.type !== 'string')
			return {
				param: `tools[${index}].type`,
				message: `Missing required parameter: 'tools[${index}].type'.`,
			};
		if (tool.type === 'function' && (typeof tool.name !== 'string' || tool.name === '')) {
			return {
				param: `tools[${index}].name`,
				message: `Missing required parameter: 'tools[${index}].name'.`,
			};
		}
	}
	return undefined;
}

// ---- The deterministic answer ----

interface InputSummary {
	userText: string;
	/** Set when the last input item is a function_call_output. */
	toolOutput?: string;
}

function readInput(input: unknown): InputSummary {
	if (typeof input === 'string') return { userText: input };
	const items = Array.isArray(input) ? input.filter(isRecord) : [];
	const lastUser = [...items].reverse().find((item) => item.role === 'user');
	const last = items[items.length - 1];
	const toolOutput = last?.type === 'function_call_output' ? String(last.output ?? '') : undefined;
	return { userText: lastUser ? contentText(lastUser.content) : '', toolOutput };
}

/** Output items before rendering; `text` only on message items, `arguments` only on function calls. */
interface PlannedItem {
	type: 'reasoning' | 'message' | 'function_call';
	id: string;
	text?: string;
	name?: string;
	callId?: string;
	arguments?: string;
}

function planOutput(
	body: JsonObject,
	userText: string,
	toolOutput: string | undefined,
	previousId: string | undefined,
): PlannedItem[] {
	const items: PlannedItem[] = [];
	if (recordField(body, 'reasoning') !== undefined)
		items.push({ type: 'reasoning', id: newId('rs_', 16) });
	const toolName = toolOutput === undefined ? chosenToolName(body, userText) : undefined;
	if (toolName !== undefined) {
		items.push({
			type: 'function_call',
			id: newId('fc_', 16),
			name: toolName,
			callId: newId('call_', 12),
			arguments: TOOL_CALL_ARGUMENTS,
		});
		return items;
	}
	items.push({
		type: 'message',
		id: newId('msg_', 16),
		text: answerText(body, userText, toolOutput, previousId),
	});
	return items;
}

function answerText(
	body: JsonObject,
	userText: string,
	toolOutput: string | undefined,
	previousId: string | undefined,
): string {
	if (toolOutput !== undefined) return `Echo: ${userText} (tool result: ${toolOutput})`;
	const format = recordField(body, 'text')?.format;
	if (isRecord(format) && format.type === 'json_schema')
		return JSON.stringify(placeholderObject(format.schema));
	const asked = schemaInPrompt(promptTextOf(body));
	if (asked) return JSON.stringify(placeholderObject(asked));
	if (isRecord(format) && format.type === 'json_object') return JSON.stringify({ echo: userText });
	return previousId === undefined ? `Echo: ${userText}` : `Echo: ${userText} (after ${previousId})`;
}

/** Instructions and the text of every input message, for a schema the prompt asks for. */
function promptTextOf(body: JsonObject): string {
	const input = body.input;
	const messages = Array.isArray(input) ? input.filter(isRecord) : [];
	return [
		typeof body.instructions === 'string' ? body.instructions : '',
		typeof input === 'string' ? input : '',
		...messages.map((message) => contentText(message.content)),
	].join('\n');
}

function chosenToolName(body: JsonObject, userText: string): string | undefined {
	const names = arrayField(body, 'tools')
		.filter(isRecord)
		.filter((tool) => tool.type === 'function' && typeof tool.name === 'string')
		.map((tool) => String(tool.name));
	const choice = body.tool_choice;
	if (names.length === 0 || choice === 'none') return undefined;
	if (isRecord(choice)) return typeof choice.name === 'string' ? choice.name : names[0];
	if (choice === 'required' || mentionsWeather(userText)) return names[0];
	return namedTool(userText, names);
}

function usageOf(body: JsonObject, userText: string, output: PlannedItem[]): JsonObject {
	const inputTokens = estimateTokens(`${stringField(body, 'instructions') ?? ''} ${userText}`);
	const reasoningTokens = output.some((item) => item.type === 'reasoning') ? REASONING_TOKENS : 0;
	const visibleTokens = estimateTokens(
		output.map((item) => item.text ?? item.arguments ?? '').join(''),
	);
	const outputTokens = visibleTokens + reasoningTokens;
	return {
		input_tokens: inputTokens,
		input_tokens_details: { cached_tokens: 0 },
		output_tokens: outputTokens,
		output_tokens_details: { reasoning_tokens: reasoningTokens },
		total_tokens: inputTokens + outputTokens,
	};
}

// ---- Rendering ----

interface ResponseMeta {
	id: string;
	createdAt: number;
	body: JsonObject;
}

function responseObject(
	meta: ResponseMeta,
	status: string,
	output: JsonObject[],
	usage: JsonObject | null,
	error: JsonObject | null = null,
): JsonObject {
	const { body } = meta;
	return {
		id: meta.id,
		object: 'response',
		created_at: meta.createdAt,
		status,
		error,
		incomplete_details: null,
		instructions: body.instructions ?? null,
		max_output_tokens: body.max_output_tokens ?? null,
		model: body.model,
		output,
		parallel_tool_calls: body.parallel_tool_calls ?? true,
		previous_response_id: body.previous_response_id ?? null,
		reasoning: body.reasoning ?? { effort: null, summary: null },
		store: body.store ?? true,
		text: body.text ?? { format: { type: 'text' } },
		tool_choice: body.tool_choice ?? 'auto',
		tools: body.tools ?? [],
		truncation: body.truncation ?? 'disabled',
		usage,
		metadata: body.metadata ?? {},
		...(body.conversation !== undefined ? { conversation: body.conversation } : {}),
	};
}

function outputTextPart(text: string): JsonObject {
	return { type: 'output_text', text, annotations: [], logprobs: [] };
}

function finalItem(item: PlannedItem): JsonObject {
	switch (item.type) {
		case 'reasoning':
			return { id: item.id, type: 'reasoning', summary: [] };
		case 'function_call':
			return {
				id: item.id,
				type: 'function_call',
				status: 'completed',
				arguments: item.arguments,
				call_id: item.callId,
				name: item.name,
			};
		case 'message':
			return {
				id: item.id,
				type: 'message',
				status: 'completed',
				role: 'assistant',
				content: [outputTextPart(item.text ?? '')],
			};
	}
}

function inProgressItem(item: PlannedItem): JsonObject {
	const final = finalItem(item);
	if (item.type === 'reasoning') return final;
	return {
		...final,
		status: 'in_progress',
		...(item.type === 'message' ? { content: [] } : { arguments: '' }),
	};
}

interface ResponseEvent {
	type: string;
	payload: JsonObject;
}

/** Typed events of the responses protocol; sequence numbers are added last. */
function responseStreamFrames(
	meta: ResponseMeta,
	output: PlannedItem[],
	usage: JsonObject,
	cut: StreamCut | undefined,
): SseFrame[] {
	const events: ResponseEvent[] = [];
	const emit = (type: string, payload: JsonObject): void => {
		events.push({ type, payload });
	};
	emit('response.created', { response: responseObject(meta, 'in_progress', [], null) });
	emit('response.in_progress', { response: responseObject(meta, 'in_progress', [], null) });
	for (const [outputIndex, item] of output.entries()) {
		emit('response.output_item.added', { output_index: outputIndex, item: inProgressItem(item) });
		if (item.type === 'message') {
			const text = item.text ?? '';
			const where = { item_id: item.id, output_index: outputIndex, content_index: 0 };
			emit('response.content_part.added', { ...where, part: outputTextPart('') });
			for (const delta of splitIntoPieces(text, 4))
				emit('response.output_text.delta', { ...where, delta, logprobs: [] });
			emit('response.output_text.done', { ...where, text, logprobs: [] });
			emit('response.content_part.done', { ...where, part: outputTextPart(text) });
		}
		if (item.type === 'function_call') {
			const where = { item_id: item.id, output_index: outputIndex };
			for (const delta of splitIntoPieces(item.arguments ?? '', 3))
				emit('response.function_call_arguments.delta', { ...where, delta });
			emit('response.function_call_arguments.done', { ...where, arguments: item.arguments });
		}
		emit('response.output_item.done', { output_index: outputIndex, item: finalItem(item) });
	}
	emit('response.completed', {
		response: responseObject(meta, 'completed', output.map(finalItem), usage),
	});

	let sent = events;
	if (cut !== undefined) {
		// Keep created, in_progress, item added, part added and the first delta, then misbehave.
		sent = events.slice(0, 5);
		if (cut === 'error') {
			const error = { code: 'server_error', message: 'upstream overloaded' };
			sent.push({ type: 'error', payload: { ...error, param: null } });
			sent.push({
				type: 'response.failed',
				payload: { response: responseObject(meta, 'failed', [], null, error) },
			});
		}
	}
	const frames: SseFrame[] = sent.map((event, sequenceNumber) => ({
		event: event.type,
		data: { type: event.type, sequence_number: sequenceNumber, ...event.payload },
	}));
	frames.splice(2, 0, KEEP_ALIVE_FRAME);
	return frames;
}

/** Spec: an input array "holds messages with roles": each item has a `role`, or is typed (tool output). */
function inputItemIssue(items: unknown[]): Issue | undefined {
	const bad = items.findIndex(
		(item) =>
			isRecord(item) &&
			(typeof item.role !== 'string' || item.role === '') &&
			(typeof item.type !== 'string' || item.type === ''),
	);
	return bad < 0
		? undefined
		: {
				param: `input[${bad}]`,
				message: `'input[${bad}]' must be a message with a 'role' or an item with a 'type'.`,
			};
}

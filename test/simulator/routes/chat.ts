import { openAiInvalid } from '../errors';
import { newId, unixSeconds } from '../ids';
import { streamCutFor, type StreamCut } from '../magic';
import { json, type Reply } from '../reply';
import type { Route } from '../router';
import { DONE_FRAME, KEEP_ALIVE_FRAME, serializeSse, sseStyleFor, type SseFrame } from '../sse';
import { placeholderObject, placeholderValue, schemaInPrompt } from '../structured';
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
	numberField,
	optionalArray,
	optionalBoolean,
	optionalNumber,
	optionalObject,
	optionalString,
	recordField,
	requiredArray,
	requiredString,
	type Issue,
	type JsonObject,
} from '../validate';

export function chatRoutes(): Route[] {
	return [
		{
			host: 'base',
			methods: ['POST'],
			pattern: /^\/v1\/chat\/completions$/,
			handle: ({ body }) => createChatCompletion(body),
		},
	];
}

function createChatCompletion(body: unknown): Reply {
	if (!isRecord(body)) return openAiInvalid(notAnObject());
	const issue = validateChatRequest(body);
	if (issue) return openAiInvalid(issue);

	const answer = planAnswer(body);
	const completion: CompletionMeta = {
		id: newId('chatcmpl-'),
		created: unixSeconds(Date.now()),
		model: String(body.model),
		candidates: numberField(body, 'n') ?? 1,
	};
	if (booleanField(body, 'stream') === true) {
		const includeUsage = recordField(body, 'stream_options')?.include_usage === true;
		const cut = streamCutFor(answer.userText);
		const frames = chatStreamFrames(completion, answer, includeUsage, cut);
		return {
			kind: 'sse',
			text: serializeSse(frames, sseStyleFor(answer.userText)),
			ending: cut === 'drop' ? 'destroy' : 'end',
		};
	}
	return json(200, {
		id: completion.id,
		object: 'chat.completion',
		created: completion.created,
		model: completion.model,
		choices: Array.from({ length: completion.candidates }, (_, index) => ({
			index,
			message: {
				role: 'assistant',
				content: answer.content,
				refusal: null,
				...(answer.toolCall ? { tool_calls: [toolCallObject(answer.toolCall)] } : {}),
			},
			logprobs: null,
			finish_reason: answer.finishReason,
		})),
		usage: usageOf(answer, completion.candidates),
		system_fingerprint: 'fp_simulator',
	});
}

function validateChatRequest(body: JsonObject): Issue | undefined {
	return firstIssue(
		requiredString(body, 'model'),
		requiredArray(body, 'messages', { min: 1, items: 'object' }),
		validateMessages(arrayField(body, 'messages')),
		optionalNumber(body, 'temperature', { min: 0, max: 2 }),
		optionalNumber(body, 'top_p', { min: 0, max: 1 }),
		optionalNumber(body, 'max_tokens', { min: 1, integer: true }),
		optionalNumber(body, 'max_completion_tokens', { min: 1, integer: true }),
		optionalNumber(body, 'n', { min: 1, integer: true }),
		optionalNumber(body, 'presence_penalty', { min: -2, max: 2 }),
		optionalNumber(body, 'frequency_penalty', { min: -2, max: 2 }),
		optionalBoolean(body, 'stream'),
		optionalObject(body, 'stream_options'),
		body.stream_options !== undefined && body.stream_options !== null && body.stream !== true
			? {
					param: 'stream_options',
					message: "'stream_options' is only allowed when 'stream' is true.",
				}
			: undefined,
		optionalArray(body, 'tools', { items: 'object' }),
		validateTools(arrayField(body, 'tools')),
		validateToolChoice(body.tool_choice),
		optionalBoolean(body, 'parallel_tool_calls'),
		validateResponseFormat(body.response_format),
		optionalString(body, 'user'),
	);
}

function validateMessages(messages: unknown[]): Issue | undefined {
	for (const [index, message] of messages.entries()) {
		if (!isRecord(message)) continue; // reported by requiredArray
		const param = `messages[${index}]`;
		if (typeof message.role !== 'string' || message.role === '')
			return { param: `${param}.role`, message: `Missing required parameter: '${param}.role'.` };
		const content = message.content;
		const hasToolCalls = message.tool_calls !== undefined && message.tool_calls !== null;
		// Spec: `tool_calls` on assistant messages; content may then be null (OpenAI shape).
		if (hasToolCalls && message.role !== 'assistant') {
			return {
				param: `${param}.tool_calls`,
				message: `'${param}.tool_calls' is only allowed on assistant messages.`,
			};
		}
		if (hasToolCalls) {
			const issue = validateToolCalls(message.tool_calls, `${param}.tool_calls`);
			if (issue) return issue;
		}
		if ((content === undefined || content === null) && !hasToolCalls)
			return {
				param: `${param}.content`,
				message: `Missing required parameter: '${param}.content'.`,
			};
		if (
			content !== undefined &&
			content !== null &&
			typeof content !== 'string' &&
			!Array.isArray(content)
		) {
			return {
				param: `${param}.content`,
				message: `Invalid type for '${param}.content': expected a string or an array of content parts.`,
			};
		}
		if (message.name !== undefined && message.name !== null && typeof message.name !== 'string') {
			return {
				param: `${param}.name`,
				message: `Invalid type for '${param}.name': expected a string.`,
			};
		}
		if (message.role === 'tool' && typeof message.tool_call_id !== 'string') {
			return {
				param: `${param}.tool_call_id`,
				message: `Missing required parameter: '${param}.tool_call_id'.`,
			};
		}
	}
	return undefined;
}

function validateToolCalls(toolCalls: unknown, param: string): Issue | undefined {
	if (!Array.isArray(toolCalls) || toolCalls.length === 0)
		return { param, message: `'${param}' must be a non-empty array.` };
	const bad = toolCalls.findIndex(
		(call) =>
			!isRecord(call) ||
			typeof call.id !== 'string' ||
			call.type !== 'function' ||
			!isRecord(call.function) ||
			typeof call.function.name !== 'string' ||
			typeof call.function.arguments !== 'string',
	);
	if (bad < 0) return undefined;
	return {
		param: `${param}[${bad}]`,
		message: `'${param}[${bad}]' must be {id, type:'function', function:{name, arguments (a JSON string)}}.`,
	};
}

function validateTools(tools: unknown[]): Issue | undefined {
	for (const [index, tool] of tools.entries()) {
		if (!isRecord(tool)) continue;
		const fn = tool.function;
		if (
			tool.type !== 'function' ||
			!isRecord(fn) ||
			typeof fn.name !== 'string' ||
			fn.name === ''
		) {
			return {
				param: `tools[${index}]`,
				message: `'tools[${index}]' must be {type:'function', function:{name, ...}}.`,
			};
		}
	}
	return undefined;
}

function validateToolChoice(choice: unknown): Issue | undefined {
	if (choice === undefined || choice === null || isRecord(choice)) return undefined;
	if (choice === 'none' || choice === 'auto' || choice === 'required') return undefined;
	return {
		param: 'tool_choice',
		message: "'tool_choice' must be 'none', 'auto', 'required' or an object.",
	};
}

function validateResponseFormat(format: unknown): Issue | undefined {
	if (format === undefined || format === null) return undefined;
	if (!isRecord(format) || !['text', 'json_object', 'json_schema'].includes(String(format.type))) {
		return {
			param: 'response_format',
			message: "'response_format.type' must be 'text', 'json_object' or 'json_schema'.",
		};
	}
	if (format.type === 'json_schema' && !isRecord(format.json_schema)) {
		return {
			param: 'response_format.json_schema',
			message: "Missing required parameter: 'response_format.json_schema'.",
		};
	}
	return undefined;
}

// ---- The deterministic answer ----

interface PlannedToolCall {
	id: string;
	name: string;
	arguments: string;
}

interface ChatAnswer {
	userText: string;
	content: string | null;
	toolCall?: PlannedToolCall;
	finishReason: 'stop' | 'tool_calls';
	promptTokens: number;
}

function planAnswer(body: JsonObject): ChatAnswer {
	const messages = arrayField(body, 'messages').filter(isRecord);
	const lastUser = [...messages].reverse().find((message) => message.role === 'user');
	const userText = lastUser ? contentText(lastUser.content) : '';
	const lastMessage = messages[messages.length - 1];
	const promptTokens = estimateTokens(
		messages.map((message) => contentText(message.content)).join(' '),
	);

	// After a tool result, answer in text: otherwise an agent loop would call the tool forever.
	if (lastMessage?.role === 'tool') {
		return {
			userText,
			content: `Echo: ${userText} (tool result: ${contentText(lastMessage.content)})`,
			finishReason: 'stop',
			promptTokens,
		};
	}
	const toolName = chosenToolName(body, userText);
	if (toolName !== undefined) {
		// Weather questions get "Paris"; any other call carries the user's words as its text.
		const args = toolCallArguments(
			body,
			toolName,
			mentionsWeather(userText) || userText === '' ? 'Paris' : userText,
		);
		return {
			userText,
			content: null,
			toolCall: { id: newId('call_', 12), name: toolName, arguments: args },
			finishReason: 'tool_calls',
			promptTokens,
		};
	}
	return {
		userText,
		content: structuredOrEcho(
			recordField(body, 'response_format'),
			userText,
			messages.map((message) => contentText(message.content)).join('\n'),
		),
		finishReason: 'stop',
		promptTokens,
	};
}

/** A tool is called when tools exist, tool_choice allows it, and it is forced or the user asks about weather. */
function chosenToolName(body: JsonObject, userText: string): string | undefined {
	const toolNames = arrayField(body, 'tools')
		.filter(isRecord)
		.map((tool) => (isRecord(tool.function) ? tool.function.name : undefined))
		.filter((name): name is string => typeof name === 'string');
	const choice = body.tool_choice;
	if (toolNames.length === 0 || choice === 'none') return undefined;
	if (isRecord(choice)) {
		const named = isRecord(choice.function) ? choice.function.name : undefined;
		return typeof named === 'string' ? named : toolNames[0];
	}
	if (choice === 'required' || mentionsWeather(userText)) return toolNames[0];
	return namedTool(userText, toolNames);
}

/**
 * `{"city":"Paris"}`, unless the tool's `parameters` schema declares properties: then every
 * property gets a value (strings `text`, others a placeholder), so schema-validating callers
 * such as n8n's AI Agent accept the call.
 */
function toolCallArguments(body: JsonObject, toolName: string, text: string): string {
	const tool = arrayField(body, 'tools')
		.filter(isRecord)
		.map((entry) => (isRecord(entry.function) ? entry.function : undefined))
		.find((fn) => fn?.name === toolName);
	const properties =
		isRecord(tool?.parameters) && isRecord(tool.parameters.properties)
			? tool.parameters.properties
			: undefined;
	if (!properties || Object.keys(properties).length === 0) return TOOL_CALL_ARGUMENTS;
	return JSON.stringify(
		Object.fromEntries(
			Object.entries(properties).map(([name, schema]) => {
				const value = placeholderValue(schema);
				return [name, value === 'example' ? text : value];
			}),
		),
	);
}

function structuredOrEcho(
	format: JsonObject | undefined,
	userText: string,
	promptText: string,
): string {
	const asked = format?.type === 'json_schema' ? undefined : schemaInPrompt(promptText);
	if (asked) return JSON.stringify(placeholderObject(asked));
	if (format?.type === 'json_object') return JSON.stringify({ echo: userText });
	if (format?.type === 'json_schema' && isRecord(format.json_schema))
		return JSON.stringify(placeholderObject(format.json_schema.schema));
	return `Echo: ${userText}`;
}

function toolCallObject(call: PlannedToolCall): JsonObject {
	return {
		id: call.id,
		type: 'function',
		function: { name: call.name, arguments: call.arguments },
	};
}

function usageOf(answer: ChatAnswer, candidates: number): JsonObject {
	const completionTokens =
		estimateTokens(answer.content ?? answer.toolCall?.arguments ?? '') * candidates;
	return {
		prompt_tokens: answer.promptTokens,
		completion_tokens: completionTokens,
		total_tokens: answer.promptTokens + completionTokens,
	};
}

// ---- Streaming ----

interface CompletionMeta {
	id: string;
	created: number;
	model: string;
	candidates: number;
}

/** Chunks as upstream-notes.md describes them; `cut` stops the stream early on purpose. */
function chatStreamFrames(
	meta: CompletionMeta,
	answer: ChatAnswer,
	includeUsage: boolean,
	cut: StreamCut | undefined,
): SseFrame[] {
	const chunk = (choices: JsonObject[], usage?: JsonObject): SseFrame => ({
		data: {
			id: meta.id,
			object: 'chat.completion.chunk',
			created: meta.created,
			model: meta.model,
			system_fingerprint: 'fp_simulator',
			choices,
			...(includeUsage ? { usage: usage ?? null } : {}),
		},
	});
	const delta = (
		index: number,
		deltaBody: JsonObject,
		finishReason: string | null = null,
	): JsonObject => ({ index, delta: deltaBody, logprobs: null, finish_reason: finishReason });

	const frames: SseFrame[] = [];
	for (let index = 0; index < meta.candidates; index++) {
		frames.push(chunk([delta(index, { role: 'assistant', content: '', refusal: null })]));
		if (index === 0) frames.push(KEEP_ALIVE_FRAME);
		for (const piece of splitIntoPieces(answer.content ?? '', 4))
			frames.push(chunk([delta(index, { content: piece })]));
		if (answer.toolCall) {
			const { id, name, arguments: args } = answer.toolCall;
			frames.push(
				chunk([
					delta(index, {
						tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }],
					}),
				]),
			);
			for (const piece of splitIntoPieces(args, 3))
				frames.push(
					chunk([delta(index, { tool_calls: [{ index: 0, function: { arguments: piece } }] })]),
				);
		}
		frames.push(chunk([delta(index, {}, answer.finishReason)]));
	}
	if (cut !== undefined) {
		// Keep the role chunk, the keep-alive and the first delta, then misbehave.
		const kept = frames.slice(0, 3);
		return cut === 'error'
			? [
					...kept,
					{
						data: {
							error: {
								message: 'upstream overloaded',
								type: 'server_error',
								code: 'upstream_error',
							},
						},
					},
				]
			: kept;
	}
	if (includeUsage) frames.push(chunk([], usageOf(answer, meta.candidates)));
	frames.push(DONE_FRAME);
	return frames;
}

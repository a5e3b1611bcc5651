import type { IDataObject } from 'n8n-workflow';

import { parseJsonAnswer, parseToolArguments } from '../shared/text/textGeneration';
import { CHAT_USAGE, normalizeUsage } from '../shared/gateway/usage';

/** The Chat node's compact output for one chat completion. */

function simplifyToolCall(call: unknown): IDataObject {
	const record = (call ?? {}) as IDataObject;
	const fn = (record.function ?? {}) as IDataObject;
	return {
		id: record.id ?? null,
		type: record.type ?? 'function',
		name: fn.name ?? null,
		arguments: parseToolArguments(fn.arguments) as IDataObject,
	};
}

function simplifyChoice(choice: IDataObject, wantsJson: boolean): IDataObject {
	const message = (choice.message ?? {}) as IDataObject;
	const toolCalls = Array.isArray(message.tool_calls)
		? message.tool_calls.map(simplifyToolCall)
		: [];
	const parsed = wantsJson ? parseJsonAnswer(message.content) : undefined;
	return {
		content: message.content ?? null,
		...(parsed !== undefined ? { parsed } : {}),
		...(typeof message.refusal === 'string' ? { refusal: message.refusal } : {}),
		toolCalls,
		finishReason: choice.finish_reason ?? null,
	};
}

export function simplifyChatCompletion(
	completion: IDataObject,
	context: { model: string; traceId?: string; wantsJson: boolean },
): IDataObject {
	const choices = (Array.isArray(completion.choices) ? completion.choices : []) as IDataObject[];
	const simplified = choices.map((choice) => simplifyChoice(choice, context.wantsJson));
	return {
		...(simplified[0] ?? { content: null, toolCalls: [], finishReason: null }),
		// Only with several answers (n > 1): every answer, first one included.
		...(simplified.length > 1 ? { choices: simplified } : {}),
		usage: normalizeUsage(completion.usage, CHAT_USAGE),
		model: completion.model ?? context.model,
		id: completion.id ?? null,
		traceId: context.traceId ?? null,
	};
}

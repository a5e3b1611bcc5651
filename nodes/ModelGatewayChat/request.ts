import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ChatCompletionRequest } from '../shared/schemas/chatCompletion';
import { chatCompletionRequestSchema } from '../shared/schemas/chatCompletion';
import { itemParameter, nodeOfRun } from '../shared/items/itemParameters';
import { validateRequest } from '../shared/schemas/validate';
import { streamFields, structuredFormat, toolFields } from '../shared/text/textGeneration';
import { isBlankJson, trimmedText } from '../shared/items/values';

/** Reads one item's parameters into a validated POST /v1/chat/completions body. */

/** Messages entered in the fixed collection, with empty optional fields left out. */
function messagesFromFields(values: IDataObject[]): IDataObject[] {
	return values.map((value) => {
		const message: IDataObject = { role: value.role, content: value.content ?? '' };
		const name = trimmedText(value.name);
		if (name) message.name = name;
		if (value.role === 'tool') message.tool_call_id = value.toolCallId ?? '';
		if (value.role === 'assistant' && !isBlankJson(value.toolCalls)) {
			message.tool_calls = value.toolCalls;
			// An assistant turn that only calls tools has no text.
			if (message.content === '') message.content = null;
		}
		return message;
	});
}

/** Option name → request field, for options sent as they are. */
const DIRECT_OPTIONS: Array<[option: string, field: string]> = [
	['temperature', 'temperature'],
	['topP', 'top_p'],
	['maxTokens', 'max_tokens'],
	['maxCompletionTokens', 'max_completion_tokens'],
	['n', 'n'],
	['presencePenalty', 'presence_penalty'],
	['frequencyPenalty', 'frequency_penalty'],
];

export function buildChatRequest(
	context: IExecuteFunctions,
	itemIndex: number,
): ChatCompletionRequest {
	const options = itemParameter(context, 'options', itemIndex, {}) as IDataObject;
	const mode = itemParameter(context, 'messagesMode', itemIndex, 'fields') as string;
	const messages =
		mode === 'json'
			? itemParameter(context, 'messagesJson', itemIndex, '')
			: messagesFromFields(
					itemParameter(context, 'messages.values', itemIndex, []) as IDataObject[],
				);

	const body: IDataObject = { model: itemParameter(context, 'model', itemIndex, ''), messages };
	for (const [option, field] of DIRECT_OPTIONS) {
		if (options[option] !== undefined) body[field] = options[option];
	}
	if (typeof options.stop === 'string' && options.stop !== '') body.stop = options.stop;
	const user = trimmedText(options.user);
	if (user) body.user = user;
	Object.assign(body, toolFields(options), streamFields(options));
	const format = structuredFormat(options, { node: nodeOfRun(context), itemIndex });
	if (format?.type === 'json_object') body.response_format = { type: 'json_object' };
	if (format?.type === 'json_schema') {
		body.response_format = {
			type: 'json_schema',
			json_schema: { name: format.name, schema: format.schema, strict: format.strict },
		};
	}

	const request = validateRequest(chatCompletionRequestSchema, body, nodeOfRun(context), itemIndex);
	// The spec: max_completion_tokens takes precedence, so the older field is not sent with it.
	if (request.max_completion_tokens !== undefined) delete request.max_tokens;
	return request;
}

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { parseJsonText } from '../shared/items/jsonText';
import type { ResponsesRequest } from '../shared/schemas/responses';
import { responsesRequestSchema } from '../shared/schemas/responses';
import { itemParameter, nodeOfRun } from '../shared/items/itemParameters';
import { validateRequest } from '../shared/schemas/validate';
import { streamFields, structuredFormat, toolFields } from '../shared/text/textGeneration';
import { isBlank, isBlankJson } from '../shared/items/values';

/** Reads one item's parameters into a validated POST /v1/responses body. */

function readInput(context: IExecuteFunctions, itemIndex: number): unknown {
	const mode = itemParameter(context, 'inputMode', itemIndex, 'text') as string;
	if (mode === 'json')
		return parseJsonText(itemParameter(context, 'inputJson', itemIndex, ''), {
			node: nodeOfRun(context),
			field: 'Input (JSON)',
			itemIndex,
		});
	if (mode === 'messages') {
		const values = itemParameter(context, 'messages.values', itemIndex, []) as IDataObject[];
		return values.map((value) => ({ role: value.role, content: value.content ?? '' }));
	}
	return itemParameter(context, 'input', itemIndex, '');
}

export function buildResponsesRequest(
	context: IExecuteFunctions,
	itemIndex: number,
): ResponsesRequest {
	const options = itemParameter(context, 'options', itemIndex, {}) as IDataObject;
	const body: IDataObject = { model: itemParameter(context, 'model', itemIndex, '') };
	const input = readInput(context, itemIndex);
	if (!isBlank(input)) body.input = input as IDataObject;
	if (!isBlank(options.instructions)) body.instructions = options.instructions;
	if (!isBlank(options.previousResponseId)) body.previous_response_id = options.previousResponseId;
	if (!isBlank(options.conversation)) body.conversation = options.conversation;
	if (options.reasoningEffort !== undefined || options.reasoningSummary !== undefined) {
		body.reasoning = {
			...(options.reasoningEffort !== undefined ? { effort: options.reasoningEffort } : {}),
			...(options.reasoningSummary !== undefined ? { summary: options.reasoningSummary } : {}),
		};
	}
	const format = structuredFormat(options, { node: nodeOfRun(context), itemIndex });
	if (format) body.text = { format };
	if (options.maxOutputTokens !== undefined) body.max_output_tokens = options.maxOutputTokens;
	if (options.maxToolCalls !== undefined) body.max_tool_calls = options.maxToolCalls;
	for (const key of ['metadata', 'prompt'] as const) {
		if (!isBlankJson(options[key])) body[key] = options[key];
	}
	if (options.store !== undefined) body.store = options.store;
	if (options.truncation !== undefined) body.truncation = options.truncation;
	Object.assign(body, toolFields(options), streamFields(options));
	return validateRequest(responsesRequestSchema, body, nodeOfRun(context), itemIndex);
}

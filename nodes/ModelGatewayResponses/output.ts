import type { IDataObject } from 'n8n-workflow';

import { parseJsonAnswer, parseToolArguments } from '../shared/text/textGeneration';
import { RESPONSES_USAGE, normalizeUsage } from '../shared/gateway/usage';
import { outputTextOf } from '../shared/text/responseOutput';

/** The Responses node's compact output for one response object. */

const asList = (value: unknown): IDataObject[] =>
	Array.isArray(value) ? (value as IDataObject[]) : [];

export function simplifyResponse(
	response: IDataObject,
	context: { model: string; traceId?: string; wantsJson: boolean },
): IDataObject {
	const output = asList(response.output);
	const outputText = outputTextOf(response);
	const parsed = context.wantsJson ? parseJsonAnswer(outputText) : undefined;
	const functionCalls = output
		.filter((item) => item.type === 'function_call')
		.map((item) => ({
			id: item.id ?? null,
			callId: item.call_id ?? null,
			name: item.name ?? null,
			arguments: parseToolArguments(item.arguments) as IDataObject,
		}));
	const usage = normalizeUsage(response.usage, RESPONSES_USAGE);
	return {
		outputText,
		...(parsed !== undefined ? { parsed } : {}),
		functionCalls,
		output,
		status: response.status ?? null,
		usage,
		reasoningTokens: usage?.reasoningTokens ?? null,
		model: response.model ?? context.model,
		id: response.id ?? null,
		...(response.incomplete_details ? { incompleteDetails: response.incomplete_details } : {}),
		traceId: context.traceId ?? null,
	};
}

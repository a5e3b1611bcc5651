import type { GenerateResult, Message, TokenUsage } from '@n8n/ai-node-sdk';
import type { IDataObject } from 'n8n-workflow';
import type { z } from 'zod';

import type { Usage } from '../../shared/gateway/usage';
import type { TextApi } from '../../shared/text/textApis';
import type { FunctionDefinition, ToolCallRequest } from './conversation';
import type { ModelSettings } from './settings';

/**
 * What the model needs of one gateway API; chatCompletions.ts and responses.ts are the two.
 * Path, stream aggregation and success rule are the API's own (textApis.ts), as the Chat and
 * Responses nodes use them.
 */
export interface ModelApi extends TextApi {
	/** The spec's constraints on the request body (nodes/shared/schemas). */
	schema: z.ZodTypeAny;
	body(
		settings: ModelSettings,
		messages: Message[],
		tools: FunctionDefinition[],
		stream: boolean,
	): IDataObject;
	toolCalls(answer: IDataObject): ToolCallRequest[];
	result(answer: IDataObject, metadata: IDataObject): GenerateResult;
}

/** The package's usage (nodes/shared/gateway/usage.ts) in the SDK's words. */
export function tokenUsage(usage: Usage | null): TokenUsage | undefined {
	if (!usage) return undefined;
	const input = usage.inputTokens ?? 0;
	const output = usage.outputTokens ?? 0;
	return {
		promptTokens: input,
		completionTokens: output,
		totalTokens: usage.totalTokens ?? input + output,
		...(typeof usage.reasoningTokens === 'number'
			? { outputTokenDetails: { reasoning: usage.reasoningTokens } }
			: {}),
	};
}

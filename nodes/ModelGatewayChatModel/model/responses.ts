import type { FinishReason, GenerateResult, Message, MessageContent } from '@n8n/ai-node-sdk';
import type { IDataObject } from 'n8n-workflow';

import { RESPONSES_USAGE, normalizeUsage } from '../../shared/gateway/usage';
import { responsesRequestSchema } from '../../shared/schemas/responses';
import { outputTextOf } from '../../shared/text/responseOutput';
import { RESPONSES_API } from '../../shared/text/textApis';
import type { FunctionDefinition, ToolCallRequest } from './conversation';
import { argumentsText, textOf, toolCallsOf, toolResultsOf } from './conversation';
import type { ModelApi } from './modelApi';
import { tokenUsage } from './modelApi';

/**
 * The model over POST /v1/responses, stateless: the whole conversation goes as `input` items
 * (n8n's memory holds it), system messages as `developer` messages, tool calls and results as
 * `function_call` / `function_call_output` items.
 */

function inputItems(messages: Message[]): IDataObject[] {
	return messages.flatMap((message): IDataObject[] => {
		if (message.role === 'tool') {
			return toolResultsOf(message).map((result) => ({
				type: 'function_call_output',
				call_id: result.callId,
				output: result.output,
			}));
		}
		const text = textOf(message);
		const role = message.role === 'system' ? 'developer' : message.role;
		const items: IDataObject[] =
			text === '' && message.role === 'assistant' ? [] : [{ role, content: text }];
		if (message.role === 'assistant') {
			for (const call of toolCallsOf(message)) {
				items.push({
					type: 'function_call',
					call_id: call.callId,
					name: call.name,
					arguments: call.arguments,
				});
			}
		}
		return items;
	});
}

const list = (value: unknown): IDataObject[] =>
	Array.isArray(value) ? (value as IDataObject[]) : [];

export const responsesApi: ModelApi = {
	...RESPONSES_API,
	schema: responsesRequestSchema,

	body(settings, messages, tools: FunctionDefinition[], stream) {
		const body: IDataObject = { model: settings.model, input: inputItems(messages) };
		if (settings.maxTokens !== undefined) body.max_output_tokens = settings.maxTokens;
		if (settings.reasoningEffort !== undefined)
			body.reasoning = { effort: settings.reasoningEffort };
		if (settings.responseFormat === 'json_object') body.text = { format: { type: 'json_object' } };
		if (tools.length > 0) {
			body.tools = tools.map((tool) => ({ type: 'function', ...tool }));
			// See chatCompletions.ts: streamed tool calls reach LangChain all as index 0.
			if (stream) body.parallel_tool_calls = false;
		}
		if (stream) body.stream = true;
		return body;
	},

	toolCalls(answer) {
		return list(answer.output)
			.filter((item) => item.type === 'function_call')
			.map((item, index): ToolCallRequest => {
				const args = typeof item.arguments === 'string' ? item.arguments : '';
				return {
					callId: String(item.call_id ?? item.id ?? `call_${index}`),
					name: String(item.name ?? ''),
					arguments: argumentsText(args),
				};
			});
	},

	result(answer, metadata): GenerateResult {
		const content: MessageContent[] = [];
		const text = outputTextOf(answer);
		if (text !== '') content.push({ type: 'text', text });
		const calls = this.toolCalls(answer);
		for (const call of calls) {
			content.push({
				type: 'tool-call',
				toolCallId: call.callId,
				toolName: call.name,
				input: call.arguments,
			});
		}
		// A failed response never gets here: it is no answer (textAnswers.ts) but an error.
		const finishReason: FinishReason =
			calls.length > 0 ? 'tool-calls' : answer.status === 'incomplete' ? 'length' : 'stop';
		return {
			...(typeof answer.id === 'string' ? { id: answer.id } : {}),
			finishReason,
			usage: tokenUsage(normalizeUsage(answer.usage, RESPONSES_USAGE)),
			message: { role: 'assistant', content },
			providerMetadata: metadata,
		};
	},
};

import type { FinishReason, GenerateResult, Message, MessageContent } from '@n8n/ai-node-sdk';
import type { IDataObject } from 'n8n-workflow';

import { CHAT_USAGE, normalizeUsage } from '../../shared/gateway/usage';
import { chatCompletionRequestSchema } from '../../shared/schemas/chatCompletion';
import { CHAT_COMPLETIONS_API } from '../../shared/text/textApis';
import type { FunctionDefinition, ToolCallRequest } from './conversation';
import { argumentsText, textOf, toolCallsOf, toolResultsOf } from './conversation';
import type { ModelApi } from './modelApi';
import { tokenUsage } from './modelApi';

/** The model over POST /v1/chat/completions: SDK messages in, a chat completion out. */

function chatMessages(messages: Message[]): IDataObject[] {
	return messages.flatMap((message): IDataObject[] => {
		if (message.role === 'tool') {
			return toolResultsOf(message).map((result) => ({
				role: 'tool',
				tool_call_id: result.callId,
				content: result.output,
			}));
		}
		if (message.role === 'assistant') {
			const calls = toolCallsOf(message);
			const text = textOf(message);
			// An empty answer in the memory (content filtered, tokens spent on reasoning) says
			// nothing, and the spec refuses an assistant message without content or tool calls:
			// left out, as the Responses mapping does, so the conversation can go on.
			if (calls.length === 0) return text === '' ? [] : [{ role: 'assistant', content: text }];
			return [
				{
					role: 'assistant',
					// An assistant turn that only calls tools has no text.
					content: text === '' ? null : text,
					tool_calls: calls.map((call) => ({
						id: call.callId,
						type: 'function',
						function: { name: call.name, arguments: call.arguments },
					})),
				},
			];
		}
		return [{ role: message.role, content: textOf(message) }];
	});
}

const FINISH_REASONS: Record<string, FinishReason> = {
	stop: 'stop',
	length: 'length',
	tool_calls: 'tool-calls',
	function_call: 'tool-calls',
	content_filter: 'content-filter',
};

export const chatCompletionsApi: ModelApi = {
	...CHAT_COMPLETIONS_API,
	schema: chatCompletionRequestSchema,

	body(settings, messages, tools: FunctionDefinition[], stream) {
		const body: IDataObject = { model: settings.model, messages: chatMessages(messages) };
		if (settings.temperature !== undefined) body.temperature = settings.temperature;
		if (settings.topP !== undefined) body.top_p = settings.topP;
		if (settings.maxTokens !== undefined) body.max_tokens = settings.maxTokens;
		if (settings.presencePenalty !== undefined) body.presence_penalty = settings.presencePenalty;
		if (settings.frequencyPenalty !== undefined) body.frequency_penalty = settings.frequencyPenalty;
		if (settings.stop !== undefined) body.stop = settings.stop;
		if (settings.responseFormat === 'json_object') body.response_format = { type: 'json_object' };
		if (tools.length > 0) {
			body.tools = tools.map((tool) => ({ type: 'function', function: tool }));
			// n8n's SDK 0.31 hands every streamed tool call to LangChain as index 0, which merges
			// two calls of one turn into one broken call: streamed turns call one tool at a time.
			if (stream) body.parallel_tool_calls = false;
		}
		if (stream) {
			body.stream = true;
			body.stream_options = { include_usage: true };
		}
		return body;
	},

	toolCalls(answer) {
		const [choice] = (Array.isArray(answer.choices) ? answer.choices : []) as IDataObject[];
		const message = (choice?.message ?? {}) as IDataObject;
		const calls = (Array.isArray(message.tool_calls) ? message.tool_calls : []) as IDataObject[];
		return calls.map((call, index): ToolCallRequest => {
			const fn = (call.function ?? {}) as IDataObject;
			const args = typeof fn.arguments === 'string' ? fn.arguments : '';
			return {
				callId: typeof call.id === 'string' ? call.id : `call_${index}`,
				name: String(fn.name ?? ''),
				arguments: argumentsText(args),
			};
		});
	},

	result(answer, metadata): GenerateResult {
		const [choice] = (Array.isArray(answer.choices) ? answer.choices : []) as IDataObject[];
		const message = (choice?.message ?? {}) as IDataObject;
		const content: MessageContent[] = [];
		if (typeof message.content === 'string' && message.content !== '')
			content.push({ type: 'text', text: message.content });
		for (const call of this.toolCalls(answer)) {
			content.push({
				type: 'tool-call',
				toolCallId: call.callId,
				toolName: call.name,
				input: call.arguments,
			});
		}
		const finish = String(choice?.finish_reason ?? '');
		return {
			...(typeof answer.id === 'string' ? { id: answer.id } : {}),
			finishReason: FINISH_REASONS[finish] ?? (finish === '' ? undefined : 'other'),
			usage: tokenUsage(normalizeUsage(answer.usage, CHAT_USAGE)),
			message: { role: 'assistant', content },
			providerMetadata: metadata,
		};
	},
};

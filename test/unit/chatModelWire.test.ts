import type { Message } from '@n8n/ai-node-sdk';

import { chatCompletionsApi } from '../../nodes/ModelGatewayChatModel/model/chatCompletions';
import {
	argumentsProblem,
	argumentsText,
} from '../../nodes/ModelGatewayChatModel/model/conversation';
import { responsesApi } from '../../nodes/ModelGatewayChatModel/model/responses';
import type { ModelSettings } from '../../nodes/ModelGatewayChatModel/model/settings';
import { DEFAULT_RETRY_POLICY } from '../../nodes/shared/gateway/transport';

const settings = (overrides: Partial<ModelSettings> = {}): ModelSettings => ({
	api: 'chatCompletions',
	model: 'gpt-4o-mini',
	responseFormat: 'text',
	timeoutMs: 120_000,
	retryPolicy: DEFAULT_RETRY_POLICY,
	itemIndex: 0,
	...overrides,
});

/** An agent's second model call: instructions, the question, its tool call and the result. */
const conversation: Message[] = [
	{ role: 'system', content: [{ type: 'text', text: 'Be brief.' }] },
	{ role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
	{
		role: 'assistant',
		content: [
			{ type: 'tool-call', toolCallId: 'call_1', toolName: 'weather', input: '{"city":"Paris"}' },
		],
	},
	{
		role: 'tool',
		content: [{ type: 'tool-result', toolCallId: 'call_1', result: { sky: 'blue' } }],
	},
];

const weatherTool = {
	name: 'weather',
	description: 'the weather',
	parameters: { type: 'object', properties: { city: { type: 'string' } } },
};

describe('Model Gateway Chat Model on the wire', () => {
	it('sends an agent conversation as chat messages, tools as functions, and asks one tool at a time when streaming', () => {
		const body = chatCompletionsApi.body(
			settings({ temperature: 0.2, maxTokens: 50, responseFormat: 'json_object' }),
			conversation,
			[weatherTool],
			true,
		);
		expect(body).toEqual({
			model: 'gpt-4o-mini',
			messages: [
				{ role: 'system', content: 'Be brief.' },
				{ role: 'user', content: 'Weather in Paris?' },
				{
					role: 'assistant',
					content: null,
					tool_calls: [
						{
							id: 'call_1',
							type: 'function',
							function: { name: 'weather', arguments: '{"city":"Paris"}' },
						},
					],
				},
				{ role: 'tool', tool_call_id: 'call_1', content: '{"sky":"blue"}' },
			],
			temperature: 0.2,
			max_tokens: 50,
			response_format: { type: 'json_object' },
			tools: [{ type: 'function', function: weatherTool }],
			parallel_tool_calls: false,
			stream: true,
			stream_options: { include_usage: true },
		});
	});

	it('sends the same conversation as Responses input items, without chat-only fields', () => {
		const body = responsesApi.body(
			settings({ api: 'responses', temperature: 0.2, maxTokens: 50, reasoningEffort: 'low' }),
			conversation,
			[weatherTool],
			false,
		);
		expect(body).toEqual({
			model: 'gpt-4o-mini',
			input: [
				{ role: 'developer', content: 'Be brief.' },
				{ role: 'user', content: 'Weather in Paris?' },
				{
					type: 'function_call',
					call_id: 'call_1',
					name: 'weather',
					arguments: '{"city":"Paris"}',
				},
				{ type: 'function_call_output', call_id: 'call_1', output: '{"sky":"blue"}' },
			],
			max_output_tokens: 50,
			reasoning: { effort: 'low' },
			tools: [{ type: 'function', ...weatherTool }],
		});
	});

	it('reads a chat completion into text, tool calls, finish reason and usage in the SDK’s words', () => {
		const result = chatCompletionsApi.result(
			{
				id: 'chatcmpl-1',
				choices: [
					{
						message: {
							content: 'Looking it up',
							tool_calls: [{ id: 'c9', function: { name: 'weather', arguments: '' } }],
						},
						finish_reason: 'tool_calls',
					},
				],
				usage: {
					prompt_tokens: 7,
					completion_tokens: 5,
					total_tokens: 12,
					completion_tokens_details: { reasoning_tokens: 2 },
				},
			},
			{ traceId: 't-1' },
		);
		expect(result).toEqual({
			id: 'chatcmpl-1',
			finishReason: 'tool-calls',
			usage: {
				promptTokens: 7,
				completionTokens: 5,
				totalTokens: 12,
				outputTokenDetails: { reasoning: 2 },
			},
			message: {
				role: 'assistant',
				content: [
					{ type: 'text', text: 'Looking it up' },
					{ type: 'tool-call', toolCallId: 'c9', toolName: 'weather', input: '{}' },
				],
			},
			providerMetadata: { traceId: 't-1' },
		});
	});

	it('reads a response object: output text, function calls by call id, incomplete as length', () => {
		const withCall = responsesApi.result(
			{
				id: 'resp_1',
				status: 'completed',
				output: [
					{
						type: 'function_call',
						id: 'fc_1',
						call_id: 'call_7',
						name: 'weather',
						arguments: '{"city":"Oslo"}',
					},
				],
				usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
			},
			{},
		);
		expect(withCall.finishReason).toBe('tool-calls');
		expect(withCall.message.content).toEqual([
			{ type: 'tool-call', toolCallId: 'call_7', toolName: 'weather', input: '{"city":"Oslo"}' },
		]);
		const cut = responsesApi.result(
			{
				status: 'incomplete',
				output: [{ type: 'message', content: [{ type: 'output_text', text: 'Half' }] }],
			},
			{},
		);
		expect(cut).toMatchObject({
			finishReason: 'length',
			message: { content: [{ type: 'text', text: 'Half' }] },
		});
	});

	it('names what is wrong with tool-call arguments that are not a JSON object', () => {
		const call = { callId: 'c', name: 'weather' };
		expect(argumentsProblem({ ...call, arguments: '{"city":"Paris"}' })).toBeUndefined();
		expect(argumentsProblem({ ...call, arguments: '{"city": "Par' })).toEqual(expect.any(String));
		expect(argumentsProblem({ ...call, arguments: '[1, 2]' })).toBe(
			'they are JSON but not an object',
		);
	});

	it('sends a tool call without arguments (streamed or from history) as the empty object', () => {
		expect(['', '  ', '\n'].map(argumentsText)).toEqual(['{}', '{}', '{}']);
		expect(argumentsText('{"city":"Paris"}')).toBe('{"city":"Paris"}');
	});
});

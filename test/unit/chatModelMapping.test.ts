import type { Message, Tool } from '@n8n/ai-node-sdk';
import type { IDataObject, ISupplyDataFunctions } from 'n8n-workflow';

import { chatCompletionsApi } from '../../nodes/ModelGatewayChatModel/model/chatCompletions';
import {
	functionDefinitions,
	toolCallsOf,
	toolResultsOf,
} from '../../nodes/ModelGatewayChatModel/model/conversation';
import { tokenUsage } from '../../nodes/ModelGatewayChatModel/model/modelApi';
import { responsesApi } from '../../nodes/ModelGatewayChatModel/model/responses';
import { readSettings } from '../../nodes/ModelGatewayChatModel/model/settings';
import { DEFAULT_RETRY_POLICY } from '../../nodes/shared/gateway/transport';
import { validateRequest } from '../../nodes/shared/schemas/validate';
import { testNode } from './testNode';

/**
 * The Chat Model's pure halves beyond the agent's usual turn (chatModelWire.test.ts): what its
 * parameters become, every request option on the wire, and answers that leave things out.
 * Settings are read from node parameters the way the node reads them.
 */

/** The node's parameters as `getNodeParameter` hands them out, with n8n's fallback. */
function supplyContext(parameters: IDataObject): ISupplyDataFunctions {
	return {
		getNodeParameter: (name: string, _itemIndex: number, fallback?: unknown) =>
			name in parameters ? parameters[name] : fallback,
	} as unknown as ISupplyDataFunctions;
}

const settingsFrom = (parameters: IDataObject, itemIndex = 0) =>
	readSettings(supplyContext({ model: 'gpt-4o-mini', ...parameters }), itemIndex);

const user = (text: string): Message => ({ role: 'user', content: [{ type: 'text', text }] });

describe('Model Gateway Chat Model settings, read from the node’s parameters', () => {
	it('takes every option, trims texts, and keeps a retry count that was set', () => {
		const settings = settingsFrom(
			{
				model: '  gpt-4o  ',
				api: 'chatCompletions',
				options: {
					temperature: 0.5,
					topP: 0.9,
					maxTokens: 64,
					presencePenalty: 1,
					frequencyPenalty: -1,
					stop: ' END ',
					responseFormat: 'json_object',
					timeout: 30,
					maxRetries: 0,
					traceId: ' trace-7 ',
				},
			},
			3,
		);
		expect(settings).toEqual({
			api: 'chatCompletions',
			model: 'gpt-4o',
			temperature: 0.5,
			topP: 0.9,
			maxTokens: 64,
			presencePenalty: 1,
			frequencyPenalty: -1,
			stop: 'END',
			responseFormat: 'json_object',
			reasoningEffort: undefined,
			timeoutMs: 30_000,
			retryPolicy: { ...DEFAULT_RETRY_POLICY, maxRetries: 0 },
			traceId: 'trace-7',
			itemIndex: 3,
		});
	});

	it('leaves out what is blank or not a number, and defaults to Chat Completions, 120 s and text', () => {
		const settings = settingsFrom({
			options: {
				temperature: Number.NaN,
				maxTokens: '64',
				timeout: Number.POSITIVE_INFINITY,
				stop: '   ',
				traceId: '',
				responseFormat: 'yaml',
				reasoningEffort: 'high',
			},
		});
		expect(settings).toEqual({
			api: 'chatCompletions',
			model: 'gpt-4o-mini',
			temperature: undefined,
			topP: undefined,
			maxTokens: undefined,
			presencePenalty: undefined,
			frequencyPenalty: undefined,
			stop: undefined,
			responseFormat: 'text',
			// Reasoning effort belongs to the Responses API only.
			reasoningEffort: undefined,
			timeoutMs: 120_000,
			retryPolicy: DEFAULT_RETRY_POLICY,
			traceId: undefined,
			itemIndex: 0,
		});
	});

	it('keeps the reasoning effort for the Responses API', () => {
		expect(
			settingsFrom({ api: 'responses', options: { reasoningEffort: ' medium ' } }),
		).toMatchObject({ api: 'responses', reasoningEffort: 'medium' });
	});
});

describe('Model Gateway Chat Model tools and messages, read from the SDK', () => {
	it('keeps function tools only, without an empty description, with an empty object schema when none is given', () => {
		const tools: Tool[] = [
			{ type: 'function', name: 'weather', description: 'the weather', inputSchema: {} },
			{ type: 'function', name: 'clock', inputSchema: {} },
			{ type: 'provider', name: 'web_search' },
		];
		const schemas: Record<string, unknown> = {
			weather: { type: 'object', properties: { city: { type: 'string' } } },
		};
		expect(functionDefinitions(tools, (tool) => schemas[tool.name])).toEqual([
			{
				name: 'weather',
				description: 'the weather',
				parameters: { type: 'object', properties: { city: { type: 'string' } } },
			},
			{ name: 'clock', parameters: { type: 'object', properties: {} } },
		]);
	});

	it('numbers tool calls without an id by their place, and writes non-text tool results as JSON', () => {
		const assistant: Message = {
			role: 'assistant',
			content: [
				{ type: 'text', text: 'Checking' },
				{ type: 'tool-call', toolName: 'weather', input: '{"city":"Oslo"}' },
				{ type: 'tool-call', toolName: 'clock', input: '' },
			],
		};
		expect(toolCallsOf(assistant)).toEqual([
			{ callId: 'call_0', name: 'weather', arguments: '{"city":"Oslo"}' },
			{ callId: 'call_1', name: 'clock', arguments: '{}' },
		]);
		const results: Message = {
			role: 'tool',
			content: [
				{ type: 'tool-result', toolCallId: 'a', result: 'sunny' },
				{ type: 'tool-result', toolCallId: 'b', result: undefined },
				{ type: 'tool-result', toolCallId: 'c', result: [1, 2] },
			],
		};
		expect(toolResultsOf(results)).toEqual([
			{ callId: 'a', output: 'sunny' },
			{ callId: 'b', output: 'null' },
			{ callId: 'c', output: '[1,2]' },
		]);
	});
});

/** A conversation with an earlier plain answer and a turn that says something and calls a tool. */
const history: Message[] = [
	user('Hi'),
	{ role: 'assistant', content: [{ type: 'text', text: 'Hello!' }] },
	user('Weather in Oslo?'),
	{
		role: 'assistant',
		content: [
			{ type: 'text', text: 'Let me look.' },
			{ type: 'tool-call', toolCallId: 'call_w', toolName: 'weather', input: '{"city":"Oslo"}' },
		],
	},
	{ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_w', result: 'cold' }] },
];

const weatherTool = {
	name: 'weather',
	parameters: { type: 'object', properties: { city: { type: 'string' } } },
};

describe('Model Gateway Chat Model requests over Chat Completions', () => {
	it('sends every sampling option, assistant text beside its tool calls, and a body the spec accepts', () => {
		const body = chatCompletionsApi.body(
			settingsFrom({
				options: {
					topP: 0.5,
					presencePenalty: 0.5,
					frequencyPenalty: 1.5,
					stop: '["END","STOP"]',
				},
			}),
			history,
			[weatherTool],
			false,
		);
		expect(body).toEqual({
			model: 'gpt-4o-mini',
			messages: [
				{ role: 'user', content: 'Hi' },
				{ role: 'assistant', content: 'Hello!' },
				{ role: 'user', content: 'Weather in Oslo?' },
				{
					role: 'assistant',
					content: 'Let me look.',
					tool_calls: [
						{
							id: 'call_w',
							type: 'function',
							function: { name: 'weather', arguments: '{"city":"Oslo"}' },
						},
					],
				},
				{ role: 'tool', tool_call_id: 'call_w', content: 'cold' },
			],
			top_p: 0.5,
			presence_penalty: 0.5,
			frequency_penalty: 1.5,
			stop: '["END","STOP"]',
			// Not streamed: the model may call several tools at once.
			tools: [{ type: 'function', function: weatherTool }],
		});
		const sent = validateRequest(chatCompletionsApi.schema, body, testNode(), 0) as IDataObject;
		expect(sent.stop).toEqual(['END', 'STOP']);
	});

	it('leaves out an empty answer in the memory, so the next turn is a body the spec accepts', () => {
		const body = chatCompletionsApi.body(
			settingsFrom({}),
			[user('Hi'), { role: 'assistant', content: [] }, user('Again?')],
			[],
			false,
		);
		expect(body.messages).toEqual([
			{ role: 'user', content: 'Hi' },
			{ role: 'user', content: 'Again?' },
		]);
		expect(() => validateRequest(chatCompletionsApi.schema, body, testNode(), 0)).not.toThrow();
	});

	it('streams without tools: usage asked for, no parallel_tool_calls', () => {
		expect(chatCompletionsApi.body(settingsFrom({}), [user('Hi')], [], true)).toEqual({
			model: 'gpt-4o-mini',
			messages: [{ role: 'user', content: 'Hi' }],
			stream: true,
			stream_options: { include_usage: true },
		});
	});
});

describe('Model Gateway Chat Model answers over Chat Completions', () => {
	it('gives a tool call without an id, name or arguments its place, no name and {}', () => {
		const answer = {
			choices: [
				{
					message: {
						content: '',
						tool_calls: [{ id: 7, function: { arguments: { city: 'Oslo' } } }, {}],
					},
					finish_reason: 'tool_calls',
				},
			],
		};
		expect(chatCompletionsApi.toolCalls(answer)).toEqual([
			{ callId: 'call_0', name: '', arguments: '{}' },
			{ callId: 'call_1', name: '', arguments: '{}' },
		]);
		const result = chatCompletionsApi.result(answer, {});
		// No id and no usage in the answer: none in the result.
		expect(result).toEqual({
			finishReason: 'tool-calls',
			usage: undefined,
			message: {
				role: 'assistant',
				content: [
					{ type: 'tool-call', toolCallId: 'call_0', toolName: '', input: '{}' },
					{ type: 'tool-call', toolCallId: 'call_1', toolName: '', input: '{}' },
				],
			},
			providerMetadata: {},
		});
	});

	it.each([
		['stop', 'stop'],
		['length', 'length'],
		['function_call', 'tool-calls'],
		['content_filter', 'content-filter'],
		['something_new', 'other'],
	])('reads finish reason %s as %s', (finish, expected) => {
		const result = chatCompletionsApi.result(
			{ choices: [{ message: { content: 'ok' }, finish_reason: finish }] },
			{},
		);
		expect(result.finishReason).toBe(expected);
		expect(result.message.content).toEqual([{ type: 'text', text: 'ok' }]);
	});

	it('has no finish reason, text or tool calls when the answer has no choice', () => {
		for (const choices of [undefined, [], 'none']) {
			expect(chatCompletionsApi.toolCalls({ choices })).toEqual([]);
			const result = chatCompletionsApi.result({ id: 'chatcmpl-2', choices }, {});
			expect(result).toMatchObject({
				id: 'chatcmpl-2',
				finishReason: undefined,
				message: { role: 'assistant', content: [] },
			});
		}
		expect(chatCompletionsApi.toolCalls({ choices: [{ finish_reason: 'stop' }] })).toEqual([]);
	});
});

describe('Model Gateway Chat Model requests over Responses', () => {
	it('sends an assistant’s text and its calls as separate items, the JSON format, one tool at a time when streaming', () => {
		const body = responsesApi.body(
			settingsFrom({ api: 'responses', options: { responseFormat: 'json_object' } }),
			[{ role: 'system', content: [{ type: 'text', text: 'Answer in JSON.' }] }, ...history],
			[weatherTool],
			true,
		);
		expect(body).toEqual({
			model: 'gpt-4o-mini',
			input: [
				{ role: 'developer', content: 'Answer in JSON.' },
				{ role: 'user', content: 'Hi' },
				{ role: 'assistant', content: 'Hello!' },
				{ role: 'user', content: 'Weather in Oslo?' },
				{ role: 'assistant', content: 'Let me look.' },
				{
					type: 'function_call',
					call_id: 'call_w',
					name: 'weather',
					arguments: '{"city":"Oslo"}',
				},
				{ type: 'function_call_output', call_id: 'call_w', output: 'cold' },
			],
			text: { format: { type: 'json_object' } },
			tools: [{ type: 'function', ...weatherTool }],
			parallel_tool_calls: false,
			stream: true,
		});
		expect(() => validateRequest(responsesApi.schema, body, testNode(), 0)).not.toThrow();
	});
});

describe('Model Gateway Chat Model answers over Responses', () => {
	it('takes a call’s id when it has no call id, its place when it has neither, and stops when nothing was called', () => {
		const answer = {
			status: 'completed',
			output: [
				{ type: 'reasoning', id: 'rs_1' },
				{ type: 'function_call', id: 'fc_1', name: 'weather', arguments: '{"city":"Oslo"}' },
				{ type: 'function_call', arguments: 42 },
			],
		};
		expect(responsesApi.toolCalls(answer)).toEqual([
			{ callId: 'fc_1', name: 'weather', arguments: '{"city":"Oslo"}' },
			{ callId: 'call_1', name: '', arguments: '{}' },
		]);
		const done = responsesApi.result(
			{
				id: 42,
				status: 'completed',
				output: [{ type: 'message', content: [{ type: 'output_text', text: 'Cold.' }] }],
			},
			{ traceId: 't' },
		);
		expect(done).toEqual({
			finishReason: 'stop',
			usage: undefined,
			message: { role: 'assistant', content: [{ type: 'text', text: 'Cold.' }] },
			providerMetadata: { traceId: 't' },
		});
		expect(responsesApi.toolCalls({ output: 'none' })).toEqual([]);
	});
});

describe('Model Gateway Chat Model token usage', () => {
	it('counts what the gateway left out as 0 and totals it when no total is given', () => {
		expect(
			tokenUsage({ inputTokens: 3, outputTokens: null, totalTokens: null, reasoningTokens: null }),
		).toEqual({ promptTokens: 3, completionTokens: 0, totalTokens: 3 });
		expect(tokenUsage({ inputTokens: null, outputTokens: 4, totalTokens: null })).toEqual({
			promptTokens: 0,
			completionTokens: 4,
			totalTokens: 4,
		});
		expect(tokenUsage({ inputTokens: 1, outputTokens: 1, totalTokens: 5 })).toEqual({
			promptTokens: 1,
			completionTokens: 1,
			totalTokens: 5,
		});
		expect(tokenUsage(null)).toBeUndefined();
	});
});

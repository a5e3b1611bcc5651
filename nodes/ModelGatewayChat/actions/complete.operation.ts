import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import {
	itemsInFlightOption,
	modelProperty,
	optionsCollection,
	timeoutOption,
	traceIdOption,
} from '../../shared/items/properties';
import { CHAT_COMPLETIONS_API } from '../../shared/text/textApis';
import {
	executeTextOperation,
	messageListProperty,
	simplifyProperty,
	streamOptions,
	structuredOutputOptions,
	toolOptions,
} from '../../shared/text/textGeneration';
import { simplifyChatCompletion } from '../output';
import { buildChatRequest } from '../request';

/** Complete a conversation: the parameters (model, messages, output shape, options) and the run. */

const chatRoles = [
	{ name: 'System', value: 'system', description: 'Instructions for the model' },
	{ name: 'User', value: 'user', description: 'What the user says' },
	{ name: 'Assistant', value: 'assistant', description: 'An earlier answer of the model' },
	{ name: 'Tool', value: 'tool', description: 'The result of a tool call' },
];

const roleSpecificFields: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		default: '',
		description: 'Optional name of the participant, to tell several users or assistants apart',
	},
	{
		displayName: 'Tool Call ID',
		name: 'toolCallId',
		type: 'string',
		default: '',
		displayOptions: { show: { role: ['tool'] } },
		description: 'ID of the tool call this message answers (required for tool messages)',
	},
	{
		displayName: 'Tool Calls (JSON)',
		name: 'toolCalls',
		type: 'json',
		default: '[]',
		displayOptions: { show: { role: ['assistant'] } },
		description: 'Tool calls the assistant made in this earlier turn, as a JSON array',
	},
];

export const description: INodeProperties[] = [
	modelProperty('e.g. gpt-4o-mini', 'A model name enabled for your account in the gateway console'),
	{
		displayName: 'Messages Input',
		name: 'messagesMode',
		type: 'options',
		options: [
			{ name: 'Define Below', value: 'fields', description: 'Enter the messages one by one' },
			{
				name: 'From JSON or Expression',
				value: 'json',
				description: 'Pass a whole conversation, e.g. from a previous node',
			},
		],
		default: 'fields',
		noDataExpression: true,
	},
	messageListProperty({ messagesMode: ['fields'] }, chatRoles, roleSpecificFields),
	{
		displayName: 'Messages (JSON)',
		name: 'messagesJson',
		type: 'json',
		default: '[\n  { "role": "user", "content": "Hello" }\n]',
		required: true,
		displayOptions: { show: { messagesMode: ['json'] } },
		description:
			'A JSON array of messages, each with "role" (system, user, assistant, tool) and "content", plus "name", "tool_call_id" or "tool_calls" where needed',
	},
	simplifyProperty,
	optionsCollection([
		itemsInFlightOption,
		{
			displayName: 'Frequency Penalty',
			name: 'frequencyPenalty',
			type: 'number',
			typeOptions: { minValue: -2, maxValue: 2, numberPrecision: 2 },
			default: 0,
			description: 'Between -2 and 2. Positive values make the model repeat itself less.',
		},
		{
			displayName: 'Max Completion Tokens',
			name: 'maxCompletionTokens',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 1024,
			description:
				'Upper bound of generated tokens, including reasoning tokens. Takes precedence over Max Tokens.',
		},
		{
			displayName: 'Max Tokens',
			name: 'maxTokens',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 1024,
			description:
				'Upper bound of generated tokens (older setting; not sent when Max Completion Tokens is set)',
		},
		{
			displayName: 'Number of Answers',
			name: 'n',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 1,
			description: 'How many alternative answers to generate (n). Each one is billed.',
		},
		{
			displayName: 'Presence Penalty',
			name: 'presencePenalty',
			type: 'number',
			typeOptions: { minValue: -2, maxValue: 2, numberPrecision: 2 },
			default: 0,
			description: 'Between -2 and 2. Positive values push the model towards new topics.',
		},
		{
			displayName: 'Stop Sequences',
			name: 'stop',
			type: 'string',
			default: '',
			description:
				'Text at which the model stops. One sequence, or a JSON array such as ["END", "###"].',
		},
		{
			displayName: 'Temperature',
			name: 'temperature',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 2, numberPrecision: 2 },
			default: 1,
			description: 'Sampling temperature, 0 to 2. Higher values give more varied answers.',
		},
		{
			displayName: 'Top P',
			name: 'topP',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
			default: 1,
			description: 'Nucleus sampling, 0 to 1. Change this or Temperature, not both.',
		},
		{
			displayName: 'User',
			name: 'user',
			type: 'string',
			default: '',
			description: 'An identifier of your end user, to help the gateway detect abuse',
		},
		...toolOptions,
		...structuredOutputOptions,
		...streamOptions,
		timeoutOption(),
		traceIdOption,
	]),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	return await executeTextOperation(this, {
		api: CHAT_COMPLETIONS_API,
		buildRequest: buildChatRequest,
		wantsJson: (request) =>
			['json_object', 'json_schema'].includes(String(request.response_format?.type)),
		simplify: simplifyChatCompletion,
	});
}

import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import {
	itemsInFlightOption,
	modelProperty,
	optionsCollection,
	timeoutOption,
	traceIdOption,
} from '../../shared/items/properties';
import { REASONING_EFFORTS, REASONING_SUMMARIES } from '../../shared/schemas/responses';
import { RESPONSES_API } from '../../shared/text/textApis';
import {
	executeTextOperation,
	messageListProperty,
	simplifyProperty,
	streamOptions,
	structuredOutputOptions,
	toolOptions,
} from '../../shared/text/textGeneration';
import { simplifyResponse } from '../output';
import { buildResponsesRequest } from '../request';

/** Create a response: the parameters (model, input, output shape, options) and the run. */

const capitalized = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

export const description: INodeProperties[] = [
	modelProperty(
		'e.g. gpt-4.1-mini',
		'A model that supports the responses API, enabled for your account in the gateway console',
	),
	{
		displayName: 'Input Type',
		name: 'inputMode',
		type: 'options',
		options: [
			{ name: 'Text', value: 'text', description: 'One user text' },
			{ name: 'Messages', value: 'messages', description: 'Messages entered one by one' },
			{
				name: 'From JSON or Expression',
				value: 'json',
				description: 'A JSON array of input items (messages, function_call_output, ...)',
			},
		],
		default: 'text',
		noDataExpression: true,
	},
	{
		displayName: 'Input',
		name: 'input',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		displayOptions: { show: { inputMode: ['text'] } },
		description: 'What the model should answer',
	},
	messageListProperty({ inputMode: ['messages'] }, [
		{ name: 'Developer', value: 'developer', description: 'Instructions from the workflow author' },
		{ name: 'User', value: 'user' },
		{ name: 'Assistant', value: 'assistant', description: 'An earlier answer of the model' },
	]),
	{
		displayName: 'Input (JSON)',
		name: 'inputJson',
		type: 'json',
		default: '[\n  { "role": "user", "content": "Hello" }\n]',
		displayOptions: { show: { inputMode: ['json'] } },
		description:
			'A JSON array of input items, e.g. messages or {"type": "function_call_output", "call_id": "...", "output": "..."}',
	},
	simplifyProperty,
	optionsCollection([
		itemsInFlightOption,
		{
			displayName: 'Conversation',
			name: 'conversation',
			type: 'string',
			default: '',
			description:
				'A conversation ID (or a JSON object) to bind this response to. Cannot be combined with Previous Response ID.',
		},
		{
			displayName: 'Instructions',
			name: 'instructions',
			type: 'string',
			typeOptions: { rows: 2 },
			default: '',
			description: 'High-priority instructions for this request (like a system message)',
		},
		{
			displayName: 'Max Output Tokens',
			name: 'maxOutputTokens',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 1024,
			description: 'Upper bound of output tokens, reasoning included',
		},
		{
			displayName: 'Max Tool Calls',
			name: 'maxToolCalls',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 1,
			description: 'Maximum number of tool calls in this response',
		},
		{
			displayName: 'Metadata (JSON)',
			name: 'metadata',
			type: 'json',
			default: '{}',
			description: 'Your own key-value pairs stored with the response',
		},
		{
			displayName: 'Previous Response ID',
			name: 'previousResponseId',
			type: 'string',
			default: '',
			placeholder: 'e.g. resp_abc123',
			description:
				'Continue from an earlier response (the "ID" output of a previous Responses node). Cannot be combined with Conversation.',
		},
		{
			displayName: 'Prompt Template (JSON)',
			name: 'prompt',
			type: 'json',
			default: '{}',
			description:
				'A reference to a stored prompt template: a JSON object naming the template, its version and variables',
		},
		{
			displayName: 'Reasoning Effort',
			name: 'reasoningEffort',
			type: 'options',
			options: REASONING_EFFORTS.map((effort) => ({ name: capitalized(effort), value: effort })),
			default: 'medium',
			description: 'How hard a reasoning model thinks before answering',
		},
		{
			displayName: 'Reasoning Summary',
			name: 'reasoningSummary',
			type: 'options',
			options: REASONING_SUMMARIES.map((summary) => ({
				name: capitalized(summary),
				value: summary,
			})),
			default: 'auto',
			description: 'Whether and how a reasoning model summarizes its reasoning',
		},
		{
			displayName: 'Store',
			name: 'store',
			type: 'boolean',
			default: true,
			description: 'Whether the upstream may store the response (needed to continue from it later)',
		},
		{
			displayName: 'Truncation',
			name: 'truncation',
			type: 'options',
			options: [
				{ name: 'Disabled', value: 'disabled', description: 'Fail when the context is too long' },
				{ name: 'Auto', value: 'auto', description: 'Drop older context when it is too long' },
			],
			default: 'disabled',
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
		api: RESPONSES_API,
		buildRequest: buildResponsesRequest,
		wantsJson: (request) =>
			['json_object', 'json_schema'].includes(String(request.text?.format?.type)),
		simplify: simplifyResponse,
	});
}

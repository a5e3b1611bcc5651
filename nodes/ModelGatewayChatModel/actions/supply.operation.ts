import type { INodeProperties, ISupplyDataFunctions, SupplyData } from 'n8n-workflow';

import { REASONING_EFFORTS } from '../../shared/schemas/responses';
import { traceIdOption } from '../../shared/gateway/transport';
import { modelProperty, optionsCollection } from '../../shared/items/properties';
import { createGatewayChatModel } from '../model/gatewayChatModel';
import { loadSdk } from '../model/sdk';
import { readSettings } from '../model/settings';

/** Supply the model: its parameters, and the model handed to the AI Agent or chain. */

const CHAT_COMPLETIONS_ONLY = { show: { '/api': ['chatCompletions'] } };
const RESPONSES_ONLY = { show: { '/api': ['responses'] } };

export const description: INodeProperties[] = [
	{
		displayName:
			'Connect this model to an AI Agent, Basic LLM Chain or another AI node. Needs n8n 2.x.',
		name: 'connectionNotice',
		type: 'notice',
		default: '',
	},
	modelProperty(
		'e.g. gpt-4o-mini',
		'The model to use, as the gateway names it (enabled for your account in the gateway console)',
	),
	{
		displayName: 'API',
		name: 'api',
		type: 'options',
		options: [
			{
				name: 'Chat Completions',
				value: 'chatCompletions',
				description: 'POST /v1/chat/completions: temperature, penalties and stop words',
			},
			{
				name: 'Responses',
				value: 'responses',
				description: 'POST /v1/responses: reasoning effort for reasoning models',
			},
		],
		default: 'chatCompletions',
		description: 'Which gateway API the model speaks. Both support tools and streaming.',
	},
	optionsCollection([
		{
			displayName: 'Frequency Penalty',
			name: 'frequencyPenalty',
			type: 'number',
			typeOptions: { minValue: -2, maxValue: 2, numberPrecision: 1 },
			default: 0,
			description: 'Positive values make the model repeat itself less (-2 to 2)',
			displayOptions: CHAT_COMPLETIONS_ONLY,
		},
		{
			displayName: 'Maximum Number of Tokens',
			name: 'maxTokens',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 1024,
			description:
				'The most tokens one answer may use (max_tokens; for Responses max_output_tokens, reasoning included)',
		},
		{
			displayName: 'Max Retries',
			name: 'maxRetries',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 10, numberPrecision: 0 },
			default: 3,
			description:
				'How often a request that never reached the gateway (connection refused) is sent again. Rate limits (429) are always waited out as the gateway asks; a request the gateway may have processed is never repeated, so nothing is billed twice.',
		},
		{
			displayName: 'Presence Penalty',
			name: 'presencePenalty',
			type: 'number',
			typeOptions: { minValue: -2, maxValue: 2, numberPrecision: 1 },
			default: 0,
			description: 'Positive values make the model move to new topics (-2 to 2)',
			displayOptions: CHAT_COMPLETIONS_ONLY,
		},
		{
			displayName: 'Reasoning Effort',
			name: 'reasoningEffort',
			type: 'options',
			options: REASONING_EFFORTS.map((effort) => ({
				name: effort.charAt(0).toUpperCase() + effort.slice(1),
				value: effort,
			})),
			default: 'medium',
			description: 'How hard a reasoning model thinks before it answers',
			displayOptions: RESPONSES_ONLY,
		},
		{
			displayName: 'Response Format',
			name: 'responseFormat',
			type: 'options',
			options: [
				{ name: 'Text', value: 'text' },
				{
					name: 'JSON',
					value: 'json_object',
					description: 'Always a valid JSON object (say "JSON" in the prompt too)',
				},
			],
			default: 'text',
		},
		{
			displayName: 'Sampling Temperature',
			name: 'temperature',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 2, numberPrecision: 1 },
			default: 0.7,
			description: 'Higher values make answers more varied, lower more focused (0 to 2)',
			displayOptions: CHAT_COMPLETIONS_ONLY,
		},
		{
			displayName: 'Stop Sequences',
			name: 'stop',
			type: 'string',
			default: '',
			placeholder: 'e.g. END or ["END", "STOP"]',
			description: 'Where the model stops writing: one word, or a JSON list of up to a few',
			displayOptions: CHAT_COMPLETIONS_ONLY,
		},
		{
			displayName: 'Timeout (Seconds)',
			name: 'timeout',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 120,
			description:
				'How long to wait for each answer. A request that times out is not sent again, as the gateway may still process (and bill) it.',
		},
		{
			displayName: 'Top P',
			name: 'topP',
			type: 'number',
			typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
			default: 1,
			description: 'Nucleus sampling: the share of probability mass the model picks from (0 to 1)',
			displayOptions: CHAT_COMPLETIONS_ONLY,
		},
		traceIdOption,
	]),
];

/**
 * The SDK wraps the model for LangChain with LangChain's own retries (up to 6, on 5xx and
 * network errors alike), which would send a completion again that the gateway may have
 * processed and billed. The transport already repeats exactly what is safe, so they are off.
 */
function withoutLangChainRetries(supplied: SupplyData): SupplyData {
	const caller = (supplied.response as { caller?: { maxRetries?: unknown } } | null)?.caller;
	if (caller && typeof caller.maxRetries === 'number') caller.maxRetries = 0;
	return supplied;
}

export async function supplyData(
	this: ISupplyDataFunctions,
	itemIndex: number,
): Promise<SupplyData> {
	const sdk = await loadSdk(this.getNode());
	const model = createGatewayChatModel({
		context: this,
		settings: readSettings(this, itemIndex),
		sdk,
	});
	// The SDK's types name n8n-workflow 2.x's context; at run time it is this one context.
	const context = this as unknown as Parameters<typeof sdk.supplyModel>[0];
	return withoutLangChainRetries(sdk.supplyModel(context, model) as SupplyData);
}

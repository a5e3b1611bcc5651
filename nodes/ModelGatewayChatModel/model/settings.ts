import type { IDataObject, ISupplyDataFunctions } from 'n8n-workflow';

import type { RetryPolicy } from '../../shared/gateway/transport';
import { DEFAULT_RETRY_POLICY } from '../../shared/gateway/transport';

/** The gateway API a model speaks: Chat Completions or Responses. */
export type GatewayApi = 'chatCompletions' | 'responses';

/** What the node's parameters say about every request its model sends. */
export interface ModelSettings {
	api: GatewayApi;
	model: string;
	temperature?: number;
	topP?: number;
	maxTokens?: number;
	presencePenalty?: number;
	frequencyPenalty?: number;
	/** One stop word, or several as a JSON list (validated with the request). */
	stop?: string;
	responseFormat: 'text' | 'json_object';
	reasoningEffort?: string;
	timeoutMs: number;
	retryPolicy: RetryPolicy;
	/** Sent as X-Trace-ID on every request; a fresh one per request when empty. */
	traceId?: string;
	itemIndex: number;
}

const DEFAULT_TIMEOUT_SECONDS = 120;

const numberOption = (value: unknown): number | undefined =>
	typeof value === 'number' && Number.isFinite(value) ? value : undefined;

const textOption = (value: unknown): string | undefined =>
	typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;

export function readSettings(context: ISupplyDataFunctions, itemIndex: number): ModelSettings {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	const api = context.getNodeParameter('api', itemIndex, 'chatCompletions') as GatewayApi;
	const maxRetries = numberOption(options.maxRetries);
	const timeoutSeconds = numberOption(options.timeout) ?? DEFAULT_TIMEOUT_SECONDS;
	return {
		api,
		model: String(context.getNodeParameter('model', itemIndex, '')).trim(),
		temperature: numberOption(options.temperature),
		topP: numberOption(options.topP),
		maxTokens: numberOption(options.maxTokens),
		presencePenalty: numberOption(options.presencePenalty),
		frequencyPenalty: numberOption(options.frequencyPenalty),
		stop: textOption(options.stop),
		responseFormat: options.responseFormat === 'json_object' ? 'json_object' : 'text',
		reasoningEffort: api === 'responses' ? textOption(options.reasoningEffort) : undefined,
		timeoutMs: timeoutSeconds * 1000,
		// Only what the gateway provably did not process is sent again (see transport.ts); rate
		// limits are always waited out, as every node of the package does.
		retryPolicy:
			maxRetries === undefined ? DEFAULT_RETRY_POLICY : { ...DEFAULT_RETRY_POLICY, maxRetries },
		traceId: textOption(options.traceId),
		itemIndex,
	};
}

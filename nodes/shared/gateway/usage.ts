import type { IDataObject } from 'n8n-workflow';

/**
 * What the gateway reports about usage and money, in one shape for every node's output. Only
 * what the gateway said: a count it did not give is null, and a node whose answer reports
 * nothing outputs `usage: null` / `cost: null` (nothing is estimated).
 */

export interface Usage extends IDataObject {
	inputTokens: number | null;
	outputTokens: number | null;
	totalTokens: number | null;
	/** Only where the gateway reports it (responses, some chat models). */
	reasoningTokens?: number | null;
	/** Only for image results. */
	imageCount?: number | null;
}

/** Money as the gateway states it, in its currency; amounts as numbers so they can be added. */
export interface Cost extends IDataObject {
	currency: string | null;
	input: number | null;
	output: number | null;
	total: number | null;
}

/** Where one answer shape keeps its counts (dotted paths into its usage object). */
export interface UsageFields {
	input?: string;
	output?: string;
	total?: string;
	reasoning?: string;
	imageCount?: string;
}

function at(record: IDataObject, path: string): unknown {
	let value: unknown = record;
	for (const part of path.split('.')) {
		if (value === null || typeof value !== 'object') return undefined;
		value = (value as IDataObject)[part];
	}
	return value;
}

function count(record: IDataObject, path: string | undefined): number | null {
	if (path === undefined) return null;
	const value = at(record, path);
	return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function amount(value: unknown): number | null {
	if (typeof value === 'number') return Number.isFinite(value) ? value : null;
	if (typeof value !== 'string' || value.trim() === '') return null;
	const parsed = Number(value);
	return Number.isFinite(parsed) ? parsed : null;
}

function asObject(value: unknown): IDataObject | undefined {
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

/** The normalized usage of a gateway usage object; null when it holds none of the counts. */
export function normalizeUsage(raw: unknown, fields: UsageFields): Usage | null {
	const record = asObject(raw);
	if (!record) return null;
	const usage: Usage = {
		inputTokens: count(record, fields.input),
		outputTokens: count(record, fields.output),
		totalTokens: count(record, fields.total),
	};
	if (fields.reasoning) usage.reasoningTokens = count(record, fields.reasoning);
	if (fields.imageCount) usage.imageCount = count(record, fields.imageCount);
	return Object.values(usage).some((value) => value !== null) ? usage : null;
}

/** The chat-completions usage object (`prompt_tokens`, `completion_tokens`, `total_tokens`). */
export const CHAT_USAGE: UsageFields = {
	input: 'prompt_tokens',
	output: 'completion_tokens',
	total: 'total_tokens',
	reasoning: 'completion_tokens_details.reasoning_tokens',
};

/** The responses-style usage object (`input_tokens`, `output_tokens`, details). */
export const RESPONSES_USAGE: UsageFields = {
	input: 'input_tokens',
	output: 'output_tokens',
	total: 'total_tokens',
	reasoning: 'output_tokens_details.reasoning_tokens',
};

/** A cost object with a currency and amount fields (strings or numbers) under the given names. */
export function normalizeCost(
	raw: unknown,
	fields: { currency: string; input: string; output: string; total: string },
): Cost | null {
	const record = asObject(raw);
	if (!record) return null;
	const currency = record[fields.currency];
	const cost: Cost = {
		currency: typeof currency === 'string' && currency !== '' ? currency : null,
		input: amount(record[fields.input]),
		output: amount(record[fields.output]),
		total: amount(record[fields.total]),
	};
	return cost.input === null && cost.output === null && cost.total === null ? null : cost;
}

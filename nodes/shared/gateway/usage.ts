import type { IDataObject } from 'n8n-workflow';

import { decimalToNumber, formatDecimal, parseDecimal, type Decimal } from '../money/decimal';

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

/**
 * Money as the gateway states it, in its currency: each amount as a number (the nearest one, for
 * expressions and comparisons) and as the exact text the gateway wrote (for adding up and
 * accounting), with the most decimals it wrote.
 */
export interface Cost extends IDataObject {
	currency: string | null;
	input: number | null;
	output: number | null;
	total: number | null;
	/** The gateway's text, trimmed (a JSON number as plain decimal text); null where unreadable. */
	inputExact: string | null;
	outputExact: string | null;
	totalExact: string | null;
	/** The most decimals among the amounts the gateway wrote (`"0.1234567"`: 7). */
	precision: number;
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

/** An amount read exactly, with the text to show for it: the gateway's own, only trimmed. */
function amount(value: unknown): { exact: Decimal; text: string } | null {
	const exact = parseDecimal(value);
	if (!exact) return null;
	return { exact, text: typeof value === 'string' ? value.trim() : formatDecimal(exact) };
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
	const input = amount(record[fields.input]);
	const output = amount(record[fields.output]);
	const total = amount(record[fields.total]);
	const read = [input, output, total].filter((value) => value !== null);
	if (read.length === 0) return null;
	return {
		currency: typeof currency === 'string' && currency !== '' ? currency : null,
		input: input && decimalToNumber(input.exact),
		output: output && decimalToNumber(output.exact),
		total: total && decimalToNumber(total.exact),
		inputExact: input?.text ?? null,
		outputExact: output?.text ?? null,
		totalExact: total?.text ?? null,
		precision: Math.max(...read.map((value) => value.exact.scale)),
	};
}

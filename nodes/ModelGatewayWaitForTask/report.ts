import type { IDataObject } from 'n8n-workflow';

import {
	addDecimals,
	decimalToNumber,
	formatDecimal,
	parseDecimal,
	trimDecimal,
	type Decimal,
} from '../shared/money/decimal';
import type { NormalizedTask } from '../shared/tasks';

/**
 * The batch report: what happened to every task a Wait for Task saw settle, in one item. The
 * running totals travel in the Still Running item of a Check Once loop, so a report at the end
 * of the loop covers every pass, across restarts (the Wait node stores that item).
 */

export type Outcome = 'succeeded' | 'failed' | 'timedOut';

/** The Still Running item's field that carries the totals from pass to pass. */
export const BATCH_TOTALS = 'batchTotals';

/** At most this many failures are listed by name; the counts stay exact. */
const MAX_LISTED_FAILURES = 500;

/** Builds before exact money carried each currency's sum as an integer of millionths. */
const LEGACY_MONEY_SCALE = 6;

export interface BatchTotals extends IDataObject {
	startedAt: string;
	passes: number;
	queries: number;
	byStatus: Record<Outcome, number>;
	byFamily: Record<string, Record<Outcome, number>>;
	failures: IDataObject[];
	/**
	 * Per currency, the exact sum of the tasks' total costs as decimal text, with as many decimals
	 * as the most any amount had (`"0.2469134"`).
	 */
	costExact: Record<string, string>;
	/** Seconds from creation (or from the start of the wait) to the check that saw the end. */
	durationsSeconds: number[];
}

const noOutcomes = (): Record<Outcome, number> => ({ succeeded: 0, failed: 0, timedOut: 0 });

export function emptyTotals(now: number): BatchTotals {
	return {
		startedAt: new Date(now).toISOString(),
		passes: 0,
		queries: 0,
		byStatus: noOutcomes(),
		byFamily: {},
		failures: [],
		costExact: {},
		durationsSeconds: [],
	};
}

/**
 * A task's total cost, exactly: the gateway's text (`totalExact`), else the number (`total`) of
 * a task item from a build before exact money, or one edited in the workflow.
 */
function totalCost(cost: unknown): Decimal | null {
	if (cost === null || typeof cost !== 'object') return null;
	const { totalExact, total } = cost as { totalExact?: unknown; total?: unknown };
	return parseDecimal(totalExact) ?? parseDecimal(total);
}

/** Adds an amount to a currency's sum. */
function addCost(sums: Record<string, string>, currency: string, amount: Decimal): void {
	const sum = parseDecimal(sums[currency]);
	sums[currency] = formatDecimal(sum ? addDecimals(sum, amount) : amount);
}

/** Counts one settled task. */
export function countTask(
	totals: BatchTotals,
	task: NormalizedTask,
	outcome: Outcome,
	/** Unknown for a task that arrived finished. */
	durationSeconds?: number,
): void {
	totals.byStatus[outcome]++;
	const family = (totals.byFamily[task.family] ??= noOutcomes());
	family[outcome]++;
	if (durationSeconds !== undefined) totals.durationsSeconds.push(durationSeconds);
	if (outcome !== 'succeeded' && totals.failures.length < MAX_LISTED_FAILURES) {
		totals.failures.push({
			taskId: task.taskId,
			family: task.family,
			status: outcome === 'timedOut' ? 'timedOut' : task.status,
			reason: task.error?.message ?? (outcome === 'timedOut' ? 'Max Wait reached' : null),
		});
	}
	const total = totalCost(task.cost);
	if (total) {
		const currency = task.cost?.currency;
		addCost(totals.costExact, typeof currency === 'string' ? currency : 'unknown currency', total);
	}
}

function isCounts(value: unknown): value is Record<Outcome, number> {
	const record = value as Record<string, unknown> | null;
	return (
		record !== null &&
		typeof record === 'object' &&
		(['succeeded', 'failed', 'timedOut'] as const).every((key) => typeof record[key] === 'number')
	);
}

/** Per-currency sums as exact decimal text; undefined unless every sum reads. */
function sums(value: unknown): Record<string, string> | undefined {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
	const read: Record<string, string> = {};
	for (const [currency, sum] of Object.entries(value)) {
		const amount = typeof sum === 'string' ? parseDecimal(sum) : null;
		if (!amount) return undefined;
		read[currency] = formatDecimal(amount);
	}
	return read;
}

/**
 * Per-currency sums in integer millionths, as builds before exact money stored them, read as
 * decimal text (`250000` → `"0.25"`: the decimals the millionths kept, trailing zeros dropped).
 */
function legacySums(value: unknown): Record<string, string> | undefined {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
	const read: Record<string, string> = {};
	for (const [currency, millionths] of Object.entries(value)) {
		if (!Number.isSafeInteger(millionths)) return undefined;
		const amount = { units: BigInt(millionths as number), scale: LEGACY_MONEY_SCALE };
		read[currency] = formatDecimal(trimDecimal(amount));
	}
	return read;
}

/**
 * Totals carried by an item from an earlier pass; undefined when it carries none (or a broken
 * copy). Totals stored by a build before exact money (`costMillionths`) are read too, so a loop
 * resumed after an upgrade keeps its money.
 */
export function carriedTotals(value: unknown): BatchTotals | undefined {
	const record = value as (Partial<BatchTotals> & { costMillionths?: unknown }) | null;
	if (record === null || typeof record !== 'object') return undefined;
	const valid =
		typeof record.startedAt === 'string' &&
		typeof record.passes === 'number' &&
		typeof record.queries === 'number' &&
		isCounts(record.byStatus) &&
		record.byFamily !== null &&
		typeof record.byFamily === 'object' &&
		Object.values(record.byFamily).every(isCounts) &&
		Array.isArray(record.failures) &&
		Array.isArray(record.durationsSeconds) &&
		record.durationsSeconds.every((seconds) => typeof seconds === 'number');
	if (!valid) return undefined;
	const costExact =
		record.costExact !== undefined ? sums(record.costExact) : legacySums(record.costMillionths);
	if (!costExact) return undefined;
	const copy = structuredClone(record);
	delete copy.costMillionths;
	return { ...(copy as BatchTotals), costExact };
}

/** Adds totals of another input item (several loops joined into one node). */
export function mergeTotals(into: BatchTotals, from: BatchTotals): void {
	if (from.startedAt < into.startedAt) into.startedAt = from.startedAt;
	into.passes = Math.max(into.passes, from.passes);
	into.queries += from.queries;
	for (const outcome of ['succeeded', 'failed', 'timedOut'] as const) {
		into.byStatus[outcome] += from.byStatus[outcome];
	}
	for (const [family, counts] of Object.entries(from.byFamily)) {
		const target = (into.byFamily[family] ??= noOutcomes());
		for (const outcome of ['succeeded', 'failed', 'timedOut'] as const) {
			target[outcome] += counts[outcome];
		}
	}
	into.failures.push(...from.failures.slice(0, MAX_LISTED_FAILURES - into.failures.length));
	for (const [currency, sum] of Object.entries(from.costExact)) {
		const amount = parseDecimal(sum);
		if (amount) addCost(into.costExact, currency, amount);
	}
	into.durationsSeconds.push(...from.durationsSeconds);
}

/** The value at a quantile of sorted numbers (nearest rank). */
function quantile(sorted: number[], q: number): number | null {
	if (sorted.length === 0) return null;
	return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

/**
 * The money of the report: per currency the sum as the nearest number (`costByCurrency`), as exact
 * decimal text (`costExactByCurrency`) and the most decimals any amount had
 * (`costPrecisionByCurrency`).
 */
function costFields(costExact: Record<string, string>): IDataObject {
	const costByCurrency: Record<string, number> = {};
	const costExactByCurrency: Record<string, string> = {};
	const costPrecisionByCurrency: Record<string, number> = {};
	for (const [currency, sum] of Object.entries(costExact)) {
		const amount = parseDecimal(sum);
		if (!amount) continue;
		costByCurrency[currency] = decimalToNumber(amount);
		costExactByCurrency[currency] = formatDecimal(amount);
		costPrecisionByCurrency[currency] = amount.scale;
	}
	return { costByCurrency, costExactByCurrency, costPrecisionByCurrency };
}

/** The report item's JSON. */
export function batchReport(totals: BatchTotals, now: number): IDataObject {
	const sorted = [...totals.durationsSeconds].sort((a, b) => a - b);
	const tasks = totals.byStatus.succeeded + totals.byStatus.failed + totals.byStatus.timedOut;
	return {
		tasks,
		byStatus: totals.byStatus,
		byFamily: totals.byFamily,
		failures: totals.failures,
		failuresListed: totals.failures.length,
		...costFields(totals.costExact),
		durationSeconds: {
			median: quantile(sorted, 0.5),
			p95: quantile(sorted, 0.95),
			longest: sorted.length > 0 ? sorted[sorted.length - 1] : null,
		},
		queries: totals.queries,
		passes: totals.passes,
		startedAt: totals.startedAt,
		finishedAt: new Date(now).toISOString(),
	};
}

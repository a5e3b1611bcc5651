import type { IDataObject } from 'n8n-workflow';

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

/** Money is added in millionths so that 0.1 + 0.2 stays 0.3. */
const MONEY_SCALE = 1_000_000;

export interface BatchTotals extends IDataObject {
	startedAt: string;
	passes: number;
	queries: number;
	byStatus: Record<Outcome, number>;
	byFamily: Record<string, Record<Outcome, number>>;
	failures: IDataObject[];
	/** Per currency, in millionths. */
	costMillionths: Record<string, number>;
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
		costMillionths: {},
		durationsSeconds: [],
	};
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
	const total = task.cost?.total;
	if (typeof total === 'number') {
		const currency = task.cost?.currency ?? 'unknown currency';
		totals.costMillionths[currency] =
			(totals.costMillionths[currency] ?? 0) + Math.round(total * MONEY_SCALE);
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

/** Totals carried by an item from an earlier pass; undefined when it carries none (or a broken copy). */
export function carriedTotals(value: unknown): BatchTotals | undefined {
	const record = value as Partial<BatchTotals> | null;
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
		record.costMillionths !== null &&
		typeof record.costMillionths === 'object' &&
		Array.isArray(record.durationsSeconds) &&
		record.durationsSeconds.every((seconds) => typeof seconds === 'number');
	return valid ? structuredClone(record as BatchTotals) : undefined;
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
	for (const [currency, amount] of Object.entries(from.costMillionths)) {
		into.costMillionths[currency] = (into.costMillionths[currency] ?? 0) + amount;
	}
	into.durationsSeconds.push(...from.durationsSeconds);
}

/** The value at a quantile of sorted numbers (nearest rank). */
function quantile(sorted: number[], q: number): number | null {
	if (sorted.length === 0) return null;
	return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
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
		costByCurrency: Object.fromEntries(
			Object.entries(totals.costMillionths).map(([currency, amount]) => [
				currency,
				amount / MONEY_SCALE,
			]),
		),
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

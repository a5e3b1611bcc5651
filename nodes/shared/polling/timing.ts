/**
 * When a task is next due for a query. Two sources of rules meet here: the family's poll
 * policy (a limit the gateway sets, e.g. Task family S: first query 10 minutes after creation,
 * then at most once a minute — never configurable away) and the user's interval, which grows
 * gently for long tasks so a 2-hour render is not queried 700 times.
 */

/** A family's limits (the `pollPolicy` of its wire module). */
export interface PollRule {
	/** Earliest query after the task's creation. */
	firstPollAfterMs: number;
	/** Shortest gap between two queries of one task. */
	minIntervalMs: number;
	/** True when the gateway enforces the limits: then a safety margin is added to them. */
	enforcedByGateway?: boolean;
}

export const DEFAULT_INTERVAL_SECONDS = 10;
/** The user's interval is never shorter than this: every family's shortest gap between checks. */
export const MIN_INTERVAL_SECONDS = 10;
/** Growth stops here (unless the user's own interval is longer). */
export const MAX_GROWN_INTERVAL_MS = 60_000;
/** The interval grows by one base interval for every this much of the task's age. */
export const GROWTH_PERIOD_MS = 10 * 60_000;
/**
 * Added to every wait the gateway enforces (Task family S), so that the gateway's clock (which
 * judges the rule) and ours never disagree by enough to break it.
 */
export const RULE_SAFETY_MARGIN_MS = 1_000;

function margin(rule: PollRule): number {
	return rule.enforcedByGateway ? RULE_SAFETY_MARGIN_MS : 0;
}

/** The shortest gap between two queries of one task, margin included. */
export function minGapMs(rule: PollRule): number {
	return rule.minIntervalMs > 0 ? rule.minIntervalMs + margin(rule) : 0;
}

export function baseIntervalMs(intervalSeconds: number): number {
	const seconds = Number.isFinite(intervalSeconds) ? intervalSeconds : DEFAULT_INTERVAL_SECONDS;
	return Math.max(seconds, MIN_INTERVAL_SECONDS) * 1000;
}

/** The first time a task may be queried; `createdAt` unknown counts as "created just now". */
export function firstDueAt(rule: PollRule, createdAt: number | undefined, now: number): number {
	if (rule.firstPollAfterMs <= 0) return now;
	const created = createdAt !== undefined && Number.isFinite(createdAt) ? createdAt : now;
	return Math.max(now, created + rule.firstPollAfterMs + margin(rule));
}

/** The wait after a query sent at `queriedAt` to a task created at `createdAt`. */
export function intervalAfter(
	rule: PollRule,
	intervalMs: number,
	createdAt: number,
	queriedAt: number,
): number {
	const age = Math.max(0, queriedAt - createdAt);
	const grown = Math.min(
		intervalMs * (1 + age / GROWTH_PERIOD_MS),
		Math.max(intervalMs, MAX_GROWN_INTERVAL_MS),
	);
	return Math.ceil(Math.max(grown, minGapMs(rule)));
}

/** The next time a task may be queried, after a query sent at `queriedAt`. */
export function nextDueAt(
	rule: PollRule,
	intervalMs: number,
	createdAt: number,
	queriedAt: number,
): number {
	return queriedAt + intervalAfter(rule, intervalMs, createdAt, queriedAt);
}

/** Longest wait after failed checks in a row (a proxy's refusal, a 5xx, a dropped connection). */
export const MAX_FAILURE_BACKOFF_MS = 5 * 60_000;

/**
 * The wait after the `failuresInRow`-th failed check in a row: the interval doubled each time,
 * at most MAX_FAILURE_BACKOFF_MS. The family's own limits still apply on top (nextDueAt).
 */
export function failureBackoffMs(intervalMs: number, failuresInRow: number): number {
	return Math.min(intervalMs * 2 ** Math.max(1, failuresInRow), MAX_FAILURE_BACKOFF_MS);
}

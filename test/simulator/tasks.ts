import type { Timers } from './timers';
import type { JsonObject } from './validate';

export type FamilyId = 'taskS' | 'familyA' | 'generic' | 'familyB' | 'familyC' | 'longRunning';

/** The simulator's own lifecycle; each family renders it with its own status words. */
export type Phase = 'queued' | 'running' | 'succeeded' | 'failed';
/** 'unknown' is what UNKNOWN_STATUS tasks report, forever. */
export type TaskStatus = Phase | 'unknown';

export interface SimTask {
	/** Canonical id, used for result file names. */
	id: string;
	/** Every id a client may use to look the task up (includes `id`). */
	aliases: string[];
	family: FamilyId;
	/** Family-specific flavour, e.g. Family A's 'omni-video' or 'image2video'. */
	variant: string;
	model: string;
	prompt: string;
	/** The create body, for echoing fields back in the task record. */
	request: JsonObject;
	createdAt: number;
	// Durations are captured at creation so setOptions() never changes a running task.
	queuedMs: number;
	runningMs: number;
	outcome: 'succeeded' | 'failed';
	reportsUnknownStatus: boolean;
	/** Task family S polling rule: when the task was last queried (a refused query included). */
	lastQueryAt?: number;
}

/** Status at a moment, driven purely by time since creation. */
export function statusAt(task: SimTask, at: number): TaskStatus {
	if (task.reportsUnknownStatus) return 'unknown';
	const elapsed = at - task.createdAt;
	if (elapsed < task.queuedMs) return 'queued';
	if (elapsed < task.queuedMs + task.runningMs) return 'running';
	return task.outcome;
}

/** When the task entered `status` (for updated_at fields). */
export function statusChangedAt(task: SimTask, status: TaskStatus): number {
	switch (status) {
		case 'queued':
		case 'unknown':
			return task.createdAt;
		case 'running':
			return task.createdAt + task.queuedMs;
		default:
			return task.createdAt + task.queuedMs + task.runningMs;
	}
}

export function isTerminal(status: TaskStatus): boolean {
	return status === 'succeeded' || status === 'failed';
}

/** Upstreams retry final-state callbacks; the duplicate follows this long after the first. */
export const DUPLICATE_CALLBACK_GAP_MS = 25;

/**
 * Task family S polling rule (spec, GET /v1/task/get/{id} and Limits): the first query only
 * when no callback arrived 10 minutes after creation, then at most once per minute per task.
 */
export const TASK_S_FIRST_QUERY_AFTER_MS = 10 * 60 * 1000;
export const TASK_S_QUERY_INTERVAL_MS = 60 * 1000;

export interface PollingVerdict {
	rule: 'task-s-query-too-early' | 'task-s-query-too-often';
	/** When the query would have been allowed. */
	allowedAt: number;
}

/** Undefined when a Task family S query at `at` keeps to the rule. */
export function taskSPollingVerdict(task: SimTask, at: number): PollingVerdict | undefined {
	const verdicts: PollingVerdict[] = [];
	const firstAllowedAt = task.createdAt + TASK_S_FIRST_QUERY_AFTER_MS;
	if (at < firstAllowedAt)
		verdicts.push({ rule: 'task-s-query-too-early', allowedAt: firstAllowedAt });
	if (task.lastQueryAt !== undefined) {
		const nextAllowedAt = task.lastQueryAt + TASK_S_QUERY_INTERVAL_MS;
		if (at < nextAllowedAt)
			verdicts.push({ rule: 'task-s-query-too-often', allowedAt: nextAllowedAt });
	}
	// Both broken: the later time is the one the client must wait for.
	return verdicts.sort((a, b) => b.allowedAt - a.allowedAt)[0];
}

/** All video tasks of all families, plus the log of polls against them. */
export class TaskTable {
	private readonly byAlias = new Map<string, SimTask>();
	private readonly polls = new Map<string, number[]>();

	constructor(private readonly timers: Timers) {}

	/**
	 * Registers the task; `onStatus` (for callbacks) is then called at creation, at every
	 * status change, twice for the final state (upstreams retry), and once more with a stale
	 * `running` after that (upstream notes: out-of-order delivery must be expected). A task
	 * created in the past (taskAgeMs) sends what it would have sent by now at once, in order.
	 */
	add(task: SimTask, onStatus?: (status: TaskStatus) => void): void {
		for (const alias of task.aliases) this.byAlias.set(alias, task);
		if (onStatus === undefined) return;
		const age = Date.now() - task.createdAt;
		const at = (offsetMs: number, status: TaskStatus): void =>
			this.timers.schedule(offsetMs - age, () => onStatus(status));
		if (task.reportsUnknownStatus) {
			at(0, 'unknown');
			return;
		}
		const terminalAt = task.queuedMs + task.runningMs;
		at(0, 'queued');
		at(task.queuedMs, 'running');
		at(terminalAt, task.outcome);
		at(terminalAt + DUPLICATE_CALLBACK_GAP_MS, task.outcome);
		at(terminalAt + 2 * DUPLICATE_CALLBACK_GAP_MS, 'running');
	}

	/** Moves a task's creation and previous queries `ms` into the past. */
	backdate(id: string, ms: number): void {
		const task = this.byAlias.get(id);
		if (task === undefined) throw new Error(`unknown task: ${id}`);
		if (!Number.isFinite(ms) || ms < 0)
			throw new Error(`backdate needs a non-negative number of ms, got ${ms}`);
		task.createdAt -= ms;
		if (task.lastQueryAt !== undefined) task.lastQueryAt -= ms;
	}

	find(id: string): SimTask | undefined {
		return this.byAlias.get(id);
	}

	/** Logs a GET on a task id, known or not. */
	recordPoll(id: string, at: number): void {
		const log = this.polls.get(id) ?? [];
		log.push(at);
		this.polls.set(id, log);
	}

	/** Polls under any of the task's ids, oldest first. */
	pollsOf(id: string): number[] {
		const ids = this.byAlias.get(id)?.aliases ?? [id];
		return ids.flatMap((alias) => this.polls.get(alias) ?? []).sort((a, b) => a - b);
	}

	clear(): void {
		this.byAlias.clear();
		this.polls.clear();
	}
}

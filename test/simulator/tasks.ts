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

/** All video tasks of all families, plus the log of polls against them. */
export class TaskTable {
	private readonly byAlias = new Map<string, SimTask>();
	private readonly polls = new Map<string, number[]>();

	constructor(private readonly timers: Timers) {}

	/**
	 * Registers the task; `onStatus` (for callbacks) is then called at creation, at every
	 * status change, and twice for the final state, as upstreams do.
	 */
	add(task: SimTask, onStatus?: (status: TaskStatus) => void): void {
		for (const alias of task.aliases) this.byAlias.set(alias, task);
		if (onStatus === undefined) return;
		if (task.reportsUnknownStatus) {
			this.timers.schedule(0, () => onStatus('unknown'));
			return;
		}
		const terminalAt = task.queuedMs + task.runningMs;
		this.timers.schedule(0, () => onStatus('queued'));
		this.timers.schedule(task.queuedMs, () => onStatus('running'));
		this.timers.schedule(terminalAt, () => onStatus(task.outcome));
		this.timers.schedule(terminalAt + DUPLICATE_CALLBACK_GAP_MS, () => onStatus(task.outcome));
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

import { sleep } from 'n8n-workflow';

/**
 * The one polling scheduler: many tasks, each with its own next-due time, checked with bounded
 * concurrency. One sleep at a time for the whole batch (never a timer per task), a whole-batch
 * pause when the gateway rate-limits, per-task deadlines, and a prompt stop when the execution
 * is cancelled. It knows nothing about families or HTTP: the caller decides what a check is and
 * when a task is next due.
 */

/** What one check of a task says about it. */
export type CheckOutcome =
	/** The task left the schedule (finished, failed, or reported otherwise by the caller). */
	| { type: 'settled' }
	/** Still running: check again at `nextDueAt` (epoch ms). */
	| { type: 'pending'; nextDueAt: number }
	/** The gateway asked the whole account to slow down: pause every check until `resumeAt`. */
	| { type: 'rateLimited'; resumeAt: number; nextDueAt: number };

export interface ScheduledTask {
	/** Epoch ms when the task should next be checked. */
	dueAt: number;
	/** Epoch ms after which the task is given up on (timed out) instead of checked again. */
	deadlineAt: number;
	/**
	 * Checks made so far. A task that was never checked is checked once (when the rules allow)
	 * before it can time out: no task leaves as Timed Out on a guess. Absent: counts as checked.
	 */
	polls?: number;
}

/** When a task may be timed out: after its deadline, and only once it has been checked. */
function timesOutAt(task: ScheduledTask): number {
	return task.polls === 0 ? Number.POSITIVE_INFINITY : task.deadlineAt;
}

/** Time as the scheduler sees it; the real one uses Date.now and n8n-workflow's sleep. */
export interface SchedulerClock {
	now(): number;
	/** Resolves after `ms`, or rejects promptly once `signal` aborts. */
	sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** How often a real sleep looks at its signal: a cancel or a wake-up is seen this fast. */
const SLEEP_SLICE_MS = 200;

/**
 * n8n-workflow's `sleep` (the one both n8n lines export; 1.x's `sleepWithAbort` is gone in 2.x),
 * in slices so that an aborted signal ends the wait promptly.
 */
export const realClock: SchedulerClock = {
	now: () => Date.now(),
	sleep: async (ms, signal) => {
		const end = Date.now() + ms;
		for (let remaining = ms; remaining > 0 && !signal.aborted; remaining = end - Date.now()) {
			await sleep(Math.min(remaining, SLEEP_SLICE_MS));
		}
	},
};

export interface ScheduleProgress {
	pending: number;
	inFlight: number;
	/** Epoch ms of the next check, when one is waiting. */
	nextDueAt?: number;
	/** Epoch ms until which every check is paused by a rate limit. */
	pausedUntil?: number;
}

export interface ScheduleOptions<T extends ScheduledTask> {
	/** Checks run at most this many at a time. */
	concurrency: number;
	clock?: SchedulerClock;
	/** The execution's cancel signal: aborting it ends the run with the signal's reason. */
	signal?: AbortSignal;
	check(task: T): Promise<CheckOutcome>;
	/** Called for a task whose deadline came before it settled; it is then dropped. */
	onTimeout(task: T): void;
	/** Called whenever the schedule changes shape (a check started or ended, a pause began). */
	onProgress?(progress: ScheduleProgress): void;
}

class CancelledError extends Error {}

/** Runs until every task settled or timed out. */
export async function runUntilSettled<T extends ScheduledTask>(
	tasks: T[],
	options: ScheduleOptions<T>,
): Promise<void> {
	const clock = options.clock ?? realClock;
	const concurrency = Math.max(1, Math.floor(options.concurrency));
	const waiting = [...tasks];
	const inFlight = new Set<Promise<void>>();
	let pausedUntil = 0;
	let failure: { error: unknown } | undefined;

	const throwIfCancelled = () => {
		if (options.signal?.aborted) throw new CancelledError('The execution was cancelled');
	};
	const report = () =>
		options.onProgress?.({
			pending: waiting.length,
			inFlight: inFlight.size,
			...(waiting.length > 0 ? { nextDueAt: earliest(waiting).dueAt } : {}),
			...(pausedUntil > clock.now() ? { pausedUntil } : {}),
		});

	const launch = (task: T) => {
		const run = (async () => {
			try {
				const outcome = await options.check(task);
				if (outcome.type === 'settled') return;
				if (outcome.type === 'rateLimited') pausedUntil = Math.max(pausedUntil, outcome.resumeAt);
				task.dueAt = outcome.nextDueAt;
				waiting.push(task);
			} catch (error) {
				failure ??= { error };
			}
		})();
		inFlight.add(run);
		void run.finally(() => inFlight.delete(run));
	};

	try {
		while (waiting.length > 0 || inFlight.size > 0) {
			throwIfCancelled();
			if (failure) throw failure.error;
			const now = clock.now();

			// Tasks whose deadline came first leave without another check.
			for (let index = waiting.length - 1; index >= 0; index--) {
				if (timesOutAt(waiting[index]) <= now) options.onTimeout(waiting.splice(index, 1)[0]);
			}

			if (pausedUntil <= now) {
				const due = waiting.filter((task) => task.dueAt <= now).sort(byDueAt);
				for (const task of due) {
					if (inFlight.size >= concurrency) break;
					waiting.splice(waiting.indexOf(task), 1);
					launch(task);
				}
			}
			report();
			if (waiting.length === 0 && inFlight.size === 0) break;

			// Wake for whichever comes first: a check ending, or the next task (or deadline) due.
			const wakeAt = nextWake(waiting, pausedUntil, now, inFlight.size < concurrency);
			const wakers: Array<Promise<unknown>> = [...inFlight];
			const timer = new AbortController();
			const onCancel = () => timer.abort();
			options.signal?.addEventListener('abort', onCancel, { once: true });
			if (wakeAt !== undefined) {
				wakers.push(
					clock.sleep(Math.max(0, wakeAt - now), timer.signal).catch((error: unknown) => {
						// An interrupted wake-up is expected; any other sleep failure ends the run
						// (swallowing it would turn the wait into a busy loop).
						if (!timer.signal.aborted) failure ??= { error };
					}),
				);
			}
			try {
				await Promise.race(wakers);
			} finally {
				timer.abort();
				options.signal?.removeEventListener('abort', onCancel);
			}
		}
		if (failure) throw failure.error;
	} finally {
		// On failure or cancel, let checks already sent finish quietly; their results no longer matter.
		await Promise.allSettled([...inFlight]);
	}
}

/** Tasks due at `now`, the rest untouched: one pass of "check once and route". */
export async function runDueOnce<T extends ScheduledTask>(
	tasks: T[],
	options: ScheduleOptions<T>,
): Promise<void> {
	const clock = options.clock ?? realClock;
	const now = clock.now();
	const due: T[] = [];
	for (const task of tasks) {
		if (timesOutAt(task) <= now) options.onTimeout(task);
		else if (task.dueAt <= now) due.push(task);
	}
	const concurrency = Math.max(1, Math.floor(options.concurrency));
	let next = 0;
	const worker = async () => {
		while (next < due.length) {
			if (options.signal?.aborted) throw new CancelledError('The execution was cancelled');
			const task = due[next++];
			const outcome = await options.check(task);
			if (outcome.type !== 'settled') task.dueAt = outcome.nextDueAt;
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, due.length) }, worker));
}

/**
 * The next moment a schedule of `tasks` has something to do: a task due, or one to time out.
 * Undefined when there is none (no tasks).
 */
export function nextActionAt(tasks: ScheduledTask[]): number | undefined {
	let next: number | undefined;
	for (const task of tasks) {
		const at = Math.min(task.dueAt, timesOutAt(task));
		if (next === undefined || at < next) next = at;
	}
	return next;
}

function byDueAt(a: ScheduledTask, b: ScheduledTask): number {
	return a.dueAt - b.dueAt;
}

function earliest<T extends ScheduledTask>(tasks: T[]): T {
	return tasks.reduce((first, task) => (task.dueAt < first.dueAt ? task : first));
}

function nextWake(
	waiting: ScheduledTask[],
	pausedUntil: number,
	now: number,
	slotFree: boolean,
): number | undefined {
	let wake: number | undefined;
	for (const task of waiting) {
		// A deadline always wakes the loop (to time the task out); a due time only when a slot is free.
		const candidate = slotFree
			? Math.min(Math.max(task.dueAt, pausedUntil), timesOutAt(task))
			: timesOutAt(task);
		if (wake === undefined || candidate < wake) wake = candidate;
	}
	return wake === undefined || wake === Number.POSITIVE_INFINITY ? undefined : Math.max(wake, now);
}

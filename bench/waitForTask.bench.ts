/**
 * Benchmark (not a test): `npm run bench:wait`.
 *
 * 500 tasks with random durations, followed by Wait for Task's scheduler and poll timing (the
 * code the node runs) in virtual time, against a model gateway that finishes each task at its
 * time and judges the Task family S rule as the gateway does. Prints queries per task against a
 * fixed-interval poller that never misses a due check (the "minimum" for the same delay bound),
 * the delay between a task finishing and its item being emitted, heap growth, and S-rule
 * violations (must be 0).
 */
import {
	runUntilSettled,
	type CheckOutcome,
	type ScheduledTask,
	type SchedulerClock,
} from '../nodes/shared/polling/scheduler';
import {
	baseIntervalMs,
	firstDueAt,
	intervalAfter,
	nextDueAt,
	type PollRule,
} from '../nodes/shared/polling/timing';
import { TASK_FAMILIES } from '../nodes/shared/tasks';

const TASKS = Number(process.env.BENCH_TASKS ?? 500);
const INTERVAL_SECONDS = Number(process.env.BENCH_INTERVAL_SECONDS ?? 10);
const S_SHARE = 0.2;

/** A deterministic generator, so two runs print the same figures. */
function random(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
		return state / 2 ** 31;
	};
}

class VirtualClock implements SchedulerClock {
	time = Date.parse('2026-11-24T00:00:00Z');
	sleeps = 0;
	now(): number {
		return this.time;
	}
	async sleep(ms: number, signal: AbortSignal): Promise<void> {
		this.sleeps++;
		await new Promise<void>((resolve, reject) => {
			const handle = setImmediate(() => {
				this.time += ms;
				resolve();
			});
			signal.addEventListener(
				'abort',
				() => {
					clearImmediate(handle);
					reject(new Error('aborted'));
				},
				{ once: true },
			);
		});
	}
}

interface BenchTask extends ScheduledTask {
	isS: boolean;
	rule: PollRule;
	createdAt: number;
	finishesAt: number;
	checks: number[];
	emittedAt?: number;
}

function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main(): Promise<void> {
	const clock = new VirtualClock();
	const next = random(42);
	const intervalMs = baseIntervalMs(INTERVAL_SECONDS);
	const start = clock.now();
	const sRule = TASK_FAMILIES.taskS.pollPolicy;
	const otherRule = TASK_FAMILIES.generic.pollPolicy;
	const tasks: BenchTask[] = Array.from({ length: TASKS }, () => {
		const isS = next() < S_SHARE;
		const rule = isS ? sRule : otherRule;
		// Created over the first minute (a batch from a sheet), running 30 s to 30 min.
		const createdAt = start + Math.floor(next() * 60_000);
		const finishesAt = createdAt + 30_000 + Math.floor(next() * 30 * 60_000);
		return {
			isS,
			rule,
			createdAt,
			finishesAt,
			checks: [],
			dueAt: firstDueAt(rule, createdAt, start),
			deadlineAt: createdAt + rule.firstPollAfterMs + 3 * 3_600_000,
		};
	});

	const heapBefore = process.memoryUsage().heapUsed;
	let heapPeak = heapBefore;
	await runUntilSettled(tasks, {
		concurrency: 4,
		clock,
		check: async (task): Promise<CheckOutcome> => {
			const now = clock.now();
			task.checks.push(now);
			heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
			if (now >= task.finishesAt) {
				task.emittedAt = now;
				return { type: 'settled' };
			}
			return { type: 'pending', nextDueAt: nextDueAt(task.rule, intervalMs, task.createdAt, now) };
		},
		onTimeout: () => {
			throw new Error('no task may time out in this benchmark');
		},
	});

	let violations = 0;
	for (const task of tasks.filter((t) => t.isS)) {
		task.checks.forEach((at, index) => {
			if (at < task.createdAt + 600_000) violations++;
			if (index > 0 && at - task.checks[index - 1] < 60_000) violations++;
		});
	}
	// The minimum for the same delay bound: a poller that checks exactly every effective interval
	// from the first allowed moment, never late.
	let ideal = 0;
	for (const task of tasks) {
		let at = firstDueAt(task.rule, task.createdAt, task.createdAt);
		let count = 1;
		while (at < task.finishesAt) {
			at += intervalAfter(task.rule, intervalMs, task.createdAt, at);
			count++;
		}
		ideal += count;
	}
	const queries = tasks.reduce((sum, task) => sum + task.checks.length, 0);
	// Delay counts from when the task could first be seen finished: its end, or its first allowed
	// check (a Task family S task that ends in minute 3 cannot be seen before minute 10).
	const visibleAt = (task: BenchTask) =>
		Math.max(task.finishesAt, firstDueAt(task.rule, task.createdAt, task.createdAt));
	const delays = tasks.map((task) => ((task.emittedAt ?? 0) - visibleAt(task)) / 1000);
	const overBound = tasks.filter((task) => {
		const effective = intervalAfter(task.rule, intervalMs, task.createdAt, visibleAt(task));
		return (task.emittedAt ?? 0) - visibleAt(task) > effective + 1_000;
	}).length;

	const line = (label: string, value: string) => console.log(`${label.padEnd(52)} ${value}`);
	console.log(
		`Wait for Task scheduler: ${TASKS} tasks (${Math.round(S_SHARE * 100)}% Task family S), interval ${INTERVAL_SECONDS} s, 4 checks in flight, virtual time`,
	);
	line('virtual duration of the wait', `${((clock.now() - start) / 60_000).toFixed(1)} min`);
	line('queries', `${queries} (${(queries / TASKS).toFixed(2)} per task)`);
	line('queries vs an ideal never-late poller', `${(queries / ideal).toFixed(3)}× (goal ≤ 1.1×)`);
	line(
		'emit delay after it could be seen, p50 / p95 / max',
		`${percentile(delays, 50).toFixed(1)} / ${percentile(delays, 95).toFixed(1)} / ${Math.max(...delays).toFixed(1)} s`,
	);
	line('tasks emitted later than their interval + 1 s', `${overBound} (goal 0)`);
	line('sleeps (one timer at a time for the whole batch)', `${clock.sleeps}`);
	line('heap growth during the wait', `${((heapPeak - heapBefore) / 1_048_576).toFixed(1)} MiB`);
	line('Task family S rule violations', `${violations} (must be 0)`);
	if (violations > 0) process.exitCode = 1;
}

void main();

import {
	nextActionAt,
	runDueOnce,
	runUntilSettled,
	type CheckOutcome,
	type ScheduledTask,
	type SchedulerClock,
} from '../../nodes/shared/polling/scheduler';

/**
 * A virtual clock: a sleep advances time only when it fires, and fires after every check that
 * is already resolving (setImmediate), so "which came first" is decided as with real time.
 */
class VirtualClock implements SchedulerClock {
	time = 1_000_000;
	sleeps = 0;
	pendingSleeps = 0;
	maxPendingSleeps = 0;
	/** When set, sleeps never fire on their own (only an abort ends them). */
	frozen = false;

	now(): number {
		return this.time;
	}

	async sleep(ms: number, signal: AbortSignal): Promise<void> {
		this.sleeps++;
		// Counted while armed: disarmed synchronously when it fires or is aborted.
		this.pendingSleeps++;
		this.maxPendingSleeps = Math.max(this.maxPendingSleeps, this.pendingSleeps);
		await new Promise<void>((resolve, reject) => {
			let armed = true;
			const disarm = () => {
				if (armed) this.pendingSleeps--;
				armed = false;
			};
			const fire = () => {
				disarm();
				this.time += ms;
				resolve();
			};
			const handle = this.frozen ? undefined : setImmediate(fire);
			signal.addEventListener(
				'abort',
				() => {
					if (handle) clearImmediate(handle);
					disarm();
					reject(new Error('aborted'));
				},
				{ once: true },
			);
		});
	}
}

interface TestTask extends ScheduledTask {
	name: string;
	/** Virtual time at which the task is finished. */
	finishesAt: number;
	checkedAt: number[];
}

function task(name: string, dueAt: number, finishesAt: number, deadlineAt = Infinity): TestTask {
	return { name, dueAt, finishesAt, deadlineAt, checkedAt: [] };
}

describe('runUntilSettled', () => {
	it('checks each task only when due, until it is finished', async () => {
		const clock = new VirtualClock();
		const start = clock.time;
		const tasks = [
			task('a', start, start + 25_000),
			task('b', start + 5_000, start + 5_000),
			task('c', start + 600_000, start + 700_000),
		];
		const settled: string[] = [];
		await runUntilSettled(tasks, {
			concurrency: 2,
			clock,
			check: async (t) => {
				t.checkedAt.push(clock.now());
				if (clock.now() >= t.finishesAt) {
					settled.push(t.name);
					return { type: 'settled' };
				}
				return { type: 'pending', nextDueAt: clock.now() + (t.name === 'c' ? 60_000 : 10_000) };
			},
			onTimeout: () => {
				throw new Error('no task should time out');
			},
		});
		expect(settled).toEqual(['b', 'a', 'c']);
		expect(tasks[0].checkedAt.map((at) => at - start)).toEqual([0, 10_000, 20_000, 30_000]);
		expect(tasks[1].checkedAt.map((at) => at - start)).toEqual([5_000]);
		expect(tasks[2].checkedAt.map((at) => at - start)).toEqual([600_000, 660_000, 720_000]);
	});

	it('keeps at most `concurrency` checks in flight and one sleep for hundreds of tasks', async () => {
		const clock = new VirtualClock();
		const tasks = Array.from({ length: 300 }, (_, index) =>
			task(`t${index}`, clock.time + (index % 7) * 1_000, clock.time + (index % 11) * 10_000),
		);
		let inFlight = 0;
		let maxInFlight = 0;
		let checks = 0;
		await runUntilSettled(tasks, {
			concurrency: 4,
			clock,
			check: async (t): Promise<CheckOutcome> => {
				checks++;
				inFlight++;
				maxInFlight = Math.max(maxInFlight, inFlight);
				await new Promise((resolve) => setImmediate(resolve));
				inFlight--;
				t.checkedAt.push(clock.now());
				return clock.now() >= t.finishesAt
					? { type: 'settled' }
					: { type: 'pending', nextDueAt: clock.now() + 10_000 };
			},
			onTimeout: () => undefined,
		});
		expect(maxInFlight).toBe(4);
		expect(clock.maxPendingSleeps).toBe(1);
		expect(clock.pendingSleeps).toBe(0);
		for (const t of tasks) {
			expect(
				t.checkedAt.every((at, index) => index === 0 || at - t.checkedAt[index - 1] >= 10_000),
			).toBe(true);
			expect(t.checkedAt[t.checkedAt.length - 1]).toBeGreaterThanOrEqual(t.finishesAt);
		}
		expect(checks).toBe(tasks.reduce((sum, t) => sum + t.checkedAt.length, 0));
	});

	it('pauses every check until a rate limit ends', async () => {
		const clock = new VirtualClock();
		const start = clock.time;
		const tasks = [task('a', start, start + 40_000), task('b', start + 1_000, start + 40_000)];
		let limited = false;
		const allChecks: Array<{ name: string; at: number }> = [];
		await runUntilSettled(tasks, {
			concurrency: 2,
			clock,
			check: async (t): Promise<CheckOutcome> => {
				allChecks.push({ name: t.name, at: clock.now() - start });
				if (!limited) {
					limited = true;
					return { type: 'rateLimited', resumeAt: clock.now() + 30_000, nextDueAt: clock.now() };
				}
				return clock.now() >= t.finishesAt
					? { type: 'settled' }
					: { type: 'pending', nextDueAt: clock.now() + 10_000 };
			},
			onTimeout: () => undefined,
		});
		expect(allChecks).toEqual([
			{ name: 'a', at: 0 },
			{ name: 'a', at: 30_000 },
			{ name: 'b', at: 30_000 },
			{ name: 'a', at: 40_000 },
			{ name: 'b', at: 40_000 },
		]);
	});

	it('times a task out at its deadline without checking it again', async () => {
		const clock = new VirtualClock();
		const start = clock.time;
		const never = task('never', start, Infinity, start + 25_000);
		const timedOut: Array<{ name: string; at: number }> = [];
		await runUntilSettled([never], {
			concurrency: 1,
			clock,
			check: async (t) => {
				t.checkedAt.push(clock.now() - start);
				return { type: 'pending', nextDueAt: clock.now() + 10_000 };
			},
			onTimeout: (t) => timedOut.push({ name: t.name, at: clock.now() - start }),
		});
		expect(never.checkedAt).toEqual([0, 10_000, 20_000]);
		expect(timedOut).toEqual([{ name: 'never', at: 25_000 }]);
	});

	it('stops waiting as soon as the execution is cancelled', async () => {
		const clock = new VirtualClock();
		clock.frozen = true;
		const controller = new AbortController();
		const run = runUntilSettled([task('a', clock.time + 3_600_000, Infinity)], {
			concurrency: 1,
			clock,
			signal: controller.signal,
			check: async () => ({ type: 'settled' }),
			onTimeout: () => undefined,
		});
		await new Promise((resolve) => setImmediate(resolve));
		expect(clock.pendingSleeps).toBe(1);
		controller.abort();
		await expect(run).rejects.toThrow('The execution was cancelled');
		expect(clock.pendingSleeps).toBe(0);
	});

	it('ends with the first error a check throws, after the other checks finished', async () => {
		const clock = new VirtualClock();
		const finished: string[] = [];
		const run = runUntilSettled([task('a', clock.time, 0), task('b', clock.time, 0)], {
			concurrency: 2,
			clock,
			check: async (t) => {
				if (t.name === 'a') throw new Error('broken reference');
				await new Promise((resolve) => setImmediate(resolve));
				finished.push(t.name);
				return { type: 'settled' };
			},
			onTimeout: () => undefined,
		});
		await expect(run).rejects.toThrow('broken reference');
		expect(finished).toEqual(['b']);
	});
});

describe('runUntilSettled with a broken clock', () => {
	it('ends with the sleep failure instead of spinning', async () => {
		const clock: SchedulerClock = {
			now: () => 0,
			sleep: async () => {
				throw new Error('no timer here');
			},
		};
		let checks = 0;
		const run = runUntilSettled([task('later', 60_000, Infinity)], {
			concurrency: 1,
			clock,
			check: async () => {
				checks++;
				return { type: 'settled' };
			},
			onTimeout: () => undefined,
		});
		await expect(run).rejects.toThrow('no timer here');
		expect(checks).toBe(0);
	});
});

describe('runDueOnce', () => {
	it('checks a never-checked task once, when it is due, before its past deadline times it out', async () => {
		const clock = new VirtualClock();
		const start = clock.time;
		const late = { ...task('late', start + 30_000, Infinity, start - 1), polls: 0 };
		const timedOut: Array<{ name: string; at: number }> = [];
		await runUntilSettled([late], {
			concurrency: 1,
			clock,
			check: async (t) => {
				t.checkedAt.push(clock.now() - start);
				t.polls = (t.polls ?? 0) + 1;
				return { type: 'pending', nextDueAt: clock.now() + 10_000 };
			},
			onTimeout: (t) => timedOut.push({ name: t.name, at: clock.now() - start }),
		});
		expect(late.checkedAt).toEqual([30_000]);
		expect(timedOut).toEqual([{ name: 'late', at: 30_000 }]);
	});

	it('in one pass, checks an overdue never-checked task that is due and keeps one that is not', async () => {
		const clock = new VirtualClock();
		const now = clock.time;
		const tasks = [
			{ ...task('due', now - 1, now, now - 1), polls: 0 },
			{ ...task('notYet', now + 60_000, now, now - 1), polls: 0 },
		];
		const checked: string[] = [];
		const timedOut: string[] = [];
		await runDueOnce(tasks, {
			concurrency: 2,
			clock,
			check: async (t) => {
				checked.push(t.name);
				return { type: 'pending', nextDueAt: now + 10_000 };
			},
			onTimeout: (t) => timedOut.push(t.name),
		});
		expect(checked).toEqual(['due']);
		expect(timedOut).toEqual([]);
	});

	it('checks only the tasks due now and times out the overdue ones', async () => {
		const clock = new VirtualClock();
		const now = clock.time;
		const tasks = [
			task('due', now - 1, now),
			task('later', now + 60_000, now),
			task('overdue', now - 1, now, now - 1),
		];
		const checked: string[] = [];
		const timedOut: string[] = [];
		await runDueOnce(tasks, {
			concurrency: 2,
			clock,
			check: async (t) => {
				checked.push(t.name);
				return { type: 'pending', nextDueAt: now + 10_000 };
			},
			onTimeout: (t) => timedOut.push(t.name),
		});
		expect(checked).toEqual(['due']);
		expect(timedOut).toEqual(['overdue']);
		expect(tasks.map((t) => t.dueAt - now)).toEqual([10_000, 60_000, -1]);
		expect(clock.sleeps).toBe(0);
	});
});

describe('nextActionAt', () => {
	it('is the earliest due time or deadline; a never-checked task cannot time out; none without tasks', () => {
		expect(nextActionAt([])).toBeUndefined();
		expect(
			nextActionAt([
				{ dueAt: 5_000, deadlineAt: 9_000, polls: 1 },
				{ dueAt: 7_000, deadlineAt: 3_000, polls: 1 },
			]),
		).toBe(3_000);
		// Never checked: checked once before it may time out, so its deadline does not count.
		expect(nextActionAt([{ dueAt: 7_000, deadlineAt: 3_000, polls: 0 }])).toBe(7_000);
	});
});

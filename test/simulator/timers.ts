interface PendingTimer {
	timer: NodeJS.Timeout;
	/** Settles a sleeper early when the timers are cancelled. */
	wake?: () => void;
}

/**
 * Every setTimeout the simulator starts goes through here, so close() and reset() can
 * cancel all of them: no task lifecycle or slow response outlives the simulator.
 */
export class Timers {
	private readonly pending = new Set<PendingTimer>();
	private stopped = false;

	schedule(delayMs: number, action: () => void): void {
		if (this.stopped) return;
		const entry: PendingTimer = {
			timer: setTimeout(
				() => {
					this.pending.delete(entry);
					try {
						action();
					} catch (error) {
						// A scheduled action must never take the simulator down.
						console.error('[simulator] scheduled action failed:', error);
					}
				},
				Math.max(0, delayMs),
			),
		};
		this.pending.add(entry);
	}

	/** Resolves after delayMs, or at once when cancelAll() runs (so close() never waits on it). */
	sleep(delayMs: number): Promise<void> {
		if (delayMs <= 0 || this.stopped) return Promise.resolve();
		return new Promise((resolve) => {
			const entry: PendingTimer = {
				timer: setTimeout(() => {
					this.pending.delete(entry);
					resolve();
				}, delayMs),
				wake: resolve,
			};
			this.pending.add(entry);
		});
	}

	cancelAll(): void {
		for (const entry of this.pending) {
			clearTimeout(entry.timer);
			entry.wake?.();
		}
		this.pending.clear();
	}

	/** cancelAll(), and from now on schedule() does nothing and sleep() returns at once (on close). */
	stop(): void {
		this.stopped = true;
		this.cancelAll();
	}
}

/**
 * CPU time of a running n8n (the harness's n8n and its task runners), read from /proc, and the
 * small statistics the benchmarks print. Linux only, as the benchmarks are.
 */
import { readFileSync, readdirSync } from 'fs';

import type { N8nInstance } from '../test/e2e/harness';

/** Linux's USER_HZ: /proc reports CPU time in these ticks. */
export const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (clock ticks) of every process of this n8n: n8n and its task runners. */
export function cpuTicks(n8n: N8nInstance): number {
	return cpuTicksOf([n8n.userFolder]);
}

/** CPU time (clock ticks) of every n8n process using one of these user folders (a cluster). */
export function cpuTicksOf(userFolders: string[]): number {
	const marks = userFolders.map((folder) => `N8N_USER_FOLDER=${folder}\0`);
	let ticks = 0;
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const environ = readFileSync(`/proc/${entry}/environ`, 'latin1');
			if (!marks.some((mark) => environ.includes(mark))) continue;
			const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			ticks += Number(fields[11]) + Number(fields[12]);
		} catch {
			// The process ended while being read.
		}
	}
	return ticks;
}

/** Clock ticks as milliseconds. */
export function ticksToMs(ticks: number): number {
	return ticks * (1000 / CLOCK_TICKS_PER_SECOND);
}

/** Waits until n8n's processes use under 5% of a core for a second (at most 3 minutes). */
export async function settle(n8n: N8nInstance): Promise<number> {
	return await settleOn(() => cpuTicks(n8n));
}

/** `settle` for any set of processes, read by `ticks`. */
export async function settleOn(ticks: () => number): Promise<number> {
	const started = Date.now();
	let before = ticks();
	while (Date.now() - started < 180_000) {
		await new Promise((resolve) => setTimeout(resolve, 1000));
		const now = ticks();
		if (now - before < 5) break;
		before = now;
	}
	return (Date.now() - started) / 1000;
}

export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The value at `fraction` (0.95 for p95) of ascending `sorted`. */
export function percentile(sorted: number[], fraction: number): number {
	return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
}

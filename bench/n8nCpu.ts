/**
 * CPU time of a running n8n (the harness's n8n and its task runners), read from /proc, and the
 * small statistics the benchmarks print. Linux only, as the benchmarks are.
 */
import { readFileSync, readdirSync } from 'fs';

import type { N8nInstance } from '../test/e2e/harness';

/** Linux's USER_HZ: /proc reports CPU time in these ticks. */
export const CLOCK_TICKS_PER_SECOND = 100;

/**
 * A process's CPU time (clock ticks) from the fields of /proc/<pid>/stat after the name: its own
 * (utime, stime) and that of its children that ended and were waited for (cutime, cstime). A
 * Postgres backend or an n8n task runner that exits would otherwise take its CPU with it, and a
 * sum read later would fall.
 */
function processTicks(fields: string[]): number {
	return Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
}

/** The fields of /proc/<pid>/stat after the process's name (which may hold spaces). */
function statFields(pid: string | number): string[] {
	const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
	return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

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
			const fields = statFields(entry);
			ticks += processTicks(fields);
		} catch {
			// The process ended while being read.
		}
	}
	return ticks;
}

/** CPU ticks of the Postgres server on `port` and its backends (from /proc). */
export function postgresTicks(port: number): number {
	const stats = new Map<number, { ppid: number; ticks: number }>();
	let postmaster: number | undefined;
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const fields = statFields(entry);
			stats.set(Number(entry), {
				ppid: Number(fields[1]),
				ticks: processTicks(fields),
			});
			const args = readFileSync(`/proc/${entry}/cmdline`, 'latin1').split('\0');
			if (/postgres$/.test(args[0]) && args.includes('-p') && args.includes(String(port)))
				postmaster = Number(entry);
		} catch {
			// The process ended while being read.
		}
	}
	if (postmaster === undefined) return 0;
	let ticks = 0;
	for (const [pid, stat] of stats)
		if (pid === postmaster || stat.ppid === postmaster) ticks += stat.ticks;
	return ticks;
}

/**
 * The n8n processes using this user folder (n8n and its task runners; not the test's supervisor,
 * which only waits for them).
 */
export function processesOf(userFolder: string): number[] {
	const mark = `N8N_USER_FOLDER=${userFolder}\0`;
	const pids: number[] = [];
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			if (!readFileSync(`/proc/${entry}/environ`, 'latin1').includes(mark)) continue;
			if (readFileSync(`/proc/${entry}/cmdline`, 'latin1').includes('n8n-supervisor')) continue;
			pids.push(Number(entry));
		} catch {
			// The process ended while being read.
		}
	}
	return pids;
}

/** CPU ticks and resident memory (MB) of these processes now. */
export function ticksAndRssMb(pids: number[]): { ticks: number; rssMb: number } {
	let ticks = 0;
	let rssKb = 0;
	for (const pid of pids) {
		try {
			const fields = statFields(pid);
			ticks += processTicks(fields);
			const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
			rssKb += match ? Number(match[1]) : 0;
		} catch {
			// Ended while being read.
		}
	}
	return { ticks, rssMb: rssKb / 1024 };
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

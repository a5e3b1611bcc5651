/** Peak resident memory of n8n processes (their whole process trees), read from /proc. */
import { readFileSync, readdirSync } from 'fs';

import type { N8nServiceProcess } from '../test/e2e/queueMode';

export function processParents(): Map<number, number> {
	const parents = new Map<number, number>();
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			parents.set(Number(entry), Number(fields[1]));
		} catch {
			// The process ended while being read.
		}
	}
	return parents;
}

/** Resident memory (kB) of every process below `root` (not `root` itself: the supervisor). */
export function treeRssKb(root: number, parents: Map<number, number>): number {
	let total = 0;
	for (const pid of parents.keys()) {
		let ancestor = parents.get(pid);
		while (ancestor !== undefined && ancestor > 1 && ancestor !== root)
			ancestor = parents.get(ancestor);
		if (ancestor !== root) continue;
		try {
			const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'latin1'));
			total += match ? Number(match[1]) : 0;
		} catch {
			// Ended while being read.
		}
	}
	return total;
}

/** Each worker's tree's resident memory now (MB); 0 for a worker without a process. */
export function workerRssMb(workers: N8nServiceProcess[]): number[] {
	const parents = processParents();
	return workers.map((worker) =>
		worker.pid === undefined ? 0 : treeRssKb(worker.pid, parents) / 1024,
	);
}

/**
 * The least-squares slope of `y` over `x`, scaled to `per` units of x (e.g. MB per 1,000 rows
 * finished). Undefined with fewer than two distinct x values.
 */
export function slope(points: Array<{ x: number; y: number }>, per = 1): number | undefined {
	if (new Set(points.map((point) => point.x)).size < 2) return undefined;
	const meanX = points.reduce((sum, point) => sum + point.x, 0) / points.length;
	const meanY = points.reduce((sum, point) => sum + point.y, 0) / points.length;
	let covariance = 0;
	let variance = 0;
	for (const point of points) {
		covariance += (point.x - meanX) * (point.y - meanY);
		variance += (point.x - meanX) ** 2;
	}
	return (covariance / variance) * per;
}

/** Samples each worker's tree every second; returns the peaks (MB) when stopped. */
export function sampleWorkerRss(workers: N8nServiceProcess[]): () => number[] {
	const peaks = workers.map(() => 0);
	const timer = setInterval(() => {
		const parents = processParents();
		workers.forEach((worker, index) => {
			const pid = worker.pid;
			if (pid !== undefined) peaks[index] = Math.max(peaks[index], treeRssKb(pid, parents));
		});
	}, 1_000);
	return () => {
		clearInterval(timer);
		return peaks.map((kb) => kb / 1024);
	};
}

/**
 * The day the pipeline benchmark plays (bench/pipeline.bench.ts): when rows arrive, which of them
 * ask the gateway to fail, and how fast the pipeline's own Settings could at best take them.
 * Pure arithmetic, so the benchmark's ideal is the same for every variant it runs.
 */

/** Rows put into the table at once (a sheet pasted in), `minute` after the day's start. */
export interface Burst {
	minute: number;
	rows: number;
}

/** One insert of the day: `rows` rows, `atMs` after the start. */
export interface Arrival {
	atMs: number;
	rows: number;
}

/** Parses `BENCH_BURSTS`: `minute:rows` pairs, spaces or commas between (`"0:3000 20:2000"`). */
export function parseBursts(text: string): Burst[] {
	return text
		.split(/[\s,]+/)
		.filter((pair) => pair !== '')
		.map((pair) => {
			const match = /^(\d+(?:\.\d+)?):(\d+)$/.exec(pair);
			if (!match) throw new Error(`BENCH_BURSTS: "${pair}" is not minute:rows`);
			return { minute: Number(match[1]), rows: Number(match[2]) };
		})
		.sort((a, b) => a.minute - b.minute);
}

/**
 * The day's inserts, in time order: the bursts, and the rest of `totalRows` steadily,
 * `perMinute` a minute in `insertsPerMinute` inserts, from the start.
 */
export function dayArrivals(
	totalRows: number,
	bursts: Burst[],
	perMinute: number,
	insertsPerMinute = 6,
): Arrival[] {
	const arrivals: Arrival[] = [];
	let left = totalRows;
	for (const burst of bursts) {
		const rows = Math.min(burst.rows, left);
		if (rows > 0) arrivals.push({ atMs: burst.minute * 60_000, rows });
		left -= rows;
	}
	const perInsert = Math.max(1, Math.round(perMinute / insertsPerMinute));
	for (let insert = 1; left > 0; insert++) {
		const rows = Math.min(perInsert, left);
		arrivals.push({ atMs: (insert * 60_000) / insertsPerMinute, rows });
		left -= rows;
	}
	return arrivals.sort((a, b) => a.atMs - b.atMs);
}

/**
 * When the last row could at best be created, had every scheduled run taken as many rows as the
 * Settings let it (`createsPerRun`), from the first run at `firstRunMs`, every `intervalMs`.
 */
export function lastCreateAtBest(
	arrivals: Arrival[],
	createsPerRun: number,
	intervalMs: number,
	firstRunMs = intervalMs,
): number {
	let waiting = 0;
	let next = 0;
	let lastCreate = 0;
	const total = arrivals.reduce((sum, arrival) => sum + arrival.rows, 0);
	let created = 0;
	for (let run = firstRunMs; created < total; run += intervalMs) {
		while (next < arrivals.length && arrivals[next].atMs <= run) waiting += arrivals[next++].rows;
		const taken = Math.min(waiting, createsPerRun);
		waiting -= taken;
		created += taken;
		if (taken > 0) lastCreate = run;
	}
	return lastCreate;
}

/** Whether the row with this index (0-based, in arrival order) asks the gateway to fail. */
export function asksToFail(index: number, failEvery: number): boolean {
	return failEvery > 0 && index % failEvery === failEvery - 1;
}

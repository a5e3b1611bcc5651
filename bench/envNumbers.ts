/** A benchmark knob that lists numbers: `BENCH_ROWS="0 10000"` (spaces or commas) as [0, 10000]. */
export function envNumbers(name: string, fallback: string): number[] {
	return (process.env[name] ?? fallback)
		.split(/[\s,]+/)
		.filter((value) => value !== '')
		.map(Number);
}

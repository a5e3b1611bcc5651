import { createdAtProblem } from '../../nodes/shared/tasks/task';

/** A task's creation time: a gateway clock running ahead of ours is tolerated for an hour. */

const NOW = Date.parse('2026-12-01T12:00:00.000Z');
const MINUTE = 60_000;
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString();

describe('createdAtProblem', () => {
	it('accepts a time in the past, none, and one up to an hour ahead (a gateway clock running fast)', () => {
		for (const createdAt of [
			null,
			undefined,
			'',
			at(-3 * 60 * MINUTE),
			at(10 * MINUTE),
			at(60 * MINUTE),
		]) {
			expect(createdAtProblem(createdAt, NOW)).toBeUndefined();
		}
	});

	it('refuses a time more than an hour ahead, naming the field and the value', () => {
		expect(createdAtProblem(at(60 * MINUTE + 1), NOW)).toBe(
			'"Created At" is 2026-12-01T13:00:00.001Z, which lies in the future',
		);
		expect(createdAtProblem(at(2 * 60 * MINUTE), NOW)).toBe(
			'"Created At" is 2026-12-01T14:00:00.000Z, which lies in the future',
		);
	});

	it('refuses what is not a time', () => {
		expect(createdAtProblem('yesterday', NOW)).toBe(
			'"Created At" is "yesterday", which is not a time (use ISO, as Create outputs it)',
		);
	});
});

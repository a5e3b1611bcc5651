import {
	baseIntervalMs,
	firstDueAt,
	intervalAfter,
	nextDueAt,
	type PollRule,
} from '../../nodes/shared/polling/timing';

const S_RULE: PollRule = {
	firstPollAfterMs: 600_000,
	minIntervalMs: 60_000,
	enforcedByGateway: true,
};
const FREE: PollRule = { firstPollAfterMs: 0, minIntervalMs: 0 };
const NOW = Date.parse('2026-11-24T10:00:00.000Z');

describe('poll timing', () => {
	it('a free family is due at once; its interval has a 10 s floor (every family’s shortest gap)', () => {
		expect(firstDueAt(FREE, NOW - 5_000, NOW)).toBe(NOW);
		expect(baseIntervalMs(10)).toBe(10_000);
		expect(baseIntervalMs(1)).toBe(10_000);
		expect(baseIntervalMs(Number.NaN)).toBe(10_000);
	});

	it('Task family S is first due 10 minutes (and a margin) after creation, at once when past', () => {
		expect(firstDueAt(S_RULE, NOW - 60_000, NOW)).toBe(NOW + 541_000);
		expect(firstDueAt(S_RULE, NOW - 3_600_000, NOW)).toBe(NOW);
		// Unknown creation time: assume the task was created now, never too early.
		expect(firstDueAt(S_RULE, undefined, NOW)).toBe(NOW + 601_000);
	});

	it('two queries of an S task are never less than 60 s apart, whatever the user interval', () => {
		expect(intervalAfter(S_RULE, 5_000, NOW - 700_000, NOW)).toBe(61_000);
		expect(nextDueAt(S_RULE, 10_000, NOW - 700_000, NOW)).toBe(NOW + 61_000);
	});

	it('the interval grows by one base interval per 10 minutes of age, up to 60 s', () => {
		expect(intervalAfter(FREE, 10_000, NOW, NOW)).toBe(10_000);
		expect(intervalAfter(FREE, 10_000, NOW - 600_000, NOW)).toBe(20_000);
		expect(intervalAfter(FREE, 10_000, NOW - 1_500_000, NOW)).toBe(35_000);
		expect(intervalAfter(FREE, 10_000, NOW - 7_200_000, NOW)).toBe(60_000);
		// A user interval above the cap is kept as it is.
		expect(intervalAfter(FREE, 120_000, NOW - 7_200_000, NOW)).toBe(120_000);
	});
});

import { normalizeCost } from '../../nodes/shared/gateway/usage';
import type { NormalizedTask } from '../../nodes/shared/tasks';
import {
	batchReport,
	carriedTotals,
	countTask,
	emptyTotals,
	mergeTotals,
} from '../../nodes/ModelGatewayWaitForTask/report';

function task(overrides: Partial<NormalizedTask>): NormalizedTask {
	return {
		family: 'generic',
		taskId: 't',
		model: null,
		status: 'succeeded',
		rawStatus: null,
		done: true,
		progress: null,
		videoUrl: null,
		videoUrls: [],
		lastFrameUrl: null,
		error: null,
		createdAt: null,
		traceId: null,
		usage: null,
		cost: null,
		raw: null,
		...overrides,
	};
}

const START = Date.parse('2026-11-24T10:00:00Z');

/** A task family S cost as the task carries it, from the gateway's strings. */
function cost(total: string, currency = 'USD') {
	return normalizeCost(
		{ currency, input_cost: '0', output_cost: total, total_cost: total },
		{ currency: 'currency', input: 'input_cost', output: 'output_cost', total: 'total_cost' },
	);
}

/** The Batch Report of tasks with these total costs. */
function reportOf(...totals: string[]) {
	const counted = emptyTotals(START);
	for (const total of totals) countTask(counted, task({ cost: cost(total) }), 'succeeded', 1);
	return batchReport(counted, START);
}

describe('the batch report', () => {
	it('counts by status and family, lists failures with reasons, adds money per currency exactly', () => {
		const totals = emptyTotals(START);
		countTask(totals, task({ family: 'taskS', taskId: 's1', cost: cost('0.1') }), 'succeeded', 30);
		countTask(totals, task({ family: 'taskS', taskId: 's2', cost: cost('0.2') }), 'succeeded', 50);
		countTask(
			totals,
			task({ family: 'taskS', taskId: 's3', cost: cost('2', 'CNY') }),
			'succeeded',
			40,
		);
		countTask(
			totals,
			task({
				family: 'familyA',
				taskId: 'a1',
				status: 'failed',
				error: { code: 'x', message: 'content policy' },
			}),
			'failed',
			10,
		);
		countTask(totals, task({ taskId: 'g1', status: 'running' }), 'timedOut', 3600);
		totals.queries = 12;
		totals.passes = 3;

		const report = batchReport(totals, START + 3_600_000);
		expect(report).toEqual({
			tasks: 5,
			byStatus: { succeeded: 3, failed: 1, timedOut: 1 },
			byFamily: {
				taskS: { succeeded: 3, failed: 0, timedOut: 0 },
				familyA: { succeeded: 0, failed: 1, timedOut: 0 },
				generic: { succeeded: 0, failed: 0, timedOut: 1 },
			},
			failures: [
				{ taskId: 'a1', family: 'familyA', status: 'failed', reason: 'content policy' },
				{ taskId: 'g1', family: 'generic', status: 'timedOut', reason: 'Max Wait reached' },
			],
			failuresListed: 2,
			costByCurrency: { USD: 0.3, CNY: 2 },
			costExactByCurrency: { USD: '0.3', CNY: '2' },
			costPrecisionByCurrency: { USD: 1, CNY: 0 },
			durationSeconds: { median: 40, p95: 3600, longest: 3600 },
			queries: 12,
			passes: 3,
			startedAt: '2026-11-24T10:00:00.000Z',
			finishedAt: '2026-11-24T11:00:00.000Z',
		});
	});

	it('says nothing of money or durations it never saw', () => {
		const report = batchReport(emptyTotals(START), START);
		expect(report).toMatchObject({
			tasks: 0,
			costByCurrency: {},
			costExactByCurrency: {},
			costPrecisionByCurrency: {},
			durationSeconds: { median: null, p95: null, longest: null },
		});
	});

	it('carries totals through an item (JSON) and merges several', () => {
		const first = emptyTotals(START + 1000);
		countTask(first, task({ cost: cost('1') }), 'succeeded', 5);
		first.queries = 2;
		const second = emptyTotals(START);
		countTask(second, task({ status: 'failed' }), 'failed', 7);
		second.queries = 3;

		const carried = carriedTotals(JSON.parse(JSON.stringify(first)));
		expect(carried).toEqual(first);
		mergeTotals(carried!, second);
		expect(batchReport(carried!, START)).toMatchObject({
			tasks: 2,
			queries: 5,
			startedAt: new Date(START).toISOString(),
			costByCurrency: { USD: 1 },
			durationSeconds: { longest: 7 },
		});
		expect(carriedTotals({ ...first, byStatus: { succeeded: 'x' } })).toBeUndefined();
		expect(carriedTotals(undefined)).toBeUndefined();
	});

	it('adds money exactly whatever its decimals, where floats and millionths go wrong', () => {
		// The issue: two tasks of 0.1234567 were reported as 0.246914.
		expect(reportOf('0.1234567', '0.1234567')).toMatchObject({
			costByCurrency: { USD: 0.2469134 },
			costExactByCurrency: { USD: '0.2469134' },
			costPrecisionByCurrency: { USD: 7 },
		});
		// Three: floating point says 0.37037010000000004, millionths 0.370371.
		expect(reportOf('0.1234567', '0.1234567', '0.1234567')).toMatchObject({
			costByCurrency: { USD: 0.3703701 },
			costExactByCurrency: { USD: '0.3703701' },
		});
		// 1,000 tasks of 0.0000001: millionths say 0, floating point 0.00010000000000000159.
		expect(reportOf(...Array.from({ length: 1000 }, () => '0.0000001'))).toMatchObject({
			costByCurrency: { USD: 0.0001 },
			costExactByCurrency: { USD: '0.0001000' },
			costPrecisionByCurrency: { USD: 7 },
		});
		// Twenty and more significant digits, a sign, a leading plus, no integer part.
		expect(reportOf('12345678901234567890.12345', '+.00001', '-0.5', '1e-5')).toMatchObject({
			costExactByCurrency: { USD: '12345678901234567889.62347' },
			costPrecisionByCurrency: { USD: 5 },
		});
	});

	it('keeps exactness across passes (totals carried as JSON) and counts task items of earlier builds', () => {
		const first = emptyTotals(START);
		countTask(first, task({ cost: cost('0.1234567') }), 'succeeded', 1);
		const carried = carriedTotals(JSON.parse(JSON.stringify(first)));
		expect(carried?.costExact).toEqual({ USD: '0.1234567' });
		// A finished task item from a build before exact money: numbers only.
		countTask(
			carried!,
			task({
				cost: {
					currency: 'USD',
					input: 0,
					output: 0.1234567,
					total: 0.1234567,
				} as unknown as NormalizedTask['cost'],
			}),
			'succeeded',
		);
		const second = emptyTotals(START);
		countTask(second, task({ cost: cost('0.1234567') }), 'succeeded', 1);
		countTask(second, task({ cost: cost('0.5', 'EUR') }), 'succeeded', 1);
		mergeTotals(carried!, carriedTotals(JSON.parse(JSON.stringify(second)))!);
		expect(batchReport(carried!, START)).toMatchObject({
			tasks: 4,
			costByCurrency: { USD: 0.3703701, EUR: 0.5 },
			costExactByCurrency: { USD: '0.3703701', EUR: '0.5' },
			costPrecisionByCurrency: { USD: 7, EUR: 1 },
		});
		expect(carriedTotals({ ...first, costExact: { USD: 'a lot' } })).toBeUndefined();
		expect(carriedTotals({ ...first, costExact: { USD: 0.1 } })).toBeUndefined();
	});

	it('resumes totals stored by a build before exact money (millionths) without losing them', () => {
		const stored = JSON.parse(JSON.stringify(emptyTotals(START))) as Record<string, unknown>;
		delete stored.costExact;
		stored.costMillionths = { USD: 250000, CNY: 2_000_000, EUR: 246914 };
		stored.byStatus = { succeeded: 3, failed: 0, timedOut: 0 };
		const carried = carriedTotals(stored);
		expect(carried).toBeDefined();
		expect(carried).not.toHaveProperty('costMillionths');
		expect(carried?.costExact).toEqual({ USD: '0.25', CNY: '2', EUR: '0.246914' });
		countTask(carried!, task({ cost: cost('0.1234567') }), 'succeeded', 1);
		expect(batchReport(carried!, START)).toMatchObject({
			tasks: 4,
			costByCurrency: { USD: 0.3734567, CNY: 2, EUR: 0.246914 },
			costExactByCurrency: { USD: '0.3734567', CNY: '2', EUR: '0.246914' },
			costPrecisionByCurrency: { USD: 7, CNY: 0, EUR: 6 },
		});
		// A broken copy is no totals, as before; totals with no money at all are broken too.
		expect(carriedTotals({ ...stored, costMillionths: { USD: 0.5 } })).toBeUndefined();
		expect(carriedTotals({ ...stored, costMillionths: null })).toBeUndefined();
		delete stored.costMillionths;
		expect(carriedTotals(stored)).toBeUndefined();
	});
});

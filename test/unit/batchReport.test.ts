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
});

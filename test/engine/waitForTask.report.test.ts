import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { TASK_S_FIRST_QUERY_AFTER_MS } from '../simulator/tasks';
import { runChain, runNode, type RunResult } from './harness';
import { useSimulator } from './simulatorFixture';
import type { TestItem } from './testNodes';
import { videoNode } from './videoNode';

/** Wait for Task's Batch Report: one item that says what happened to the whole batch. */

const gateway = useSimulator({ queuedMs: 0, runningMs: 0, taskAgeMs: TASK_S_FIRST_QUERY_AFTER_MS });

function outputs(result: RunResult, name: string): INodeExecutionData[][] {
	const runs = result.run.data.resultData.runData[name];
	return (runs?.[runs.length - 1]?.data?.main ?? []).map((output) => output ?? []);
}

const ROWS: IDataObject[] = [
	{ family: 'taskS', model: 's', request: { content: [{ type: 'text', text: 'a fox' }] } },
	{ family: 'taskS', model: 's', request: { content: [{ type: 'text', text: 'please FAIL' }] } },
	{ family: 'generic', model: 'g', request: { prompt: 'a fox' } },
	{ family: 'generic', model: 'g', request: { prompt: 'please FAIL' } },
	{ family: 'familyB', model: 'b', request: { Prompt: 'a fox' } },
	{ family: 'familyC', model: 'c', request: { prompt: 'a fox' } },
];

/** A Still Running item as if its tasks were created 2 h ago and their next check is due. */
function makeDueNow(waited: IDataObject): void {
	for (const pending of waited.pendingTasks as IDataObject[]) {
		pending.createdAt = new Date(Date.now() - 7_200_000).toISOString();
		pending.lastCheckedAt = new Date(Date.now() - 60_000).toISOString();
		pending.nextCheckAt = new Date(Date.now() - 1_000).toISOString();
	}
}

describe('Wait for Task: Batch Report', () => {
	it('Wait in This Execution ends a mixed batch with one report: counts, failures, money, durations, queries', async () => {
		const input: TestItem[] = Array.from({ length: 24 }, (_, n) => ({
			json: { ...ROWS[n % ROWS.length] },
		}));
		const result = await runChain(
			[
				videoNode('fromItem', 'create', { model: '={{ $json.model }}' }, { name: 'Create' }),
				{ type: 'test.ageTasks', name: '10 Minutes Later', parameters: { ageMs: 601_000 } },
				{
					type: 'modelGatewayWaitForTask',
					name: 'Wait',
					parameters: { options: { batchReport: true } },
				},
			],
			{ credentials: gateway.credentials(), input },
		);
		expect(result.error('Wait')).toBeUndefined();
		const [succeeded, failed, timedOut, report] = outputs(result, 'Wait');
		expect([succeeded.length, failed.length, timedOut.length]).toEqual([16, 8, 0]);
		expect(report).toHaveLength(1);

		// Money: what the finished tasks themselves report, added up per currency.
		const money = new Map<string, number>();
		for (const item of [...succeeded, ...failed]) {
			const cost = item.json.cost as { currency: string; total: number } | null;
			if (cost) money.set(cost.currency, (money.get(cost.currency) ?? 0) + cost.total);
		}
		expect(money.size).toBeGreaterThan(0);
		const json = report[0].json;
		expect(json).toMatchObject({
			tasks: 24,
			byStatus: { succeeded: 16, failed: 8, timedOut: 0 },
			byFamily: {
				taskS: { succeeded: 4, failed: 4, timedOut: 0 },
				generic: { succeeded: 4, failed: 4, timedOut: 0 },
				familyB: { succeeded: 4, failed: 0, timedOut: 0 },
				familyC: { succeeded: 4, failed: 0, timedOut: 0 },
			},
			failuresListed: 8,
			queries: gateway.simulator.requests.filter((request) => request.method === 'GET').length,
			passes: 1,
		});
		expect(json.costByCurrency).toEqual(Object.fromEntries(money));
		// The same sums exactly, as the gateway's strings add up, with the decimals it wrote.
		const exact = json.costExactByCurrency as Record<string, string>;
		expect(Object.keys(exact)).toEqual([...money.keys()]);
		for (const [currency, sum] of Object.entries(exact)) {
			expect(Number(sum)).toBe(money.get(currency));
			expect((json.costPrecisionByCurrency as Record<string, number>)[currency]).toBe(
				sum.split('.')[1]?.length ?? 0,
			);
		}
		const failures = json.failures as Array<{ taskId: string; reason: string | null }>;
		expect(failures.map((failure) => failure.taskId).sort()).toEqual(
			failed.map((item) => String(item.json.taskId)).sort(),
		);
		for (const failure of failures) expect(failure.reason).toEqual(expect.any(String));
		const durations = json.durationSeconds as { median: number; p95: number; longest: number };
		expect(durations.median).toBeGreaterThanOrEqual(600);
		expect(durations.p95).toBeGreaterThanOrEqual(durations.median);
		expect(durations.longest).toBeGreaterThanOrEqual(durations.p95);
		expect(report[0].pairedItem).toHaveLength(24);
	});

	it('Check Once and Route: the totals travel in Still Running, and the report comes when the last task settles', async () => {
		gateway.simulator.setOptions({ runningMs: 3_600_000, taskAgeMs: 0 });
		const created = await runNode(
			videoNode('generic', 'create', { model: 'g', genericPrompt: 'a fox' }),
			{
				credentials: gateway.credentials(),
				input: [{ json: {} }, { json: {} }, { json: {} }],
			},
		);
		const tasks: TestItem[] = created.items.map((item) => ({
			json: { ...item.json, createdAt: new Date(Date.now() - 300_000).toISOString() },
		}));
		const checkOnce = {
			type: 'modelGatewayWaitForTask',
			parameters: { mode: 'checkOnce', options: { batchReport: true } },
		};

		const first = await runNode(checkOnce, { credentials: gateway.credentials(), input: tasks });
		const [, , , stillRunning, noReportYet] = outputs(first, 'Node Under Test');
		expect(noReportYet).toEqual([]);
		expect(stillRunning[0].json.batchTotals).toMatchObject({ queries: 3, passes: 1 });

		// The tasks finish while the loop's Wait node waits (here: time moved on by hand).
		for (const task of tasks) gateway.simulator.backdateTask(String(task.json.taskId), 7_200_000);
		const waited = JSON.parse(JSON.stringify(stillRunning[0].json)) as IDataObject;
		makeDueNow(waited);
		const second = await runNode(checkOnce, {
			credentials: gateway.credentials(),
			input: [{ json: waited }],
		});
		expect(second.error('Node Under Test')).toBeUndefined();
		const [succeeded, , , nothingLeft, report] = outputs(second, 'Node Under Test');
		expect(nothingLeft.map((item) => item.json.pendingTasks)).toEqual([]);
		expect(succeeded).toHaveLength(3);
		expect(nothingLeft).toEqual([]);
		expect(report[0].json).toMatchObject({
			tasks: 3,
			byStatus: { succeeded: 3, failed: 0, timedOut: 0 },
			queries: 6,
			passes: 2,
			costByCurrency: {},
		});
	});

	it('Check Once and Route resumed after an upgrade: totals stored in millionths by an earlier build are read, not dropped', async () => {
		gateway.simulator.setOptions({ runningMs: 3_600_000, taskAgeMs: 0 });
		const created = await runNode(
			videoNode('generic', 'create', { model: 'g', genericPrompt: 'a fox' }),
			{ credentials: gateway.credentials(), input: [{ json: {} }] },
		);
		const checkOnce = {
			type: 'modelGatewayWaitForTask',
			parameters: { mode: 'checkOnce', options: { batchReport: true } },
		};
		const first = await runNode(checkOnce, {
			credentials: gateway.credentials(),
			input: [{ json: { ...created.items[0].json, createdAt: new Date().toISOString() } }],
		});
		const [, , , stillRunning] = outputs(first, 'Node Under Test');
		const waited = JSON.parse(JSON.stringify(stillRunning[0].json)) as IDataObject;
		// The Wait node stored this item before the upgrade: money in millionths (two tasks of
		// 0.1234567 USD, already rounded by that build), no exact sums.
		const totals = waited.batchTotals as IDataObject;
		expect(totals.costExact).toEqual({});
		delete totals.costExact;
		totals.costMillionths = { USD: 246914 };
		totals.byStatus = { succeeded: 2, failed: 0, timedOut: 0 };

		gateway.simulator.backdateTask(String(created.items[0].json.taskId), 7_200_000);
		makeDueNow(waited);
		const second = await runNode(checkOnce, {
			credentials: gateway.credentials(),
			input: [{ json: waited }],
		});
		expect(second.error('Node Under Test')).toBeUndefined();
		const [succeeded, , , , report] = outputs(second, 'Node Under Test');
		expect(succeeded).toHaveLength(1);
		expect(report[0].json).toMatchObject({
			tasks: 3,
			passes: 2,
			costByCurrency: { USD: 0.246914 },
			costExactByCurrency: { USD: '0.246914' },
			costPrecisionByCurrency: { USD: 6 },
		});
	});
});

import { TASK_S_FIRST_QUERY_AFTER_MS } from '../simulator/tasks';
import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';
import { videoNode } from './videoNode';

/**
 * The spec's Task family S polling rule, as the simulator enforces it, seen from the Video
 * node; and the one place where the fixture's "no spec violation" check is switched off.
 */

const gateway = useSimulator({ queuedMs: 0, runningMs: 0 });

async function createSTask(): Promise<string> {
	const sim = gateway.simulator;
	const response = await fetch(`${sim.baseUrl}/v1/task/create`, {
		method: 'POST',
		headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' },
		body: JSON.stringify({ model: 's', content: [{ type: 'text', text: 'a fox' }] }),
	});
	const { id } = (await response.json()) as { id: string };
	sim.requests.length = 0;
	return id;
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

const getStatus = (taskId: string, createdAt: string) =>
	runNode(videoNode('taskS', 'getStatus', { taskSource: 'manual', taskId, createdAt }), {
		credentials: gateway.credentials(),
	});

describe('Task family S polling rule', () => {
	it('a query right after creation (a Created At that lies) is refused with 429 and recorded as a violation', async () => {
		gateway.expectViolations('task-s-query-too-early');
		const taskId = await createSTask();
		const result = await getStatus(taskId, minutesAgo(11));
		const error = result.error('Node Under Test');
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toMatch(
			new RegExp(
				`^Task ${taskId} was queried \\d+ s after creation; query only when no callback arrived 10 minutes after creation\\.$`,
			),
		);
		// Retry-After (10 minutes) is beyond the transport's longest wait: asked once.
		expect(gateway.simulator.requestsTo('GET', `/v1/task/get/${taskId}`)).toHaveLength(1);
		expect(gateway.simulator.violations.map(({ rule, taskId: id }) => [rule, id])).toEqual([
			['task-s-query-too-early', taskId],
		]);
	});

	it('a query 10 minutes after creation is answered', async () => {
		const taskId = await createSTask();
		gateway.simulator.backdateTask(taskId, TASK_S_FIRST_QUERY_AFTER_MS);
		const result = await getStatus(taskId, minutesAgo(10.1));
		expect(result.error('Node Under Test')).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ family: 'taskS', taskId, status: 'succeeded' });
		expect(Date.parse(String(result.items[0].json.lastCheckedAt))).not.toBeNaN();
		expect(gateway.simulator.violations).toEqual([]);
	});

	it('Get Status does not query an S task blindly: no Created At, nothing sent', async () => {
		const taskId = await createSTask();
		const result = await getStatus(taskId, '');
		expect(result.error('Node Under Test')?.message).toBe(
			'Item 0: this Task Family S task has no "Created At", so when it may be queried is unknown; set it (as Create outputs it)',
		);
		expect(gateway.simulator.requests).toEqual([]);
	});

	it('two readers in one process never query one S task less than a minute apart', async () => {
		// Still running when first read, so the next reader has something to wait for.
		gateway.simulator.setOptions({ runningMs: 3_600_000 });
		const taskId = await createSTask();
		gateway.simulator.backdateTask(taskId, TASK_S_FIRST_QUERY_AFTER_MS);
		const createdAt = minutesAgo(10.1);
		const first = await getStatus(taskId, createdAt);
		expect(first.error('Node Under Test')).toBeUndefined();

		// Get Status again: refused, with the time it may ask.
		const second = await getStatus(taskId, createdAt);
		expect(second.error('Node Under Test')?.message).toMatch(
			/^Item 0: this Task Family S task may be queried from \d{4}-\d\d-\d\dT/,
		);
		// Wait for Task, fed the Get Status output (as a user would): not queried, Still Running.
		const wait = await runNode(
			{ type: 'modelGatewayWaitForTask', parameters: { mode: 'checkOnce' } },
			{ credentials: gateway.credentials(), input: [{ json: first.items[0].json }] },
		);
		expect(wait.error('Node Under Test')).toBeUndefined();
		const main = wait.run.data.resultData.runData['Node Under Test'][0].data?.main ?? [];
		expect(main[3]?.[0]?.json).toMatchObject({ pendingCount: 1 });
		const [pending] = (main[3]?.[0]?.json.pendingTasks ?? []) as Array<{ nextCheckAt: string }>;
		expect(Date.parse(pending.nextCheckAt)).toBeGreaterThanOrEqual(
			Date.parse(String(first.items[0].json.lastCheckedAt)) + 61_000,
		);
		expect(gateway.simulator.requestsTo('GET', `/v1/task/get/${taskId}`)).toHaveLength(1);
	});
});

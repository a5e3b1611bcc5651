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

const getStatus = (taskId: string) =>
	runNode(videoNode('taskS', 'getStatus', { taskSource: 'manual', taskId }), {
		credentials: gateway.credentials(),
	});

describe('Task family S polling rule', () => {
	it('a query right after creation is refused with 429 and recorded as a violation', async () => {
		gateway.allowViolations();
		const taskId = await createSTask();
		const result = await getStatus(taskId);
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
		const result = await getStatus(taskId);
		expect(result.error('Node Under Test')).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ family: 'taskS', taskId, status: 'succeeded' });
		expect(gateway.simulator.violations).toEqual([]);
	});
});

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { useFakeDate } from './fakeDate';
import { runNode, type RunResult } from './harness';
import { useSimulator } from './simulatorFixture';
import { videoNode } from './videoNode';

/**
 * Wait for Task at the edges: a wait carried on by another node, its inputs refused before
 * anything is sent, and the time each task waited.
 */

// Tasks stay running for an hour: every check finds them unfinished.
const gateway = useSimulator({ queuedMs: 0, runningMs: 3_600_000 });

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
const HOUR = 3_600_000;

async function runningTask(): Promise<IDataObject> {
	const result = await runNode(
		videoNode('generic', 'create', { model: 'g-video', genericPrompt: 'a slow fox' }),
		{ credentials: gateway.credentials() },
	);
	expect(result.error('Node Under Test')).toBeUndefined();
	return { ...result.items[0].json, createdAt: ago(3 * 3_600_000) };
}

function outputs(result: RunResult): INodeExecutionData[][] {
	const runs = result.run.data.resultData.runData['Node Under Test'];
	return (runs?.[runs.length - 1]?.data?.main ?? []).map((output) => output ?? []);
}

const checkOnce = (parameters: IDataObject = {}) => ({
	type: 'modelGatewayWaitForTask',
	parameters: { mode: 'checkOnce', maxWaitMinutes: 60, ...parameters },
});

describe('Wait for Task: keep waiting after Timed Out', () => {
	it('a task timed out by one node is waited for again by the next, with the same settings, and keeps its distance', async () => {
		const task = await runningTask();
		// A loop's Still Running item whose wait began two hours ago (past its 60-minute Max Wait),
		// checked 5 s ago by the loop's last pass.
		const { raw: _raw, ...fields } = task;
		const pending = {
			...fields,
			polls: 3,
			waitStartedAt: ago(2 * 3_600_000),
			lastCheckedAt: ago(5_000),
		};
		const first = await runNode(checkOnce(), {
			credentials: gateway.credentials(),
			input: [{ json: { pendingCount: 1, pendingTasks: [pending] } }],
		});
		const [, , timedOut] = outputs(first);
		expect(timedOut).toHaveLength(1);
		// Its own wait (two hours), not this node's run time; checked by earlier passes.
		expect(timedOut[0].json).toMatchObject({ taskId: task.taskId, polls: 3 });
		expect(timedOut[0].json.waitedSeconds).toBeGreaterThanOrEqual(7200);
		const lastCheckedAt = Date.parse(String(timedOut[0].json.lastCheckedAt));
		expect(lastCheckedAt).not.toBeNaN();

		// Fed into another Wait for Task: not Timed Out at once, not queried again seconds later.
		const second = await runNode(checkOnce(), {
			credentials: gateway.credentials(),
			input: [{ json: timedOut[0].json }],
		});
		const [succeeded, failed, timedOutAgain, stillRunning] = outputs(second);
		expect([succeeded.length, failed.length, timedOutAgain.length]).toEqual([0, 0, 0]);
		const [carried] = stillRunning[0].json.pendingTasks as IDataObject[];
		expect(Date.parse(String(carried.nextCheckAt))).toBeGreaterThanOrEqual(lastCheckedAt + 10_000);
		expect(gateway.simulator.requestsTo('GET', `/v1/videos/${String(task.taskId)}`)).toHaveLength(
			0,
		);
	});
});

describe('Wait for Task and Get Status refuse what cannot be right, and send nothing', () => {
	it.each([
		[
			'a Family A endpoint with a typo',
			{ family: 'familyA', taskId: 'a-1', endpoint: 'text-to-video', createdAt: ago(60_000) },
			'Item 0: "Endpoint" is "text-to-video", which is not a Family A endpoint (one of omni-video, image2video, text2video)',
		],
		[
			'a Created At that is not a time',
			{ family: 'generic', taskId: 'g-1', createdAt: 'yesterday' },
			'Item 0: "Created At" is "yesterday", which is not a time (use ISO, as Create outputs it)',
		],
		[
			'a Created At in the future',
			{ family: 'generic', taskId: 'g-1', createdAt: '+012345-01-01T00:00:00.000Z' },
			'Item 0: "Created At" is +012345-01-01T00:00:00.000Z, which lies in the future',
		],
		// Past the hour a gateway's clock may run ahead: a wrong time, not a skewed one.
		(() => {
			const createdAt = ago(-2 * HOUR);
			return [
				'a Created At two hours ahead',
				{ family: 'generic', taskId: 'g-1', createdAt },
				`Item 0: "Created At" is ${createdAt}, which lies in the future`,
			] as const;
		})(),
	])('%s', async (_name, json, message) => {
		const wait = await runNode(checkOnce(), {
			credentials: gateway.credentials(),
			input: [{ json }],
		});
		expect(wait.error('Node Under Test')?.message).toBe(message);
		const status = await runNode(videoNode(json.family, 'getStatus', {}), {
			credentials: gateway.credentials(),
			input: [{ json }],
		});
		expect(status.error('Node Under Test')?.message).toBe(message);
		expect(gateway.simulator.requests).toEqual([]);
	});
});

describe('a gateway clock ahead of ours fails no task', () => {
	afterEach(() => {
		jest.useRealTimers();
	});

	it('a Created At 10 minutes ahead is accepted, and the wait counts from now: first check 10 s on, pass after pass', async () => {
		useFakeDate();
		const started = Date.now();
		const createdAt = new Date(started + 10 * 60_000).toISOString();
		const task: IDataObject = { ...(await runningTask()), createdAt };
		const path = `/v1/videos/${String(task.taskId)}`;

		// First pass: not due yet (a generic task's first check is 10 s after creation), but due
		// 10 s from now, not 10 s after the gateway's clock.
		const first = await runNode(checkOnce(), {
			credentials: gateway.credentials(),
			input: [{ json: task }],
		});
		expect(first.error('Node Under Test')).toBeUndefined();
		const [firstPending] = outputs(first)[3][0].json.pendingTasks as IDataObject[];
		expect(firstPending).toMatchObject({ taskId: task.taskId, polls: 0, createdAt });
		expect(Date.parse(String(firstPending.nextCheckAt))).toBe(started + 10_000);

		// Fed back 10 s later: checked, although the gateway's created time is still ahead.
		jest.setSystemTime(started + 10_000);
		const second = await runNode(checkOnce(), {
			credentials: gateway.credentials(),
			input: [{ json: outputs(first)[3][0].json }],
		});
		expect(second.error('Node Under Test')).toBeUndefined();
		const [succeeded, failed, timedOut, stillRunning] = outputs(second);
		expect([succeeded.length, failed.length, timedOut.length]).toEqual([0, 0, 0]);
		const [checked] = stillRunning[0].json.pendingTasks as IDataObject[];
		// (Its createdAt is now the record's, as the gateway answered it.)
		expect(checked).toMatchObject({ taskId: task.taskId, polls: 1, status: 'running' });
		expect(checked).not.toHaveProperty('lastCheckError');
		expect(gateway.simulator.requestsTo('GET', path)).toHaveLength(1);

		// Get Status asks at once too.
		const status = await runNode(videoNode('generic', 'getStatus', {}), {
			credentials: gateway.credentials(),
			input: [{ json: task }],
		});
		expect(status.error('Node Under Test')).toBeUndefined();
		expect(status.items[0].json).toMatchObject({ taskId: task.taskId, status: 'running' });
		expect(gateway.simulator.requestsTo('GET', path)).toHaveLength(2);
	});
});

describe('Wait for Task: what it knows of a task before asking', () => {
	it("an item about another task lends nothing: a task not yet due leaves Still Running with status unknown, not the item's", async () => {
		const itemOfTaskA = {
			family: 'taskS',
			taskId: 'cgt-a',
			status: 'running',
			rawStatus: 'running',
			done: false,
			raw: { id: 'cgt-a' },
		};
		const result = await runNode(
			checkOnce({ family: 'taskS', taskId: 'cgt-b', createdAt: ago(1_000) }),
			{ credentials: gateway.credentials(), input: [{ json: itemOfTaskA }] },
		);
		expect(result.error('Node Under Test')).toBeUndefined();
		const [, , , stillRunning] = outputs(result);
		const [pending] = stillRunning[0].json.pendingTasks as IDataObject[];
		expect(pending).toMatchObject({ taskId: 'cgt-b', status: 'unknown', rawStatus: null });
		expect(pending).not.toHaveProperty('raw');

		// The same item for its own task carries its status.
		const own = await runNode(
			checkOnce({ family: 'taskS', taskId: 'cgt-a', createdAt: ago(1_000) }),
			{
				credentials: gateway.credentials(),
				input: [{ json: itemOfTaskA }],
			},
		);
		const [ownPending] = outputs(own)[3][0].json.pendingTasks as IDataObject[];
		expect(ownPending).toMatchObject({ taskId: 'cgt-a', status: 'running', rawStatus: 'running' });
		expect(gateway.simulator.requests).toEqual([]);
	});
});

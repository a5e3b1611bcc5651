import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runNode, type RunResult } from './harness';
import { useSimulator } from './simulatorFixture';
import { videoNode } from './videoNode';

/**
 * Wait for Task when a query fails: a 5xx or a dropped connection (after the transport's own
 * retries) never ends a wait, it only moves the next check back; a 429 the transport does not
 * wait out pauses the whole batch for a minute; a 4xx the gateway means (an unknown task) fails
 * that task.
 */

// Tasks stay running for an hour: every successful check finds them unfinished.
const gateway = useSimulator({ queuedMs: 0, runningMs: 3_600_000 });
const NODE = 'Node Under Test';
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

async function runningTasks(count: number): Promise<IDataObject[]> {
	const result = await runNode(
		videoNode('generic', 'create', { model: 'g-video', genericPrompt: 'a slow fox' }),
		{
			credentials: gateway.credentials(),
			input: Array.from({ length: count }, (_, row) => ({ json: { row } })),
		},
	);
	expect(result.error(NODE)).toBeUndefined();
	return result.items.map(({ json }) => {
		const { raw: _raw, ...fields } = json;
		return { ...fields, createdAt: ago(60_000) };
	});
}

function outputs(result: RunResult): INodeExecutionData[][] {
	const runs = result.run.data.resultData.runData[NODE];
	return (runs?.[runs.length - 1]?.data?.main ?? []).map((output) => output ?? []);
}

const waitForTask = (
	mode: string,
	options: IDataObject = {},
	continueOnFail = false,
	maxWaitMinutes = 60,
) => ({
	type: 'modelGatewayWaitForTask',
	parameters: { mode, maxWaitMinutes, options },
	...(continueOnFail ? { continueOnFail: true } : {}),
});

/** The one task of a Check Once run that stayed pending, and the seconds from its check to the next. */
function stillRunningTask(result: RunResult): { task: IDataObject; gapSeconds: number } {
	const [succeeded, failed, timedOut, stillRunning] = outputs(result);
	expect([succeeded.length, failed.length, timedOut.length, stillRunning.length]).toEqual([
		0, 0, 0, 1,
	]);
	const [task] = stillRunning[0].json.pendingTasks as IDataObject[];
	const gapMs = Date.parse(String(task.nextCheckAt)) - Date.parse(String(task.lastCheckedAt));
	return { task, gapSeconds: Math.round(gapMs / 1000) };
}

describe('Wait for Task: a failed query', () => {
	it('a 5xx that outlasts the transport retries keeps the task waiting and moves its next check back', async () => {
		const [task] = await runningTasks(1);
		gateway.simulator.injectFault({
			method: 'GET',
			path: '/v1/videos/',
			kind: 'status',
			status: 503,
			times: 4,
			headers: { 'retry-after-ms': '1' },
			body: { error: { message: 'gateway overloaded' } },
		});
		const result = await runNode(waitForTask('checkOnce'), {
			credentials: gateway.credentials(),
			input: [{ json: task }],
		});
		expect(result.error(NODE)).toBeUndefined();
		const { task: pending, gapSeconds } = stillRunningTask(result);
		expect(pending).toMatchObject({ taskId: task.taskId, polls: 1 });
		// Backoff: twice the 10 s interval after one failure in a row (a regular check: 10 s).
		expect(gapSeconds).toBe(20);
		expect(gateway.simulator.pollLog(String(task.taskId))).toHaveLength(4);
	});

	it('a connection dropped on every retry keeps the task waiting too', async () => {
		const [task] = await runningTasks(1);
		gateway.simulator.injectFault({ method: 'GET', path: '/v1/videos/', kind: 'drop', times: 4 });
		const result = await runNode(waitForTask('checkOnce'), {
			credentials: gateway.credentials(),
			input: [{ json: task }],
		});
		expect(result.error(NODE)).toBeUndefined();
		expect(stillRunningTask(result).gapSeconds).toBe(20);
		expect(gateway.simulator.pollLog(String(task.taskId))).toHaveLength(4);
	});

	it('a 429 the transport does not wait out keeps the task waiting a minute', async () => {
		const [task] = await runningTasks(1);
		gateway.simulator.injectFault({
			method: 'GET',
			path: '/v1/videos/',
			kind: 'status',
			status: 429,
			headers: { 'retry-after': '3600' },
			body: { error: { message: 'come back in an hour' } },
		});
		const result = await runNode(waitForTask('checkOnce'), {
			credentials: gateway.credentials(),
			input: [{ json: task }],
		});
		expect(result.error(NODE)).toBeUndefined();
		// The batch pause (60 s), not the regular 10 s.
		expect(stillRunningTask(result).gapSeconds).toBe(60);
		expect(gateway.simulator.pollLog(String(task.taskId))).toHaveLength(1);
	});

	it('in Wait in This Execution, that 429 pauses the whole batch: no other task is asked before their wait ends', async () => {
		const tasks = await runningTasks(3);
		gateway.simulator.injectFault({
			method: 'GET',
			path: '/v1/videos/',
			kind: 'status',
			status: 429,
			headers: { 'retry-after': '3600' },
			body: { error: { message: 'come back in an hour' } },
		});
		// A loop's Still Running item, checked once 30 s ago, whose 1-minute Max Wait ends 3 s from now.
		const pending = {
			pendingCount: tasks.length,
			pendingTasks: tasks.map((task) => ({
				...task,
				polls: 1,
				lastCheckedAt: ago(30_000),
				waitStartedAt: ago(57_000),
			})),
		};
		const result = await runNode(waitForTask('waitHere', { concurrency: 1 }, false, 1), {
			credentials: gateway.credentials(),
			input: [{ json: pending }],
		});
		expect(result.error(NODE)).toBeUndefined();
		const [succeeded, failed, timedOut] = outputs(result);
		expect([succeeded.length, failed.length]).toEqual([0, 0]);
		expect(timedOut.map((item) => item.json.taskId)).toEqual(tasks.map((task) => task.taskId));
		expect(gateway.simulator.requestsTo('GET', '/v1/videos/')).toHaveLength(1);
	});

	it('a task the gateway does not know (4xx) goes to Failed with its words, and the tasks beside it go on: one bad row stops nothing', async () => {
		gateway.expectViolations('unknown-id');
		const [known] = await runningTasks(1);
		const unknown = { ...known, taskId: 'video_unknown', id: 'video_unknown' };
		for (const continueOnFail of [false, true]) {
			const result = await runNode(waitForTask('checkOnce', {}, continueOnFail), {
				credentials: gateway.credentials(),
				input: [{ json: unknown }, { json: known }],
			});
			expect(result.error(NODE)).toBeUndefined();
			const [succeeded, failed, timedOut, stillRunning] = outputs(result);
			expect([succeeded.length, timedOut.length]).toEqual([0, 0]);
			expect(failed).toHaveLength(1);
			expect(failed[0].json).toMatchObject({
				taskId: 'video_unknown',
				status: 'failed',
				done: true,
				error: { code: 'query_failed', message: "Video 'video_unknown' not found." },
			});
			expect(failed[0].pairedItem).toEqual({ item: 0 });
			expect((stillRunning[0].json.pendingTasks as IDataObject[])[0].taskId).toBe(known.taskId);
		}
		// Asked once each run: a 404 is not retried.
		expect(gateway.simulator.requestsTo('GET', '/v1/videos/video_unknown')).toHaveLength(2);
	});

	it('a refused credential (401) stops the node, as it concerns every task; under Continue On Fail the tasks wait on, none marked failed', async () => {
		gateway.expectViolations('wrong-credential');
		const [known, other] = await runningTasks(2);
		const wrongKey = gateway.credentials({ apiKey: 'not-the-key' });
		const stopped = await runNode(waitForTask('checkOnce'), {
			credentials: wrongKey,
			input: [{ json: known }],
		});
		expect(stopped.error(NODE)).toMatchObject({ httpCode: '401' });
		const refusal = `The credential was refused (HTTP 401): ${String(stopped.error(NODE)?.message)}`;

		// A rotated key must not mark paid tasks failed: both stay on Still Running, saying why.
		const continued = await runNode(waitForTask('checkOnce', {}, true), {
			credentials: wrongKey,
			input: [{ json: known }, { json: other }],
		});
		expect(continued.error(NODE)).toBeUndefined();
		const [succeeded, failed, timedOut, stillRunning] = outputs(continued);
		expect([succeeded.length, failed.length, timedOut.length]).toEqual([0, 0, 0]);
		const pending = stillRunning[0].json.pendingTasks as IDataObject[];
		expect(pending.map((task) => task.taskId)).toEqual([known.taskId, other.taskId]);
		for (const task of pending) {
			expect(task).toMatchObject({
				status: 'queued',
				done: false,
				polls: 1,
				failedChecksInRow: 1,
				lastCheckError: refusal,
			});
			// Back-off after a failed check: twice the 10 s interval, not the regular 10 s.
			const gapMs = Date.parse(String(task.nextCheckAt)) - Date.parse(String(task.lastCheckedAt));
			expect(Math.round(gapMs / 1000)).toBe(20);
		}
		// Each task was asked once per run: the 401 is not repeated within a check.
		const asked = (task: IDataObject) =>
			gateway.simulator.requestsTo('GET', `/v1/videos/${String(task.taskId)}`).length;
		expect([asked(known), asked(other)]).toEqual([2, 1]);
	});
});

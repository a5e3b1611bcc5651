import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { MP4_FILE } from '../simulator/files';
import { binaryBytes, runNode, type RunResult } from './harness';
import type { TestItem } from './testNodes';
import { useSimulator } from './simulatorFixture';
import { videoNode } from './videoNode';

/**
 * Wait for Task in the real engine against the simulator. Tasks are created by the Video node,
 * then handed over with a creation time a few minutes back (as when created by an earlier
 * workflow), so that the families' first-check delays are already over and nothing sleeps.
 */

const gateway = useSimulator({ queuedMs: 0, runningMs: 0 });

const CREATES: Array<[string, IDataObject]> = [
	[
		'familyA',
		{ model: 'a-video', familyAPrompt: 'a fox', familyAOptions: { aspect_ratio: '16:9' } },
	],
	['generic', { model: 'g-video', genericPrompt: 'a fox' }],
	['familyB', { model: 'b-video', familyBPrompt: 'a fox' }],
	['familyC', { model: 'c-video', familyCPrompt: 'a fox' }],
	['longRunning', { model: 'veo-x', longRunningInstances: { instances: [{ prompt: 'a fox' }] } }],
];

/** Creates one task per prompt with the Video node and returns its items, `ageMs` old. */
async function createTasks(
	family: string,
	parameters: IDataObject,
	count = 1,
	ageMs = 5 * 60_000,
): Promise<TestItem[]> {
	const result = await runNode(videoNode(family, 'create', parameters), {
		credentials: gateway.credentials(),
		input: Array.from({ length: count }, (_, index) => ({ json: { row: index } })),
	});
	expect(result.error('Node Under Test')).toBeUndefined();
	return result.items.map((item) => ({
		json: { ...item.json, createdAt: new Date(Date.now() - ageMs).toISOString() },
	}));
}

function waitNode(parameters: IDataObject = {}) {
	return { type: 'modelGatewayWaitForTask', parameters };
}

/** Every output of the node's last run: [Succeeded, Failed, Timed Out, (Still Running)]. */
function outputs(result: RunResult, name = 'Node Under Test'): INodeExecutionData[][] {
	const runs = result.run.data.resultData.runData[name];
	return (runs?.[runs.length - 1]?.data?.main ?? []).map((output) => output ?? []);
}

describe('Model Gateway Wait for Task: Wait in This Execution', () => {
	it.each(CREATES)(
		'%s: a created task arrives on Succeeded after one check',
		async (family, parameters) => {
			const tasks = await createTasks(family, parameters);
			const taskId = tasks[0].json.taskId;
			const queriesBefore = gateway.simulator.requests.length;
			const result = await runNode(waitNode(), {
				credentials: gateway.credentials(),
				input: tasks,
			});
			expect(result.error('Node Under Test')).toBeUndefined();
			const [succeeded, failed, timedOut] = outputs(result);
			expect(failed).toEqual([]);
			expect(timedOut).toEqual([]);
			expect(succeeded).toHaveLength(1);
			expect(succeeded[0].json).toMatchObject({
				family,
				taskId,
				status: 'succeeded',
				done: true,
				polls: 1,
			});
			expect(typeof succeeded[0].json.waitedSeconds).toBe('number');
			expect(succeeded[0].pairedItem).toEqual({ item: 0 });
			expect(gateway.simulator.requests.length - queriesBefore).toBe(1);
		},
	);

	it('routes a failed task to Failed with the gateway error', async () => {
		const tasks = await createTasks('generic', { model: 'g', genericPrompt: 'FAIL please' });
		const result = await runNode(waitNode(), { credentials: gateway.credentials(), input: tasks });
		const [succeeded, failed, timedOut] = outputs(result);
		expect(succeeded).toEqual([]);
		expect(timedOut).toEqual([]);
		expect(failed).toHaveLength(1);
		expect(failed[0].json).toMatchObject({ status: 'failed', done: true, polls: 1 });
		expect(failed[0].json.error).not.toBeNull();
	});

	it('checks a task older than its Max Wait instead of timing it out unchecked (Max Wait counts from when this node starts waiting)', async () => {
		const tasks = await createTasks(
			'generic',
			{ model: 'g', genericPrompt: 'fine' },
			1,
			3 * 3_600_000,
		);
		const before = gateway.simulator.requests.length;
		const result = await runNode(waitNode({ maxWaitMinutes: 60 }), {
			credentials: gateway.credentials(),
			input: tasks,
		});
		const [succeeded, failed, timedOut] = outputs(result);
		expect([failed.length, timedOut.length]).toEqual([0, 0]);
		expect(succeeded.map((item) => item.json.taskId)).toEqual([tasks[0].json.taskId]);
		expect(succeeded[0].json.polls).toBe(1);
		expect(gateway.simulator.requests.length).toBe(before + 1);
	});

	it('keeps input order within each output and pairs every item with its input', async () => {
		const ok = await createTasks('generic', { model: 'g', genericPrompt: 'fine' }, 3);
		const bad = await createTasks('generic', { model: 'g', genericPrompt: 'FAIL' }, 2);
		const input = [ok[0], bad[0], ok[1], bad[1], ok[2]];
		const result = await runNode(waitNode({ options: { concurrency: 3 } }), {
			credentials: gateway.credentials(),
			input,
		});
		const [succeeded, failed] = outputs(result);
		expect(succeeded.map((item) => item.json.taskId)).toEqual([
			ok[0].json.taskId,
			ok[1].json.taskId,
			ok[2].json.taskId,
		]);
		expect(succeeded.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 2 },
			{ item: 4 },
		]);
		expect(failed.map((item) => item.pairedItem)).toEqual([{ item: 1 }, { item: 3 }]);
	});

	it('passes an already finished task through without asking the gateway', async () => {
		const [task] = await createTasks('generic', { model: 'g', genericPrompt: 'fine' });
		const finished = { json: { ...task.json, status: 'succeeded', done: true, videoUrl: 'x' } };
		const before = gateway.simulator.requests.length;
		const result = await runNode(waitNode(), {
			credentials: gateway.credentials(),
			input: [finished],
		});
		const [succeeded] = outputs(result);
		expect(succeeded[0].json).toMatchObject({ taskId: task.json.taskId, polls: 0 });
		expect(gateway.simulator.requests.length).toBe(before);
	});

	it('downloads the video of a finished task handed to it (a callback, a hand-on) without querying the task', async () => {
		const [task] = await createTasks('generic', { model: 'g', genericPrompt: 'handed on' });
		const first = await runNode(waitNode(), {
			credentials: gateway.credentials(),
			input: [task],
		});
		const [done] = outputs(first);
		expect(done[0].binary).toBeUndefined();
		const before = gateway.simulator.requests.length;

		const result = await runNode(waitNode({ options: { downloadResult: true } }), {
			credentials: gateway.credentials(),
			input: [{ json: done[0].json }],
		});

		const [succeeded] = outputs(result);
		expect(succeeded[0].json).toMatchObject({ taskId: task.json.taskId, polls: 0 });
		expect(await binaryBytes(succeeded[0], 'data')).toEqual(MP4_FILE.bytes);
		// The bytes came from the public link (the simulator's CDN, not logged): no task query.
		expect(gateway.simulator.requests.slice(before)).toEqual([]);
	});

	it('asks once for a finished task whose video came inline and is not in the item (Download Result)', async () => {
		const [family, parameters] = CREATES[4];
		const [task] = await createTasks(family, parameters);
		const first = await runNode(waitNode(), { credentials: gateway.credentials(), input: [task] });
		const [done] = outputs(first);
		// Handed on as JSON only (e.g. posted to another workflow): the inline bytes stay behind.
		expect(done[0].json).toMatchObject({ status: 'succeeded', videoUrls: [] });
		const before = gateway.simulator.requests.length;

		const result = await runNode(waitNode({ options: { downloadResult: true } }), {
			credentials: gateway.credentials(),
			input: [{ json: done[0].json }],
		});

		const [succeeded] = outputs(result);
		expect(succeeded[0].json).toMatchObject({ taskId: task.json.taskId, polls: 1 });
		expect(succeeded[0].binary?.data).toMatchObject({ mimeType: 'video/mp4' });
		expect(gateway.simulator.requests.slice(before).map((request) => request.method)).toEqual([
			'GET',
		]);
	});

	it('fails a reference that cannot be queried before any query, naming the item', async () => {
		const [task] = await createTasks('generic', { model: 'g', genericPrompt: 'fine' });
		const before = gateway.simulator.requests.length;
		const result = await runNode(waitNode(), {
			credentials: gateway.credentials(),
			input: [task, { json: { family: 'familyZ', taskId: 'x' } }],
		});
		expect(result.error('Node Under Test')?.message).toBe(
			'Item 1: "Family" is "familyZ", which is not a task family (one of taskS, familyA, generic, familyB, familyC, longRunning)',
		);
		expect(gateway.simulator.requests.length).toBe(before);
	});

	it('with Continue On Fail, an empty task ID goes to Failed and the others still wait', async () => {
		const [task] = await createTasks('generic', { model: 'g', genericPrompt: 'fine' });
		const result = await runNode(
			{ ...waitNode(), continueOnFail: true },
			{ credentials: gateway.credentials(), input: [{ json: { family: 'generic' } }, task] },
		);
		const [succeeded, failed] = outputs(result);
		expect(succeeded.map((item) => item.json.taskId)).toEqual([task.json.taskId]);
		expect(failed).toEqual([
			{
				json: {
					family: 'generic',
					error: 'Item 0: "Task ID" is empty',
					errorDescription: 'Nothing was sent to the gateway for this item.',
				},
				pairedItem: { item: 0 },
			},
		]);
	});

	it('with Continue On Fail, an unknown family fails alone on Failed, with the task it names', async () => {
		const [task] = await createTasks('generic', { model: 'g', genericPrompt: 'fine' });
		const before = gateway.simulator.requests.length;
		const result = await runNode(
			{ ...waitNode(), continueOnFail: true },
			{
				credentials: gateway.credentials(),
				input: [task, { json: { family: 'familyZ', taskId: 'row-7-task' } }],
			},
		);
		const [succeeded, failed] = outputs(result);
		expect(succeeded.map((item) => item.json.taskId)).toEqual([task.json.taskId]);
		expect(failed.map((item) => item.json)).toEqual([
			{
				family: 'familyZ',
				taskId: 'row-7-task',
				error:
					'Item 1: "Family" is "familyZ", which is not a task family (one of taskS, familyA, generic, familyB, familyC, longRunning)',
				errorDescription: 'Nothing was sent to the gateway for this item.',
			},
		]);
		// Only the good task was asked about.
		expect(
			gateway.simulator.requests.slice(before).every((request) => !request.path.includes('row-7')),
		).toBe(true);
	});

	it('takes the reference from expressions (ids from a sheet)', async () => {
		const [task] = await createTasks('familyC', { model: 'c', familyCPrompt: 'fine' });
		const row = { json: { Id: task.json.taskId, Kind: 'familyC', Started: task.json.createdAt } };
		const result = await runNode(
			waitNode({
				family: '={{ $json.Kind }}',
				taskId: '={{ $json.Id }}',
				createdAt: '={{ $json.Started }}',
			}),
			{ credentials: gateway.credentials(), input: [row] },
		);
		const [succeeded] = outputs(result);
		expect(succeeded[0].json).toMatchObject({ family: 'familyC', taskId: task.json.taskId });
	});

	it('Download Result stores the finished video as binary data, without the API key', async () => {
		const [task] = await createTasks('generic', { model: 'g', genericPrompt: 'fine' });
		const result = await runNode(
			waitNode({ options: { downloadResult: true, binaryPropertyName: 'video' } }),
			{ credentials: gateway.credentials(), input: [task] },
		);
		const [succeeded] = outputs(result);
		expect(succeeded[0].binary?.video).toMatchObject({ mimeType: 'video/mp4' });
		expect(await binaryBytes(succeeded[0], 'video')).toEqual(MP4_FILE.bytes);
		const download = gateway.simulator.requests.filter((request) =>
			request.path.startsWith('/files/'),
		);
		for (const request of download) expect(request.headers.authorization).toBeUndefined();
	});

	it('waits out a rate limit on a check and still gets the task', async () => {
		const [task] = await createTasks('generic', { model: 'g', genericPrompt: 'fine' });
		gateway.simulator.injectFault({
			kind: 'status',
			status: 429,
			method: 'GET',
			headers: { 'retry-after-ms': '20' },
			body: { error: { message: 'slow down' } },
		});
		const result = await runNode(waitNode(), { credentials: gateway.credentials(), input: [task] });
		const [succeeded] = outputs(result);
		expect(succeeded.map((item) => item.json.taskId)).toEqual([task.json.taskId]);
		expect(gateway.simulator.pollLog(String(task.json.taskId))).toHaveLength(2);
	});
});

describe('Model Gateway Wait for Task: Check Once and Route', () => {
	it('routes finished tasks, packs the rest into one Still Running item, and a later pass finishes them', async () => {
		const done = await createTasks('generic', { model: 'g', genericPrompt: 'fine' });
		const running = await createTasks(
			'generic',
			{ model: 'g', genericPrompt: 'UNKNOWN_STATUS' },
			2,
		);
		const first = await runNode(waitNode({ mode: 'checkOnce' }), {
			credentials: gateway.credentials(),
			input: [running[0], done[0], running[1]],
		});
		expect(first.error('Node Under Test')).toBeUndefined();
		const [succeeded, failed, timedOut, stillRunning] = outputs(first);
		expect(succeeded.map((item) => item.json.taskId)).toEqual([done[0].json.taskId]);
		expect([failed.length, timedOut.length]).toEqual([0, 0]);
		expect(stillRunning).toHaveLength(1);
		const packed = stillRunning[0];
		expect(packed.pairedItem).toEqual([{ item: 0 }, { item: 2 }]);
		expect(packed.json).toMatchObject({ pendingCount: 2 });
		// 65 s is the Wait node's boundary to the database; it measures from its own clock, so a
		// margin keeps a wait of the loop from falling on the in-memory side.
		expect(packed.json.nextCheckInSeconds).toBeGreaterThanOrEqual(70);
		const pending = packed.json.pendingTasks as IDataObject[];
		expect(pending.map((task) => [task.taskId, task.polls, task.status])).toEqual([
			[running[0].json.taskId, 1, 'unknown'],
			[running[1].json.taskId, 1, 'unknown'],
		]);

		// The next pass, right away: nothing is due yet, so nothing is asked.
		const before = gateway.simulator.requests.length;
		const second = await runNode(waitNode({ mode: 'checkOnce' }), {
			credentials: gateway.credentials(),
			input: [{ json: packed.json }],
		});
		expect(gateway.simulator.requests.length).toBe(before);
		const stillPending = outputs(second)[3][0].json.pendingTasks as IDataObject[];
		expect(stillPending.map((task) => task.polls)).toEqual([1, 1]);

		// A pass two minutes later (as the Wait node would resume it): every time moves back by
		// two minutes, so the tasks are due and get checked again.
		const shifted = (value: unknown) => new Date(Date.parse(String(value)) - 120_000).toISOString();
		const later = stillPending.map((task) => ({
			...task,
			createdAt: shifted(task.createdAt),
			waitStartedAt: shifted(task.waitStartedAt),
			lastCheckedAt: shifted(task.lastCheckedAt),
			nextCheckAt: shifted(task.nextCheckAt),
		}));
		const third = await runNode(waitNode({ mode: 'checkOnce' }), {
			credentials: gateway.credentials(),
			input: [{ json: { ...packed.json, pendingTasks: later } }],
		});
		const thirdPending = outputs(third)[3][0].json.pendingTasks as IDataObject[];
		expect(thirdPending.map((task) => task.polls)).toEqual([2, 2]);
	});
});

describe('Model Gateway Wait for Task: a mixed batch within the Task family S polling rule', () => {
	/** Moves a created task (the gateway's record and the item) `ms` into the past. */
	function aged(item: TestItem, ms: number): TestItem {
		gateway.simulator.backdateTask(String(item.json.taskId), ms);
		const createdAt = Date.parse(String(item.json.createdAt)) - ms;
		return { json: { ...item.json, createdAt: new Date(createdAt).toISOString() } };
	}

	it('checks 100 mixed tasks once each where allowed; fresh S tasks wait, unqueried', async () => {
		const sTasks = await createTasks(
			'taskS',
			{ model: 's', taskSContent: { items: [{ type: 'text', text: 'a fox' }] } },
			30,
			0,
		);
		const others = [
			...(await createTasks('generic', { model: 'g', genericPrompt: 'a fox' }, 35)),
			...(await createTasks('familyC', { model: 'c', familyCPrompt: 'a fox' }, 35)),
		];
		const dueS = sTasks.slice(0, 15).map((item) => aged(item, 11 * 60_000));
		const freshS = sTasks.slice(15);
		// Interleaved, as rows of a sheet would be.
		const input = others.flatMap((item, index) =>
			index < 30 ? [item, index % 2 === 0 ? dueS[index / 2] : freshS[(index - 1) / 2]] : [item],
		);
		expect(input).toHaveLength(100);

		const result = await runNode(waitNode({ mode: 'checkOnce', options: { concurrency: 8 } }), {
			credentials: gateway.credentials(),
			input,
		});
		expect(result.error('Node Under Test')).toBeUndefined();
		const [succeeded, failed, timedOut, stillRunning] = outputs(result);
		expect([succeeded.length, failed.length, timedOut.length]).toEqual([85, 0, 0]);
		const pending = stillRunning[0].json.pendingTasks as IDataObject[];
		expect(pending.map((task) => task.taskId).sort()).toEqual(
			freshS.map((item) => String(item.json.taskId)).sort(),
		);
		for (const task of pending) {
			expect(task.polls).toBe(0);
			expect(Date.parse(String(task.nextCheckAt))).toBeGreaterThanOrEqual(
				Date.parse(String(task.createdAt)) + 600_000,
			);
		}
		// Every due task was asked about exactly once; no fresh S task at all. (The simulator
		// fixture also fails the test on any query against the rule.)
		for (const item of [...dueS, ...others]) {
			expect(gateway.simulator.pollLog(String(item.json.taskId))).toHaveLength(1);
		}
		for (const item of freshS) {
			expect(gateway.simulator.pollLog(String(item.json.taskId))).toHaveLength(0);
		}

		// An immediate second pass asks nothing: the rest are not due yet.
		const before = gateway.simulator.requests.length;
		const second = await runNode(waitNode({ mode: 'checkOnce' }), {
			credentials: gateway.credentials(),
			input: [{ json: stillRunning[0].json }],
		});
		expect(outputs(second)[3][0].json.pendingCount).toBe(15);
		expect(gateway.simulator.requests.length).toBe(before);
	});

	it('waits in the execution for S tasks past their first allowed check, one query each', async () => {
		const sTasks = (
			await createTasks(
				'taskS',
				{ model: 's', taskSContent: { items: [{ type: 'text', text: 'a fox' }] } },
				5,
				0,
			)
		).map((item) => aged(item, 11 * 60_000));
		const result = await runNode(waitNode(), { credentials: gateway.credentials(), input: sTasks });
		const [succeeded] = outputs(result);
		expect(succeeded.map((item) => [item.json.taskId, item.json.polls])).toEqual(
			sTasks.map((item) => [item.json.taskId, 1]),
		);
	});
});

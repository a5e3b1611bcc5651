import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { TASK_S_FIRST_QUERY_AFTER_MS } from '../simulator/tasks';
import { runNode, type RunResult } from './harness';
import { useSimulator } from './simulatorFixture';
import type { TestItem } from './testNodes';
import { videoNode } from './videoNode';
import { useFakeDate } from './fakeDate';

/**
 * The `nextCheckAt` Still Running publishes is a promise: fed straight back into Wait for Task
 * (Check Once and Route), a task is never queried before it. Time is jest's fake Date, standing
 * still between the test's jumps (timers stay real, so HTTP and n8n's engine run as usual); the
 * simulator runs in this process and records each query on the same clock, so nothing sleeps.
 */

// Tasks stay running for an hour: every check finds them unfinished.
const gateway = useSimulator({ queuedMs: 0, runningMs: 3_600_000 });

beforeEach(() => {
	useFakeDate();
});

afterEach(() => {
	jest.useRealTimers();
});

const setClock = (at: number) => jest.setSystemTime(at);

function outputs(result: RunResult): INodeExecutionData[][] {
	const runs = result.run.data.resultData.runData['Node Under Test'];
	return (runs?.[runs.length - 1]?.data?.main ?? []).map((output) => output ?? []);
}

/** One task, created through the Video node at the current (fake) time. */
async function createTask(family: 'familyA' | 'taskS'): Promise<IDataObject> {
	const parameters: IDataObject =
		family === 'familyA'
			? { model: 'a-video', familyAPrompt: 'a slow fox', familyAOptions: { aspect_ratio: '16:9' } }
			: { model: 's', taskSContent: { items: [{ type: 'text', text: 'a slow fox' }] } };
	const created = await runNode(videoNode(family, 'create', parameters), {
		credentials: gateway.credentials(),
	});
	expect(created.error('Node Under Test')).toBeUndefined();
	return created.items[0].json;
}

/** The ways a Still Running item comes back: as it is, or one item per task (a Split Out). */
const FED_BACK: Array<[string, (stillRunning: IDataObject) => TestItem[]]> = [
	['the Still Running item as it is', (stillRunning) => [{ json: stillRunning }]],
	[
		'its tasks one item each (as Split Out of pendingTasks makes them)',
		(stillRunning) =>
			(stillRunning.pendingTasks as IDataObject[]).map((task) => ({ json: { ...task } })),
	],
];

/** One pass of the loop: when it runs, and whether the clock moves on while it does. */
interface Pass {
	at: number;
	/**
	 * Every reading of the clock 1 ms after the one before, as a real clock may move on between
	 * two readings in one check; otherwise the clock stands still at `at`.
	 */
	ticking?: boolean;
}

/** Runs `run` on a clock that moves on 1 ms with every reading, from `from`. */
async function onTickingClock<T>(from: number, run: () => Promise<T>): Promise<T> {
	let readings = 0;
	const now = jest.spyOn(Date, 'now').mockImplementation(() => from + readings++);
	try {
		return await run();
	} finally {
		now.mockRestore();
	}
}

/** What one pass did: when it ran, the task's queries it made, the nextCheckAt it published. */
interface PassRecord {
	at: number;
	queries: number[];
	nextCheckAt: number;
}

/**
 * Runs Check Once and Route at `first`, then at each of `later` (given the nextCheckAt the first
 * pass published), every pass fed the Still Running of the one before. The queries are the
 * times the simulator recorded them.
 */
async function loop(
	task: IDataObject,
	parameters: IDataObject,
	feedBack: (stillRunning: IDataObject) => TestItem[],
	first: Pass,
	later: (nextCheckAt: number) => Pass[],
): Promise<PassRecord[]> {
	const taskId = String(task.taskId);
	const passes: PassRecord[] = [];
	let input: TestItem[] = [{ json: task }];
	const run = async (pass: Pass) => {
		setClock(pass.at);
		const queriesBefore = gateway.simulator.pollLog(taskId).length;
		const runPass = () =>
			runNode(
				{ type: 'modelGatewayWaitForTask', parameters: { mode: 'checkOnce', ...parameters } },
				{ credentials: gateway.credentials(), input },
			);
		const result = pass.ticking ? await onTickingClock(pass.at, runPass) : await runPass();
		expect(result.error('Node Under Test')).toBeUndefined();
		const [succeeded, failed, timedOut, stillRunning] = outputs(result);
		expect([succeeded.length, failed.length, timedOut.length, stillRunning.length]).toEqual([
			0, 0, 0, 1,
		]);
		const [pending] = stillRunning[0].json.pendingTasks as IDataObject[];
		expect(pending.taskId).toBe(taskId);
		passes.push({
			at: pass.at,
			queries: gateway.simulator.pollLog(taskId).slice(queriesBefore),
			nextCheckAt: Date.parse(String(pending.nextCheckAt)),
		});
		input = feedBack(stillRunning[0].json);
	};
	await run(first);
	for (const pass of later(passes[0].nextCheckAt)) await run(pass);
	return passes;
}

/**
 * What the loop must show: every query comes at or after the nextCheckAt the pass before
 * published; the task is queried by the first pass and by the last (at its time) only; and
 * until then every pass publishes the same time.
 */
function expectPromisesKept(passes: PassRecord[]): void {
	for (const [index, pass] of passes.entries()) {
		if (index === 0) continue;
		for (const query of pass.queries) {
			expect(query - passes[index - 1].nextCheckAt).toBeGreaterThanOrEqual(0);
		}
	}
	expect(passes.map((pass) => pass.queries.length)).toEqual(
		passes.map((_, index) => (index === 0 || index === passes.length - 1 ? 1 : 0)),
	);
	expect(passes[passes.length - 1].queries).toEqual([passes[0].nextCheckAt]);
	const published = passes.slice(0, -1).map((pass) => pass.nextCheckAt);
	expect(published).toEqual(published.map(() => passes[0].nextCheckAt));
}

/**
 * Tasks whose published interval is longer than their family's shortest gap between checks: the
 * gap is where a pass that forgot the published time would check them.
 */
const LONGER_THAN_THE_GAP: Array<
	[string, 'familyA' | 'taskS', IDataObject, { ageMs: number; gapMs: number; intervalMs: number }]
> = [
	[
		'Family A, 5 minutes old: its interval grown to 15 s, its gap 10 s',
		'familyA',
		{},
		{ ageMs: 5 * 60_000, gapMs: 10_000, intervalMs: 15_000 },
	],
	[
		'Task family S with a 120 s Check Interval: its gap a minute and the margin',
		'taskS',
		{ intervalSeconds: 120 },
		{ ageMs: TASK_S_FIRST_QUERY_AFTER_MS + 60_000, gapMs: 61_000, intervalMs: 120_000 },
	],
];

describe('Wait for Task: a task fed straight back is never checked before its nextCheckAt', () => {
	describe.each(FED_BACK)('fed back as %s', (_shape, feedBack) => {
		it.each(LONGER_THAN_THE_GAP)(
			'%s: checked at its nextCheckAt, not at the gap after its last check',
			async (_name, family, parameters, { ageMs, gapMs, intervalMs }) => {
				const task = await createTask(family);
				const start = Date.now() + ageMs;
				// Checked first at `ageMs`; then passes at the gap, 1 ms before the published
				// time, and at it.
				const passes = await loop(task, parameters, feedBack, { at: start }, (next) => [
					{ at: start + gapMs },
					{ at: next - 1 },
					{ at: next },
				]);
				expect(passes[0].nextCheckAt - passes[0].queries[0]).toBe(intervalMs);
				expectPromisesKept(passes);
			},
		);

		it('Task family S: after a check on a clock that moves on, the published time is the time it is checked next', async () => {
			const task = await createTask('taskS');
			const start = Date.now() + TASK_S_FIRST_QUERY_AFTER_MS + 60_000;
			const passes = await loop(task, {}, feedBack, { at: start, ticking: true }, (next) => [
				{ at: next - 1 },
				{ at: next },
			]);
			expect(passes[0].nextCheckAt - passes[0].queries[0]).toBeGreaterThanOrEqual(60_000);
			expectPromisesKept(passes);
		});
	});
});

/**
 * The Task Callback Trigger in real n8n, on its production URL with the workflow active (2.x:
 * published): the example pair (examples/task-callback-*.json) creates a batch of Task family S
 * videos whose callbacks the simulator sends over real HTTP (queued, running, the final state
 * twice); the test then replays a stale "running" for every task. Every final event must start
 * exactly one execution of the react workflow, and none may be lost.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSimulator, type Simulator } from '../simulator';
import { callbackStatus, captureTaskCallbacks, inFlight } from './callbackBodies';
import { EXAMPLES_DIR, simulatorCredentials } from './examples';
import {
	N8N_LINES,
	freePort,
	loadWorkflow,
	nodeOutput,
	packPackage,
	startN8n,
	type N8nInstance,
	type PackedPackage,
	type WorkflowJson,
} from './harness';

/** The URL the create example ships with; the test points it at this n8n. */
const SHIPPED_N8N_URL = 'http://localhost:5678';
const TRIGGER_PATH = '8f6c1a52-3b0e-4c8e-9d7a-5e2f1c0b7a10/video-done-3f9c2a71e4b8';
// n8n saves static data only for workflow ids of at most 16 characters (isWorkflowIdValid,
// packages/cli/src/utils.ts): the duplicate memory needs a short id.
const CREATE_ID = 'mgTaskCbCreate01';
const REACT_ID = 'mgTaskCbReact001';

let sim: Simulator;
let packDir: string;
let gatewayPackage: PackedPackage;

beforeAll(async () => {
	sim = await startSimulator({ queuedMs: 200, runningMs: 400 });
	packDir = mkdtempSync(join(process.env.MG_E2E_RUN_DIR ?? tmpdir(), 'mg-e2e-pack-'));
	gatewayPackage = await packPackage(packDir);
});

afterAll(async () => {
	await sim?.close();
	if (packDir) rmSync(packDir, { recursive: true, force: true });
});

describe.each(N8N_LINES)('Task Callback Trigger on n8n line %s.x', (line) => {
	let n8n: N8nInstance | undefined;

	beforeAll(async () => {
		// The port must be known before import: the create example's callback URL names it.
		const port = await freePort();
		const shipped = JSON.stringify(
			loadWorkflow(join(EXAMPLES_DIR, 'task-callback-create.json'), CREATE_ID),
		);
		if (!shipped.includes(`${SHIPPED_N8N_URL}/webhook/${TRIGGER_PATH}`))
			throw new Error('the create example no longer calls back to the react example');
		n8n = await startN8n({
			line,
			port,
			packages: [gatewayPackage.tarball],
			credentials: simulatorCredentials(sim),
			workflows: [
				loadWorkflow(join(EXAMPLES_DIR, 'task-callback-react.json'), REACT_ID),
				JSON.parse(shipped.split(SHIPPED_N8N_URL).join(`http://127.0.0.1:${port}`)) as WorkflowJson,
			],
		});
		await n8n.activateWorkflow(REACT_ID);
		await n8n.waitForWebhook(TRIGGER_PATH);
	});

	afterAll(async () => {
		await n8n?.stop();
	});

	// One simulator for both lines: each test counts only its own callbacks.
	beforeEach(() => sim.reset());

	function running(): N8nInstance {
		if (!n8n) throw new Error('n8n did not start');
		return n8n;
	}

	test('a batch of 20 creates: every finished video starts an execution, stale events never do, none lost (duplicates measured)', async () => {
		const { execution } = await running().runManualWorkflow(CREATE_ID);
		expect(execution.status).toBe('success');
		const taskIds = nodeOutput(execution, 'Create Video Tasks').map((task) => String(task.taskId));
		expect(new Set(taskIds).size).toBe(20);

		// queued, running, final, final again 25 ms later, then a stale running: 5 callbacks per
		// task, every one answered 200.
		const deadline = Date.now() + 60_000;
		while (
			(sim.callbacks.length < 100 ||
				sim.callbacks.some((callback) => callback.status === undefined)) &&
			Date.now() < deadline
		) {
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		expect(sim.callbacks.map((callback) => callback.status)).toEqual(Array(100).fill(200));

		// The stale "running" of every task, sent again after its final state: never started.
		const runningCallbacks = sim.callbacks.filter(
			(callback) => (callback.body as { status?: string }).status === 'running',
		);
		expect(runningCallbacks).toHaveLength(40);
		const stale = runningCallbacks.slice(-20);
		const staleAnswers: unknown[] = [];
		for (const callback of stale) {
			const answer = await running().http('POST', `/webhook/${TRIGGER_PATH}`, {
				body: callback.body,
			});
			expect(answer.status).toBe(200);
			staleAnswers.push((JSON.parse(answer.body) as { started: boolean }).started);
		}
		expect(staleAnswers).toEqual(Array(20).fill(false));

		// n8n reads and writes static data whole per call (last writer wins), so a final copy
		// arriving while another call of the batch is being saved can pass the trigger.
		// Duplicate executions may still be running when the 20th stops: wait until every task is in.
		const recordedIn = (runs: Awaited<ReturnType<N8nInstance['waitForExecutions']>>) =>
			runs.flatMap((run) =>
				run.data?.resultData.runData['Record Result']?.length
					? nodeOutput(run, 'Record Result')
					: [],
			);
		let executions = await running().waitForExecutions(REACT_ID, 20);
		const settleBy = Date.now() + 60_000;
		while (
			new Set(recordedIn(executions).map((result) => String(result.taskId))).size < 20 &&
			Date.now() < settleBy
		) {
			await new Promise((resolve) => setTimeout(resolve, 500));
			executions = await running().waitForExecutions(REACT_ID, executions.length);
		}
		const recorded = recordedIn(executions);
		// Exactly once and none lost: the final copies arrive 25 ms apart on one n8n process,
		// where the trigger's process memory tells them apart (static data alone would not).
		expect(recorded.map((result) => String(result.taskId)).sort()).toEqual([...taskIds].sort());
		expect(executions).toHaveLength(20);
		expect(executions.map((execution) => execution.status)).toEqual(Array(20).fill('success'));
		for (const result of recorded) {
			expect(result).toMatchObject({ status: 'succeeded', error: null });
			expect(String(result.videoUrl)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/.+\.mp4$/);
		}
		process.stderr.write(
			`[e2e] task trigger, n8n ${line}.x: 20 tasks, 100 callbacks + 20 stale replays → ${executions.length} executions started (${executions.length - 20} duplicate finals), ${recorded.length} recorded, ${20 - new Set(recorded.map((result) => String(result.taskId))).size} lost\n`,
		);
	});

	test('a restart forgets no final it heard: 250 tasks, 1,000 callbacks at 8 in flight, then every final replayed after the restart starts nothing', async () => {
		// Real callback bodies: 250 Task family S tasks, four callbacks each (queued, running, the
		// final state twice), in the order the simulator sent them.
		const callbacks = await captureTaskCallbacks(sim, 250);
		expect(callbacks).toHaveLength(1000);

		const post = async (body: unknown) => {
			const answer = await running().http('POST', `/webhook/${TRIGGER_PATH}`, { body });
			expect(answer.status).toBe(200);
			// Started or not, the answer is the trigger's JSON summary (not n8n's "firstEntryJson").
			return JSON.parse(answer.body) as { started: boolean; taskId: string; dropped?: string };
		};
		const answers = await inFlight(8, callbacks, post);
		const started = answers.filter((answer) => answer.started).map((answer) => answer.taskId);
		expect(started).toHaveLength(250);
		expect(new Set(started).size).toBe(250);

		n8n = await running().restart();
		await running().waitForWebhook(TRIGGER_PATH);
		const finals = callbacks.filter((body) => callbackStatus(body) === 'succeeded');
		const unique = [...new Map(finals.map((body) => [(body as { id: string }).id, body])).values()];
		expect(unique).toHaveLength(250);
		const replayed = await inFlight(8, unique, post);
		const startedAgain = replayed.filter((answer) => answer.started);
		process.stderr.write(
			`[e2e] task trigger restart, n8n ${line}.x: 250 tasks, 1,000 callbacks at 8 in flight → ${started.length} executions; after a restart 250 finals replayed → ${startedAgain.length} second executions\n`,
		);
		expect(startedAgain).toEqual([]);
		expect(new Set(replayed.map((answer) => answer.dropped))).toEqual(new Set(['duplicate']));
	});

	test('a wrong secret never starts the workflow', async () => {
		const answer = await running().http(
			'POST',
			`/webhook/${TRIGGER_PATH.replace(/\/.*/, '/guess')}`,
			{
				body: { id: 'x', status: 'succeeded' },
			},
		);
		expect(answer.status).toBe(404);
	});
});

/**
 * Wait for Task's durable pattern in real n8n: the shipped example `video-batch-durable-loop.json`
 * (Check Once and Route, Still Running → n8n's Wait node → back) parks in the database between
 * passes and gets every task out exactly once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSimulator, type Simulator } from '../simulator';
import { exampleWorkflowId, loadExamples, simulatorCredentials } from './examples';
import {
	N8N_LINES,
	REPO_ROOT,
	allRunsOutput,
	loadWorkflow,
	packPackage,
	startN8n,
	type N8nInstance,
	type PackedPackage,
} from './harness';

/** The Wait node waits ≥ 70 s and n8n's wait tracker resumes to within a minute. */
const RESUME_TIMEOUT_MS = 240_000;
const LOOP = 'video-batch-durable-loop.json';
/** Check Once and Route with Still Running wired straight back into it, no Wait node. */
const STRAIGHT_BACK = loadWorkflow(
	join(REPO_ROOT, 'test/e2e/workflows/wait-loop-straight-back.json'),
);
const STRAIGHT_BACK_S = loadWorkflow(
	join(REPO_ROOT, 'test/e2e/workflows/wait-loop-straight-back-s.json'),
);

let sim: Simulator;
let packDir: string;
let gatewayPackage: PackedPackage;

beforeAll(async () => {
	// Tasks finish a few seconds after creation: the first pass finds them running (their first
	// check is not due yet), the pass after the restart finds them done.
	sim = await startSimulator({ queuedMs: 1_000, runningMs: 2_000 });
	packDir = mkdtempSync(join(process.env.MG_E2E_RUN_DIR ?? tmpdir(), 'mg-e2e-pack-'));
	gatewayPackage = await packPackage(packDir);
});

afterAll(async () => {
	await sim?.close();
	if (packDir) rmSync(packDir, { recursive: true, force: true });
});

/**
 * Restarts are not part of this test. n8n (1.x and 2.x) in regular mode marks an execution parked
 * in a Wait node "crashed" at start-up once its node events are in n8n's event log: its crash
 * recovery amends every execution the log shows started and not ended, `waiting` included, and
 * n8n logs no end for a wait (execution-lifecycle-hooks: workflowExecuteAfter returns early for
 * `waiting`). The loop's restart is tested in queue mode (queueMode.e2e.test.ts restarts the main
 * process mid-wait, both lines), where the main process does not run it.
 */
describe.each(N8N_LINES)('n8n line %s.x: Wait for Task loops', (line) => {
	let n8n: N8nInstance | undefined;

	beforeAll(async () => {
		n8n = await startN8n({
			line,
			packages: [gatewayPackage.tarball],
			credentials: simulatorCredentials(sim),
			workflows: [
				...loadExamples(line).filter((workflow) => workflow.id === exampleWorkflowId(LOOP)),
				STRAIGHT_BACK,
				STRAIGHT_BACK_S,
			],
		});
	});

	afterAll(async () => {
		await n8n?.stop();
	});

	test('every wait of the loop is stored in the database, and the loop gets every task out once', async () => {
		if (!n8n) throw new Error('n8n did not start');
		sim.reset();
		const executionId = await n8n.startManualWorkflow(exampleWorkflowId(LOOP));
		// Parked as `waiting`: n8n's Wait node stored the wait (a wait under 65 s stays `running`,
		// in memory).
		const parked = await n8n.waitForExecutionStatus(executionId, 'waiting');
		expect(parked.status).toBe('waiting');
		const creates = sim.requestsTo('POST', '/v1/videos');
		expect(creates).toHaveLength(20);
		// The first pass asked nothing: no task was due yet.
		expect(sim.requestsTo('GET', '/v1/videos/')).toHaveLength(0);

		const execution = await n8n.waitForExecution(executionId, RESUME_TIMEOUT_MS);
		expect(execution.status).toBe('success');
		const finished = allRunsOutput(execution, 'Finished Videos');
		const createdIds = allRunsOutput(execution, 'Create Video Tasks').map((task) => task.taskId);
		expect(createdIds).toHaveLength(20);
		expect(finished.map((task) => task.taskId).sort()).toEqual([...createdIds].sort());
		for (const task of finished) {
			expect(task).toMatchObject({ family: 'generic', status: 'succeeded', done: true, polls: 1 });
		}
		expect(allRunsOutput(execution, 'Failed or Timed Out')).toEqual([]);
		// Each task was asked about exactly once, in the pass after the wait; none created twice.
		expect(sim.requestsTo('GET', '/v1/videos/')).toHaveLength(20);
		expect(sim.requestsTo('POST', '/v1/videos')).toHaveLength(20);
	});

	test('Still Running wired straight back, no Wait node: the loop does not spin; each task is checked once, when due', async () => {
		if (!n8n) throw new Error('n8n did not start');
		sim.reset();
		const { execution } = await n8n.runManualWorkflow(STRAIGHT_BACK.id);
		expect(execution.status).toBe('success');
		// The first pass finds nothing due (a generic task's first check is 10 s after its
		// creation) and routes it all to Still Running; the second waits for it inside the node.
		// A spinning loop runs the node thousands of times in those seconds.
		expect(execution.data?.resultData.runData['Check Videos']).toHaveLength(2);
		const createdIds = allRunsOutput(execution, 'Create Video Tasks').map((task) => task.taskId);
		expect(createdIds).toHaveLength(4);
		const finished = allRunsOutput(execution, 'Finished Videos');
		expect(finished.map((task) => task.taskId).sort()).toEqual([...createdIds].sort());
		for (const task of finished) expect(task).toMatchObject({ status: 'succeeded', polls: 1 });
		const queries = sim.requestsTo('GET', '/v1/videos/');
		expect(queries).toHaveLength(4);
		for (const task of allRunsOutput(execution, 'Create Video Tasks')) {
			const query = queries.find((request) => request.path.endsWith(String(task.taskId)));
			expect(query?.at).toBeGreaterThanOrEqual(Date.parse(String(task.createdAt)) + 10_000);
		}
	});

	test('Still Running wired straight back with a check minutes away (Task family S): the run stops and says to put a Wait node in the loop', async () => {
		if (!n8n) throw new Error('n8n did not start');
		sim.reset();
		const { execution } = await n8n.runManualWorkflow(STRAIGHT_BACK_S.id);
		expect(execution.status).toBe('error');
		const runs = execution.data?.resultData.runData['Check Videos'] ?? [];
		expect(runs).toHaveLength(2);
		expect(runs[1].error?.message).toMatch(
			/^Still Running is connected straight back to this node, and no task is due for \d+ s/,
		);
		expect(sim.requestsTo('POST', '/v1/task/')).toHaveLength(1);
		expect(sim.requestsTo('GET', '/v1/task/')).toHaveLength(0);
	});
});

/**
 * Wait for Task's durable pattern in real n8n: the shipped example `video-batch-durable-loop.json`
 * (Check Once and Route, Still Running → n8n's Wait node → back) is stopped while its Wait node
 * waits, n8n is restarted on the same database, and every task still comes out exactly once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSimulator, type Simulator } from '../simulator';
import { exampleWorkflowId, loadExamples, simulatorCredentials } from './examples';
import {
	N8N_LINES,
	allRunsOutput,
	packPackage,
	startN8n,
	type N8nInstance,
	type PackedPackage,
} from './harness';

/** The Wait node waits ≥ 65 s and n8n's wait tracker resumes to within a minute. */
const RESUME_TIMEOUT_MS = 240_000;
const LOOP = 'video-batch-durable-loop.json';

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
 * n8n 2.41 in regular mode cannot keep this promise: at start-up its crash recovery amends every
 * execution its event log shows unfinished and with node events, `waiting` included, and it
 * logs no end for a timer wait (execution-lifecycle-hooks: workflowExecuteAfter returns early
 * for `waiting`), so a loop parked in the Wait node is marked "crashed" by a restart once those
 * events are written. On 2.x the loop survives restarts in queue mode, where the main process
 * does not run it (queueMode.e2e.test.ts restarts the main process mid-wait).
 */
const REGULAR_MODE_RESTART_LINES = N8N_LINES.filter((line) => line === 1);

if (REGULAR_MODE_RESTART_LINES.length === 0) {
	test('on 2.x alone, the restart of a regular-mode loop is not a promise (see above)', () => {
		expect(N8N_LINES).not.toContain(1);
	});
}

if (REGULAR_MODE_RESTART_LINES.length > 0)
	describe.each(REGULAR_MODE_RESTART_LINES)(
		'n8n line %s.x: Wait for Task survives a restart',
		(line) => {
			let n8n: N8nInstance | undefined;

			beforeAll(async () => {
				n8n = await startN8n({
					line,
					packages: [gatewayPackage.tarball],
					credentials: simulatorCredentials(sim),
					workflows: loadExamples().filter((workflow) => workflow.id === exampleWorkflowId(LOOP)),
				});
			});

			afterAll(async () => {
				await n8n?.stop();
			});

			test('a Check Once loop stopped mid-wait resumes after the restart and gets every task out once', async () => {
				if (!n8n) throw new Error('n8n did not start');
				sim.reset();
				const executionId = await n8n.startManualWorkflow(exampleWorkflowId(LOOP));
				const parked = await n8n.waitForExecutionStatus(executionId, 'waiting');
				expect(parked.status).toBe('waiting');
				const creates = sim.requestsTo('POST', '/v1/videos');
				expect(creates).toHaveLength(20);
				// The first pass asked nothing: no task was due yet.
				expect(sim.requestsTo('GET', '/v1/videos/')).toHaveLength(0);

				n8n = await n8n.restart();
				const execution = await n8n.waitForExecution(executionId, RESUME_TIMEOUT_MS);
				expect(execution.status).toBe('success');

				const finished = allRunsOutput(execution, 'Finished Videos');
				const createdIds = allRunsOutput(execution, 'Create Video Tasks').map(
					(task) => task.taskId,
				);
				expect(createdIds).toHaveLength(20);
				expect(finished.map((task) => task.taskId).sort()).toEqual([...createdIds].sort());
				for (const task of finished) {
					expect(task).toMatchObject({
						family: 'generic',
						status: 'succeeded',
						done: true,
						polls: 1,
					});
				}
				expect(allRunsOutput(execution, 'Failed or Timed Out')).toEqual([]);
				// Each task was asked about exactly once, after the restart; none was created twice.
				expect(sim.requestsTo('GET', '/v1/videos/')).toHaveLength(20);
				expect(sim.requestsTo('POST', '/v1/videos')).toHaveLength(20);
			});
		},
	);

/**
 * The batch recipe of examples/video-data-table-batch.json when a worker dies in the middle of a
 * chunk, on n8n's queue mode (real Redis and Postgres, one main process, two workers): every
 * worker is killed (SIGKILL, no grace) while the example's Create Video Tasks node is sending
 * the second chunk, the workers start again, and the workflow is run again, as a user would.
 *
 * What must hold (issue 32): no row's task is created twice; every task the gateway created and
 * billed is on its row, except, where the gateway gives no way to know, at most one chunk of
 * tasks whose rows the re-run reports (claimed, no task known). Family A tasks call back with
 * their row's key in the URL, so those come home through the Task Callback Trigger.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSimulator, type Simulator } from '../simulator';
import {
	DATA_TABLE_EXAMPLE,
	createVideoTable,
	setExampleSetting,
	useVideoTable,
	type VideoTable,
	type VideoTableRow,
} from './dataTable';
import {
	EXAMPLES_DIR,
	createExampleFolders,
	exampleWorkflowId,
	simulatorCredentials,
} from './examples';
import {
	N8N_LINES,
	allRunsOutput,
	delay,
	loadWorkflow,
	packPackage,
	type Execution,
	type PackedPackage,
	type WorkflowJson,
} from './harness';
import {
	startQueueMode,
	startQueueServices,
	type QueueModeN8n,
	type QueueServices,
} from './queueMode';

const WORKFLOW_ID = exampleWorkflowId(DATA_TABLE_EXAMPLE);
const CHUNK = 10;
/** Killed when this many creates reached the gateway: inside the second chunk. */
const KILL_AT_CREATE = 13;
const RUN_TIMEOUT_MS = 420_000;
const CREATE_PATHS = [
	'/v1/videos',
	'/vendor-a/v1/videos/omni-video',
	'/vendor-c/ent/v2/reference2video',
];

/** 24 rows, three families in turn (so the killed chunk holds tasks that call back and some that cannot). */
const ROWS: VideoTableRow[] = Array.from({ length: 24 }, (_, index) => {
	const prompt = `Crash batch row ${String(index + 1).padStart(2, '0')}`;
	switch (index % 3) {
		case 0:
			return { family: 'generic', model: 'video-model-1', prompt };
		case 1:
			return {
				family: 'familyA',
				model: 'kling-video-2',
				endpoint: 'omni-video',
				prompt,
				request: '{"aspect_ratio": "16:9"}',
			};
		default:
			return { family: 'familyC', model: 'vidu-q1', prompt };
	}
});

function promptOf(body: unknown): string {
	return String((body as { prompt?: unknown } | undefined)?.prompt ?? '');
}

let sim: Simulator;
let packDir: string;
let gatewayPackage: PackedPackage;

beforeAll(async () => {
	sim = await startSimulator({ queuedMs: 500, runningMs: 2_000 });
	packDir = mkdtempSync(join(process.env.MG_E2E_RUN_DIR ?? tmpdir(), 'mg-e2e-pack-'));
	gatewayPackage = await packPackage(packDir);
});

afterAll(async () => {
	await sim?.close();
	if (packDir) rmSync(packDir, { recursive: true, force: true });
});

async function until(what: string, timeoutMs: number, done: () => boolean | Promise<boolean>) {
	const deadline = Date.now() + timeoutMs;
	while (!(await done())) {
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
		await delay(100);
	}
}

describe.each(N8N_LINES)('n8n line %s.x in queue mode: a worker dies mid-create', (line) => {
	let services: QueueServices | undefined;
	let cluster: QueueModeN8n | undefined;
	let table: VideoTable;

	beforeAll(async () => {
		services = await startQueueServices();
		const workflow = loadWorkflow(join(EXAMPLES_DIR, DATA_TABLE_EXAMPLE), WORKFLOW_ID);
		cluster = await startQueueMode({
			line,
			services,
			packages: [gatewayPackage.tarball],
			credentials: simulatorCredentials(sim),
			workflows: [workflow],
		});
		const { main } = cluster;
		for (const worker of cluster.workers) createExampleFolders(worker.userFolder);
		const trigger = workflow.nodes.find((node) => node.name === 'Task Callback Trigger');
		const triggerPath = `${String(trigger?.webhookId)}/${String(trigger?.id)}`;
		table = await createVideoTable(main, ROWS);
		await main.updateWorkflow(WORKFLOW_ID, (stored: WorkflowJson) => {
			useVideoTable(stored, table.id);
			setExampleSetting(stored, 'callbackUrl', main.webhookUrl(triggerPath));
		});
		await main.activateWorkflow(WORKFLOW_ID);
		await main.waitForWebhook(triggerPath);
	}, 600_000);

	afterAll(async () => {
		await cluster?.stop();
		await services?.stop();
	}, 120_000);

	test('killed in the second chunk, run again: no row created twice, every billed task on its row or reported', async () => {
		if (!cluster) throw new Error('queue mode did not start');
		const n8n = cluster;
		// Every create that reached the gateway counts as billed, answered or not: one whose
		// answer met a dead worker was still processed.
		const paid = () => CREATE_PATHS.flatMap((path) => sim.requestsTo('POST', path));
		// Creates take 400 ms, so the kill lands while a chunk is being sent.
		sim.setOptions({ latencyMs: 400 });
		const killedRun = await n8n.main.startManualWorkflow(WORKFLOW_ID);
		await until(
			`${KILL_AT_CREATE} creates`,
			180_000,
			() =>
				CREATE_PATHS.some((path) => sim.requestsTo('POST', path).length > 0) &&
				CREATE_PATHS.flatMap((path) => sim.requestsTo('POST', path)).length >= KILL_AT_CREATE,
		);
		await Promise.all(n8n.workers.map((worker) => worker.kill()));
		const killedAt = Date.now();
		const killedAfter = paid().length;
		// The table as the dead run left it (no worker runs the trigger's executions yet).
		const rowsAfterKill = await table.rows();
		sim.setOptions({ latencyMs: 0 });
		for (const worker of n8n.workers) await worker.start();

		const writtenBeforeKill = rowsAfterKill.filter((row) => row.taskId).length;
		const claimedBeforeKill = rowsAfterKill.filter((row) => row.claimedAt).length;
		expect(claimedBeforeKill).toBe(2 * CHUNK);
		expect(writtenBeforeKill).toBe(CHUNK);

		// Family A tasks of the killed chunk call back with their row's key: the trigger (run by
		// the restarted workers) writes them to their rows.
		const paidA = () => sim.requestsTo('POST', '/vendor-a/v1/videos/omni-video');
		await until('the killed chunk’s Family A tasks attached to their rows', 120_000, async () => {
			const rows = await table.rows();
			return paidA().every((request) =>
				rows.some((row) => row.prompt === promptOf(request.body) && row.taskId),
			);
		});

		// The user runs the workflow again.
		const rerunId = await n8n.main.startManualWorkflow(WORKFLOW_ID);
		const rerun: Execution = await n8n.main.waitForExecution(rerunId, RUN_TIMEOUT_MS);
		expect({ status: rerun.status, error: rerun.data?.resultData.error?.message }).toEqual({
			status: 'success',
			error: undefined,
		});
		const killed = await n8n.main.publicApi<Execution>('GET', `/executions/${killedRun}`);
		expect(killed.status).not.toBe('success');

		// No prompt created twice, ever.
		const creates = CREATE_PATHS.flatMap((path) => sim.requestsTo('POST', path)).map((r) =>
			promptOf(r.body),
		);
		expect(creates.length).toBe(new Set(creates).size);

		// Every billed task is on its row, or its row is reported; at most one chunk's worth.
		const rows = await table.rows();
		const rowOf = (prompt: string) => rows.find((row) => row.prompt === prompt);
		const reported = allRunsOutput(rerun, 'Look at These Rows (may be billed, no task known)').map(
			(row) => String(row.prompt),
		);
		const billed = paid();
		const unrecorded = billed.filter((request) => !rowOf(promptOf(request.body))?.taskId);
		for (const request of unrecorded) expect(reported).toContain(promptOf(request.body));
		expect(unrecorded.length).toBeLessThanOrEqual(CHUNK);
		// Family A tasks came home by callback: none of them is unrecorded.
		expect(unrecorded.filter((request) => request.path.startsWith('/vendor-a/'))).toEqual([]);
		// Each reported row was claimed by the killed chunk; every other row is finished, once.
		expect(reported.length).toBeLessThanOrEqual(CHUNK);
		for (const row of rows) {
			if (reported.includes(String(row.prompt))) {
				expect(row).toMatchObject({ taskId: null, claimedAt: expect.any(String) });
				continue;
			}
			expect(row).toMatchObject({
				taskId: expect.any(String),
				status: 'succeeded',
				finishedAt: expect.any(String),
				file: expect.any(String),
			});
		}
		const attachedByCallback = paidA().filter((request) => {
			if (request.at > killedAt) return false;
			const row = rowOf(promptOf(request.body));
			return row && rowsAfterKill.find((before) => before.id === row.id)?.taskId == null;
		}).length;
		process.stderr.write(
			`data-table crash on n8n ${line}.x queue mode: killed after ${killedAfter} billed creates (${claimedBeforeKill} rows claimed, ${writtenBeforeKill} written back); ` +
				`${attachedByCallback} attached by callback; re-run: ${billed.length} billed in all for ${rows.length} rows, ` +
				`${creates.length - new Set(creates).size} created twice, ${unrecorded.length} billed and on no row (all reported), ` +
				`${reported.length} rows reported (${reported.length - unrecorded.length} of them never sent), ` +
				`${rows.filter((row) => row.finishedAt).length} rows finished\n`,
		);
	}, 900_000);
});

/**
 * examples/video-data-table-batch.json in real n8n: an n8n Data Table is the sheet. The test
 * creates the table and its rows headlessly (the editor's REST API), points the example's Data
 * table nodes at it, sets its callback URL, activates it (its Task Callback Trigger listens) and
 * runs it as shipped, then reads the table back.
 *
 * The table holds what a real sheet holds on a later run: 12 new rows (two chunks), 3 Task
 * family S rows created by an earlier run and still without a result, a Family A row an earlier
 * run claimed and paid for but never wrote back (its task calls back with the row's key), and a
 * generic row an earlier run claimed without any task recorded (nothing can find it: reported).
 * One new row lacks a field its endpoint requires: refused before the gateway, its row says why.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSimulator, type Simulator } from '../simulator';
import { SAMPLE_MP4 } from '../simulator/media';
import {
	DATA_TABLE_EXAMPLE,
	countBy,
	createRequestPrompt,
	createVideoTable,
	exampleCallbackPath,
	exampleCallbackSecret,
	useVideoTable,
	videoCreates,
	videoRows,
	type VideoTable,
	type VideoTableRow,
} from './dataTable';
import {
	EXAMPLES_DIR,
	EXAMPLE_VIDEO_FOLDER,
	SHIPPED_LOOP_WAIT_SECONDS,
	createExampleFolders,
	exampleWorkflowId,
	simulatorCredentials,
	withShortLoopWait,
} from './examples';
import {
	N8N_LINES,
	allRunsOutput,
	loadWorkflow,
	packPackage,
	startN8n,
	until,
	type Execution,
	type N8nInstance,
	type NodeRun,
	type PackedPackage,
	type WorkflowJson,
} from './harness';

const WORKFLOW_ID = exampleWorkflowId(DATA_TABLE_EXAMPLE);
/** The example's chunk size (Loop Over Items). */
const CHUNK = 10;
/** Loops through n8n's Wait node (≥ 65 s, resumed by n8n's wait tracker). */
const RUN_TIMEOUT_MS = 420_000;
/** Tasks are recorded as created 11 minutes ago: an earlier run's Task family S tasks are due. */
const TASK_AGE_MS = 11 * 60_000;
const ELEVEN_MINUTES_AGO = () => new Date(Date.now() - TASK_AGE_MS).toISOString();

const EARLIER_S_PROMPTS = [
	'Steam rising from a cup of coffee',
	'Snow falling on a quiet street',
	'A paper boat on a pond',
];
const INVALID_PROMPT = 'A hot air balloon at sunrise';
const ORPHAN_PROMPT = 'A fox crossing a snowy field';
const STUCK_PROMPT = 'A clock tower at noon';
/** A row whose task id the gateway does not know (issue 48): it fails alone, the run goes on. */
const POISONED_PROMPT = 'A lantern in the fog';
const POISONED_TASK_ID = 'video_poisoned_00';

/** 12 new rows, families by id and by name; the result columns are left empty (null). */
const NEW_ROWS: VideoTableRow[] = videoRows([
	['Generic Video', 'video-model-1', '', 'A lighthouse at dusk', '{"duration": 6, "size": "768p"}'],
	['generic', 'video-model-1', '', 'Rain on a window at night', ''],
	['generic', 'video-model-1', '', 'A sneaker turning slowly', ''],
	['Generic Video', 'video-model-1', '', 'Waves rolling onto a beach', ''],
	['generic', 'video-model-1', '', 'A city street in the rain', ''],
	[
		'Family A',
		'kling-video-2',
		'omni-video',
		'A red kite over green hills',
		'{"aspect_ratio": "16:9", "mode": "std"}',
	],
	[
		'familyA',
		'kling-video-2',
		'image2video',
		'The garden photo comes alive',
		'{"image": "https://example.com/garden.png"}',
	],
	['Family A', 'kling-video-2', '', 'A paper plane over a city', '{"aspect_ratio": "9:16"}'],
	// Omni video without aspect_ratio: refused by the node, never sent.
	['familyA', 'kling-video-2', '', INVALID_PROMPT, ''],
	['Family C', 'vidu-q1', '', 'Two friends talking in a cafe', ''],
	['familyC', 'vidu-q1', '', 'A cat watching birds', ''],
	['Family C', 'vidu-q1', '', 'A train crossing a bridge', ''],
]);

interface TimedRun extends NodeRun {
	startTime?: number;
	executionTime?: number;
}

let sim: Simulator;
let packDir: string;
let gatewayPackage: PackedPackage;

beforeAll(async () => {
	sim = await startSimulator({ queuedMs: 50, runningMs: 100, taskAgeMs: TASK_AGE_MS });
	packDir = mkdtempSync(join(process.env.MG_E2E_RUN_DIR ?? tmpdir(), 'mg-e2e-pack-'));
	gatewayPackage = await packPackage(packDir);
});

afterAll(async () => {
	await sim?.close();
	if (packDir) rmSync(packDir, { recursive: true, force: true });
});

/** Creates a task at the gateway as an earlier run did; returns its id. */
async function createEarlierTask(path: string, body: object): Promise<string> {
	const response = await fetch(`${sim.baseUrl}${path}`, {
		method: 'POST',
		headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' },
		body: JSON.stringify(body),
	});
	const answer = (await response.json()) as { id?: string; data?: { task_id?: string } };
	const id = answer.id ?? answer.data?.task_id;
	if (response.status !== 200 || !id) throw new Error(`create failed: ${JSON.stringify(answer)}`);
	return id;
}

describe.each(N8N_LINES)('n8n line %s.x: a Data Table as the sheet', (line) => {
	let n8n: N8nInstance | undefined;
	let videoFolder = '';
	let table: VideoTable;
	let orphanTaskId = '';
	let stuckRowId = 0;
	let callbackUrl = '';

	beforeAll(async () => {
		// Its loop waits 11 s, not its shipped 70: storing the wait is waitForTask.e2e's promise
		// (withShortLoopWait says why); the first run asserts what the shipped wait would wait.
		const workflow = withShortLoopWait(
			loadWorkflow(join(EXAMPLES_DIR, DATA_TABLE_EXAMPLE), WORKFLOW_ID),
		);
		n8n = await startN8n({
			line,
			// As a user runs it: none of the settings the rest of the suite turns on, only what the
			// docs ask of 1.x (a SQLite pool: without it the example's first node stops the run, as
			// the pipeline e2e checks, since callbacks beside the run fail inside n8n 1.x). On 2.x,
			// expressions may read n8n's settings ($env, as many users allow) and no pool size is
			// set: 2.x pools SQLite by default, so the example must run, not stop at its guard.
			n8nDefaults: true,
			env: line === 1 ? { DB_SQLITE_POOL_SIZE: '2' } : { N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false' },
			packages: [gatewayPackage.tarball],
			credentials: simulatorCredentials(sim),
			workflows: [workflow],
		});
		videoFolder = createExampleFolders(n8n.userFolder);
		// The callback URL the example works out for itself (Settings › callbackUrl).
		const triggerPath = exampleCallbackPath(workflow);
		expect(triggerPath.endsWith('/callback')).toBe(true);
		callbackUrl = n8n.webhookUrl(triggerPath);

		// What earlier runs left: Task family S tasks created and written back, a Family A task
		// paid for but never written back (its callback URL names its row), a claimed row with no
		// task anyone knows of.
		const earlier: VideoTableRow[] = [];
		for (const prompt of EARLIER_S_PROMPTS) {
			const taskId = await createEarlierTask('/v1/task/create', {
				model: 'seedance-video-1',
				content: [{ type: 'text', text: prompt }],
			});
			earlier.push({
				family: 'taskS',
				model: 'seedance-video-1',
				prompt,
				claimedAt: ELEVEN_MINUTES_AGO(),
				taskId,
				status: 'queued',
				taskCreatedAt: ELEVEN_MINUTES_AGO(),
			});
		}
		earlier.push(
			{
				family: 'familyA',
				model: 'kling-video-2',
				prompt: ORPHAN_PROMPT,
				claimedAt: ELEVEN_MINUTES_AGO(),
			},
			{
				family: 'generic',
				model: 'video-model-1',
				prompt: STUCK_PROMPT,
				claimedAt: ELEVEN_MINUTES_AGO(),
			},
			{
				family: 'generic',
				model: 'video-model-1',
				prompt: POISONED_PROMPT,
				claimedAt: ELEVEN_MINUTES_AGO(),
				taskId: POISONED_TASK_ID,
				status: 'queued',
				taskCreatedAt: ELEVEN_MINUTES_AGO(),
			},
		);
		table = await createVideoTable(n8n, [...NEW_ROWS, ...earlier]);
		const rows = await table.rows();
		const orphanRow = rows.find((row) => row.prompt === ORPHAN_PROMPT);
		stuckRowId = Number(rows.find((row) => row.prompt === STUCK_PROMPT)?.id);

		// After import the user picks the table; then activates. The callback URL is left as
		// shipped: the workflow works it out.
		await n8n.updateWorkflow(WORKFLOW_ID, (stored: WorkflowJson) => {
			useVideoTable(stored, table);
		});
		await n8n.activateWorkflow(WORKFLOW_ID);
		await n8n.waitForWebhook(triggerPath);

		// The orphan's task calls back with its row's key: the trigger writes it to the row.
		orphanTaskId = await createEarlierTask('/vendor-a/v1/videos/omni-video', {
			model_name: 'kling-video-2',
			prompt: ORPHAN_PROMPT,
			aspect_ratio: '16:9',
			// As Create Video Tasks sends it: the row, the table, and the secret made from the
			// credential.
			callback_url: `${callbackUrl}?row=${String(orphanRow?.id)}&table=${table.id}&secret=${exampleCallbackSecret(sim.apiKey)}`,
		});
		await until(
			'the orphan task attached to its row',
			60_000,
			async () =>
				(await table.rows()).find((row) => row.prompt === ORPHAN_PROMPT)?.taskId === orphanTaskId,
			500,
		);
	}, 300_000);

	afterAll(async () => {
		await n8n?.stop();
	});

	function running(): N8nInstance {
		if (!n8n) throw new Error('n8n did not start');
		return n8n;
	}

	async function run(): Promise<Execution> {
		const executionId = await running().startManualWorkflow(WORKFLOW_ID);
		const execution = await running().waitForExecution(executionId, RUN_TIMEOUT_MS);
		const result = execution.data?.resultData;
		expect({
			status: execution.status,
			error: result?.error?.message,
		}).toEqual({ status: 'success', error: undefined });
		return execution;
	}

	/** The prompts of every create the gateway received, in the order they arrived. */
	function creates(): string[] {
		return videoCreates(sim.requests).map((request) => createRequestPrompt(request.body));
	}

	test(
		'first run: chunks of 10 claimed, created and written back one after the other; every row ends with one task, its file and its cost',
		async () => {
			const createsBefore = creates().length;
			const execution = await run();

			// Each new prompt created exactly once; nothing an earlier run claimed created again.
			const prompts = creates().slice(createsBefore);
			expect(countBy(prompts)).toEqual(
				Object.fromEntries(
					NEW_ROWS.filter((row) => row.prompt !== INVALID_PROMPT).map((row) => [
						String(row.prompt),
						1,
					]),
				),
			);

			// Two chunks (10 + 2); the first chunk's ids were written before the second was claimed.
			const runData = execution.data?.resultData.runData ?? {};
			const createRuns = (runData['Create Video Tasks'] ?? []) as TimedRun[];
			const writeRuns = (runData['Write Task IDs'] ?? []) as TimedRun[];
			const claimRuns = (runData['Claim Rows'] ?? []) as TimedRun[];
			expect(createRuns.map((r) => r.data?.main?.[0]?.length)).toEqual([
				CHUNK,
				NEW_ROWS.length - CHUNK,
			]);
			expect(writeRuns).toHaveLength(2);
			expect(claimRuns).toHaveLength(2);
			const firstWriteEnd = (writeRuns[0].startTime ?? 0) + (writeRuns[0].executionTime ?? 0);
			expect(claimRuns[1].startTime ?? 0).toBeGreaterThanOrEqual(firstWriteEnd);

			// Claimed rows without a task are reported, not created again: the refused one (its row
			// says why) and the one an earlier run left.
			expect(
				allRunsOutput(execution, 'Look at These Rows (may be billed, no task known)')
					.map((row) => row.prompt)
					.sort(),
			).toEqual([INVALID_PROMPT, STUCK_PROMPT].sort());

			// The table: one task per row, done, its file on disk, its cost where the family reports it.
			const rows = await table.rows();
			const done = rows.filter(
				(row) => ![STUCK_PROMPT, INVALID_PROMPT, POISONED_PROMPT].includes(String(row.prompt)),
			);
			// The task the gateway does not know: that row's failure, in the gateway's words.
			expect(rows.find((row) => row.prompt === POISONED_PROMPT)).toMatchObject({
				taskId: POISONED_TASK_ID,
				status: 'failed',
				error: `Video '${POISONED_TASK_ID}' not found.`,
				finishedAt: expect.any(String),
			});
			const files = readdirSync(videoFolder).sort();
			expect(files).toHaveLength(done.length);
			for (const file of files) expect(readFileSync(join(videoFolder, file))).toEqual(SAMPLE_MP4);
			expect(new Set(done.map((row) => row.taskId)).size).toBe(done.length);
			for (const row of done) {
				const taskS = row.family === 'taskS';
				expect(row).toMatchObject({
					status: 'succeeded',
					error: '',
					claimedAt: expect.any(String),
					taskId: expect.any(String),
					taskCreatedAt: expect.any(String),
					finishedAt: expect.any(String),
					file: expect.stringContaining(`${EXAMPLE_VIDEO_FOLDER}/${String(row.family)}-`),
					cost: taskS ? '0.25' : '',
					currency: taskS ? 'USD' : '',
					costPrecision: taskS ? '2' : '',
				});
			}
			expect(done.find((row) => row.prompt === ORPHAN_PROMPT)?.taskId).toBe(orphanTaskId);
			expect(rows.find((row) => row.prompt === INVALID_PROMPT)).toMatchObject({
				taskId: null,
				status: 'notCreated',
				error: expect.stringContaining('aspect_ratio'),
				claimedAt: expect.any(String),
			});
			expect(rows.find((row) => row.id === stuckRowId)).toMatchObject({
				taskId: null,
				finishedAt: null,
				claimedAt: expect.any(String),
			});
			expect(done.map((row) => String(row.file).split('/').pop()).sort()).toEqual(files);
			// Families written back as ids (Wait for Task reads them from the rows).
			expect(countBy(done.map((row) => String(row.family)))).toEqual({
				generic: 5,
				familyA: 4,
				familyC: 3,
				taskS: 3,
			});
			// Family A creates carry the callback URL the workflow worked out, with their row's id.
			const familyACreates = videoCreates(sim.requests)
				.slice(createsBefore)
				.filter((request) => request.path.startsWith('/vendor-a/'));
			expect(familyACreates.length).toBeGreaterThan(0);
			for (const request of familyACreates) {
				const url = String((request.body as { callback_url?: unknown }).callback_url);
				expect(url.slice(0, url.indexOf('?row=') + 5)).toBe(`${callbackUrl}?row=`);
				expect(new URL(url).searchParams.get('table')).toBe(table.id);
				expect(new URL(url).searchParams.get('secret')).toBe(exampleCallbackSecret(sim.apiKey));
			}

			// Every task the gateway created (this run's and the earlier ones) is on its row.
			expect(creates().sort()).toEqual(done.map((row) => String(row.prompt)).sort());

			// What the shipped Wait would have waited: long enough for n8n to store it.
			const stillRunning = allRunsOutput(execution, 'Check Videos', 3);
			expect(stillRunning.length).toBeGreaterThan(0);
			for (const task of stillRunning)
				expect(task.nextCheckInSeconds).toBeGreaterThanOrEqual(SHIPPED_LOOP_WAIT_SECONDS);

			// One report, with the money added exactly.
			const [report, ...more] = allRunsOutput(execution, 'Batch Report');
			expect(more).toEqual([]);
			expect(report).toMatchObject({
				tasks: done.length + 1,
				byStatus: { succeeded: done.length, failed: 1, timedOut: 0 },
				costExactByCurrency: { USD: '0.75' },
			});
			process.stderr.write(
				`video-data-table-batch on n8n ${line}.x: ${prompts.length} creates in ${createRuns.length} chunks, ${files.length} files, ${
					(runData['Check Videos'] ?? []).length
				} check passes; report ${JSON.stringify(report)}\n`,
			);
		},
		RUN_TIMEOUT_MS + 60_000,
	);

	test('a second run creates nothing, queries nothing and changes no row', async () => {
		const before = await table.rows();
		const createsBefore = creates().length;
		const queriesBefore = sim.requests.filter((request) => request.method === 'GET').length;

		const execution = await run();

		expect(creates().length).toBe(createsBefore);
		expect(sim.requests.filter((request) => request.method === 'GET').length).toBe(queriesBefore);
		expect(execution.data?.resultData.runData['Create Video Tasks']).toBeUndefined();
		expect(execution.data?.resultData.runData['Check Videos']).toBeUndefined();
		expect(await table.rows()).toEqual(before);
	});
});

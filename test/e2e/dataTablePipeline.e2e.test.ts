/**
 * examples/video-pipeline-data-table.json in real n8n on n8n's own defaults (one process,
 * SQLite, nothing the rest of the suite turns on): a standing pipeline. Rows are in an n8n Data
 * Table; the workflow is activated (its schedule fires every few seconds here), and three manual
 * runs are started at the same moment on top of it, so runs overlap on purpose while rows are
 * added. Every create answer is slow (the simulator's latency), so overlapping runs really do
 * reach for the same rows.
 *
 * The counts that must be 0: rows created twice, videos downloaded twice, rows completed twice
 * (two files for one row), Task family S queries (their callbacks come: the spec asks for a query
 * only when none came), and spec rules broken. A run that took rows and created none fails and
 * says why.
 *
 * n8n 1.x's defaults run SQLite without a pool, and overlapping runs then fail inside n8n
 * ("Transaction is not started yet"): there the pipeline's first node stops the run and names
 * DB_SQLITE_POOL_SIZE, and the rest runs with that one setting, as the docs ask.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSimulator, type Simulator } from '../simulator';
import {
	PIPELINE_EXAMPLE,
	PIPELINE_TABLE_COLUMNS,
	PICK_TABLE_NODE,
	countBy,
	exampleTableColumns,
	createRequestPrompt,
	moreThanOnce,
	sixFamilyRows,
	createVideoTable,
	createVideoTableFromCsv,
	deleteTable,
	exampleCallbackPath,
	findVideoTable,
	listTables,
	setExampleSetting,
	useVideoTable,
	videoCreates,
	videoRows,
	type VideoTable,
} from './dataTable';
import {
	EXAMPLES_DIR,
	createExampleFolders,
	exampleWorkflowId,
	simulatorCredentials,
} from './examples';
import {
	N8N_LINES,
	loadWorkflow,
	packPackage,
	startN8n,
	until,
	type Execution,
	type JsonObject,
	type N8nInstance,
	type PackedPackage,
	type WorkflowJson,
} from './harness';

const WORKFLOW_ID = exampleWorkflowId(PIPELINE_EXAMPLE);
/** Every create and query answered this late: overlapping runs reach for the same rows. */
const LATENCY_MS = 300;
const PIPELINE_TIMEOUT_MS = 120_000;
/** The name the example gives its table. */
const TABLE_NAME = 'video_pipeline';
/** A table whose name contains the example's (n8n's name search matches it too), and its row. */
const DECOY_TABLE = 'video_pipeline_old';
const DECOY_ROWS = [{ prompt: 'An older pipeline row' }];

let sim: Simulator;
let packDir: string;
let gatewayPackage: PackedPackage;

beforeAll(async () => {
	sim = await startSimulator({ queuedMs: 200, runningMs: 800, latencyMs: LATENCY_MS });
	packDir = mkdtempSync(join(process.env.MG_E2E_RUN_DIR ?? tmpdir(), 'mg-e2e-pack-'));
	gatewayPackage = await packPackage(packDir);
});

afterAll(async () => {
	await sim?.close();
	if (packDir) rmSync(packDir, { recursive: true, force: true });
});

describe.each(N8N_LINES)('n8n line %s.x, on its defaults: the Data Table pipeline', (line) => {
	let n8n: N8nInstance | undefined;
	let table: VideoTable;
	let videoFolder = '';
	let callbackUrl = '';

	function running(): N8nInstance {
		if (!n8n) throw new Error('n8n did not start');
		return n8n;
	}

	/** The prompts of every create the gateway received. */
	function creates(): string[] {
		return videoCreates(sim.requests).map((request) => createRequestPrompt(request.body));
	}

	/** Failed runs that started at or after `since` (epoch ms). */
	async function failedExecutions(since: number): Promise<Execution[]> {
		const page = await running().publicApi<{ data: Execution[] }>(
			'GET',
			`/executions?workflowId=${WORKFLOW_ID}&status=error&includeData=true&limit=250`,
		);
		return page.data.filter((execution) => Date.parse(String(execution.startedAt)) >= since);
	}

	/** What the table and the failed runs say, for a run that did not finish. */
	async function explain(): Promise<void> {
		const rows = await table.rows();
		const states = countBy(
			rows.map(
				(row) => `${String(row.family)}:${String(row.status)}:${row.finishedAt ? 'done' : 'open'}`,
			),
		);
		const open = rows
			.filter((row) => !row.finishedAt)
			.slice(0, 5)
			.map((row) => JSON.stringify(row));
		const errors = (await failedExecutions(0)).map((execution) => {
			const error = execution.data?.resultData.error;
			const runData = execution.data?.resultData.runData ?? {};
			const before = Object.keys(runData).slice(-2, -1)[0] ?? '';
			const input = JSON.stringify(runData[before]?.[0]?.data?.main?.[0]?.[0]?.json ?? {});
			return `${execution.mode} ${String(execution.data?.resultData.lastNodeExecuted)}: ${String(error?.message)} (after ${before}: ${input.slice(0, 1500)})`;
		});
		process.stderr.write(
			`pipeline rows by family:status ${JSON.stringify(states)}\nopen rows:\n${open.join('\n')}\nfailed runs:\n${[
				...new Set(errors),
			].join('\n')}\n`,
		);
	}

	beforeAll(async () => {
		const workflow = loadWorkflow(join(EXAMPLES_DIR, PIPELINE_EXAMPLE), WORKFLOW_ID);
		n8n = await startN8n({
			line,
			n8nDefaults: true,
			packages: [gatewayPackage.tarball],
			credentials: simulatorCredentials(sim),
			workflows: [workflow],
		});
		videoFolder = createExampleFolders(n8n.userFolder);
		// n8n 1.x cannot create or find a table by name: there the user creates it and picks it in
		// one node. On 2.x the workflow finds (or creates) it; a table whose name merely contains
		// its name is there to be left alone.
		if (line === 1) {
			// As the README asks of 1.x users: the table from the example's column file.
			table = await createVideoTableFromCsv(n8n, TABLE_NAME);
			await table.insert(sixFamilyRows('Pipeline video', 0, 18));
		} else await createVideoTable(n8n, DECOY_ROWS, DECOY_TABLE, ['prompt']);
		callbackUrl = n8n.webhookUrl(exampleCallbackPath(workflow));
		// The URLs it posts to are left as shipped: the workflow works them out.
		await n8n.updateWorkflow(WORKFLOW_ID, (stored: WorkflowJson) => {
			setExampleSetting(stored, 'rowsPerChunk', 4);
			// Every 5 seconds instead of every minute: the same pipeline, a test's patience.
			const schedule = stored.nodes.find((node) => node.name === 'Every Minute');
			(schedule?.parameters as JsonObject).rule = {
				interval: [{ field: 'seconds', secondsInterval: 5 }],
			};
		});
	}, 300_000);

	afterAll(async () => {
		await n8n?.stop();
	});

	if (line === 1) {
		test('on n8n 1.x, with no table picked, the run stops at once and says what to create and where to pick it', async () => {
			const before = creates().length;
			const columns = exampleTableColumns(
				loadWorkflow(join(EXAMPLES_DIR, PIPELINE_EXAMPLE), WORKFLOW_ID),
			);
			expect([...columns].sort()).toEqual([...PIPELINE_TABLE_COLUMNS].sort());
			const run = await running().runManualWorkflow(WORKFLOW_ID);
			expect(run.execution.status).toBe('error');
			expect(run.execution.data?.resultData.lastNodeExecuted).toBe('Stop: Table Not Ready');
			expect(run.execution.data?.resultData.error?.message).toBe(
				`n8n 1.x cannot create a data table or find one by name: create the table ${TABLE_NAME} with the Text columns ${columns.join(', ')}, and pick it in the node "${PICK_TABLE_NODE}".`,
			);
			expect(creates().length).toBe(before);
			await running().updateWorkflow(WORKFLOW_ID, (stored: WorkflowJson) =>
				useVideoTable(stored, table),
			);
		});

		test('on n8n 1.x defaults (SQLite without a pool) the run stops at once and names the setting', async () => {
			const before = creates().length;
			const run = await running().runManualWorkflow(WORKFLOW_ID);
			expect(run.execution.status).toBe('error');
			expect(run.execution.data?.resultData.error?.message).toMatch(
				/^n8n runs its SQLite database without a pool here .* Set DB_SQLITE_POOL_SIZE=2/,
			);
			expect(creates().length).toBe(before);
			expect((await table.rows()).filter((row) => row.claimedBy)).toEqual([]);
			// What the docs ask of 1.x users: a pool (n8n itself calls pool size 0 deprecated).
			n8n = await running().restart({ DB_SQLITE_POOL_SIZE: '2' });
		});
	}

	if (line === 2) {
		test('a table of that name that lacks columns: the run stops at once and names them', async () => {
			const before = creates().length;
			const lacking = await createVideoTable(
				running(),
				videoRows([['generic', 'video-model-1', '', 'Kept row', '']]),
				TABLE_NAME,
				PIPELINE_TABLE_COLUMNS.filter(
					(column) => column !== 'lastCheckedAt' && column !== 'checkedBy',
				),
			);
			const run = await running().runManualWorkflow(WORKFLOW_ID);
			expect(run.execution.status).toBe('error');
			expect(run.execution.data?.resultData.lastNodeExecuted).toBe('Stop: Table Not Ready');
			expect(run.execution.data?.resultData.error?.message).toBe(
				`The data table ${TABLE_NAME} lacks the columns lastCheckedAt, checkedBy. Add them (Data tables → ${TABLE_NAME} → +, type Text) and run again; or rename that table, and the next run creates ${TABLE_NAME} with every column.`,
			);
			expect(creates().length).toBe(before);
			expect((await lacking.rows()).map((row) => [row.prompt, row.claimedBy])).toEqual([
				['Kept row', null],
			]);
			await deleteTable(running(), lacking.id);
		});
	}

	test('before it is published, a run stops at once and names the URL that does not reach it', async () => {
		const before = creates().length;
		const run = await running().runManualWorkflow(WORKFLOW_ID);
		expect(run.execution.status).toBe('error');
		const message = String(run.execution.data?.resultData.error?.message);
		// The URL as the workflow worked it out, named with its field and the fix.
		expect(message).toContain(
			`Settings › callbackUrl (${callbackUrl}) does not reach this workflow's Task Callback Trigger on this n8n (HTTP 500: no published webhook there). Publish the workflow`,
		);
		expect(run.execution.data?.resultData.lastNodeExecuted).toBe('Stop: Fix a Setting');
		expect(creates().length).toBe(before);
		if (line === 2) {
			// No table of that name yet: this first run created it, with every column, and left the
			// table whose name merely contains it as it was.
			const tables = await listTables(running(), TABLE_NAME);
			expect(
				tables
					.map((listed) => [listed.name, listed.columns.map((column) => column.name).sort()])
					.sort(),
			).toEqual([
				[TABLE_NAME, [...PIPELINE_TABLE_COLUMNS].sort()],
				[DECOY_TABLE, ['prompt']],
			]);
			const decoy = await findVideoTable(running(), DECOY_TABLE);
			expect((await decoy.rows()).map((row) => row.prompt)).toEqual(['An older pipeline row']);
			table = await findVideoTable(running(), TABLE_NAME);
			expect(await table.rows()).toEqual([]);
			await table.insert(sixFamilyRows('Pipeline video', 0, 18));
		}
		expect((await table.rows()).filter((row) => row.claimedBy)).toEqual([]);
	});

	test('Settings › createHours: published, no run outside the hours creates; an unreadable value stops the run and says how to write it', async () => {
		const n8n = running();
		const before = creates().length;
		await n8n.updateWorkflow(WORKFLOW_ID, (stored: WorkflowJson) =>
			setExampleSetting(stored, 'createHours', 'mornings'),
		);
		const unreadable = await n8n.runManualWorkflow(WORKFLOW_ID);
		expect(unreadable.execution.status).toBe('error');
		expect(unreadable.execution.data?.resultData.lastNodeExecuted).toBe('Stop: Fix a Setting');
		const message = String(unreadable.execution.data?.resultData.error?.message);
		const zone = /\(this workflow's time zone: ([^)]+)\)/.exec(message)?.[1] ?? '';
		expect(message).toContain(
			`Settings › createHours is "mornings": write the hours in which runs create tasks as HH:MM-HH:MM, for example 07:00-09:00 (this workflow's time zone: ${zone}), or leave it empty to create at every run.`,
		);
		// An hour that starts three hours from now on the workflow's clock: no run here is inside.
		const hourThere = Number(
			new Intl.DateTimeFormat('en-GB', {
				timeZone: zone,
				hour: 'numeric',
				hourCycle: 'h23',
			}).format(new Date()),
		);
		const clock = (hour: number) => `${String(hour % 24).padStart(2, '0')}:00`;
		const later = `${clock(hourThere + 3)}-${clock(hourThere + 4)}`;
		await n8n.updateWorkflow(WORKFLOW_ID, (stored: WorkflowJson) => {
			setExampleSetting(stored, 'createHours', later);
			// The example keeps no successful run; here the schedule's runs are kept, to be seen.
			stored.settings = {
				...((stored.settings ?? {}) as JsonObject),
				saveDataSuccessExecution: 'all',
			};
		});
		const published = Date.now();
		try {
			await n8n.activateWorkflow(WORKFLOW_ID);
			await n8n.waitForWebhook(
				exampleCallbackPath(loadWorkflow(join(EXAMPLES_DIR, PIPELINE_EXAMPLE), WORKFLOW_ID)),
			);
			const byHand = await n8n.runManualWorkflow(WORKFLOW_ID);
			expect([byHand.execution.status, byHand.execution.data?.resultData.error?.message]).toEqual([
				'success',
				undefined,
			]);
			expect(Object.keys(byHand.execution.data?.resultData.runData ?? {})).not.toContain(
				'Rows to Create',
			);
			// The schedule's own runs, on the published version, skip the create lane too.
			await until(
				'a scheduled run outside createHours',
				60_000,
				async () => {
					const page = await n8n.publicApi<{ data: Execution[] }>(
						'GET',
						`/executions?workflowId=${WORKFLOW_ID}&status=success&limit=50`,
					);
					return page.data.some(
						(execution) =>
							execution.mode === 'trigger' && Date.parse(execution.startedAt) >= published,
					);
				},
				1_000,
			);
			expect(creates().length).toBe(before);
			expect((await table.rows()).filter((row) => row.claimedBy)).toEqual([]);
			expect(await failedExecutions(published)).toEqual([]);
		} finally {
			// As shipped again (every run creates, no successful run kept), for the next test.
			await n8n.updateWorkflow(WORKFLOW_ID, (stored: WorkflowJson) => {
				setExampleSetting(stored, 'createHours', '');
				stored.settings = {
					...((stored.settings ?? {}) as JsonObject),
					saveDataSuccessExecution: 'none',
				};
			});
		}
	});

	test(
		'overlapping runs while rows arrive: every row created once, every video downloaded and recorded once',
		async () => {
			const n8n = running();
			const started = Date.now();
			await n8n.activateWorkflow(WORKFLOW_ID);
			await n8n.waitForWebhook(
				exampleCallbackPath(loadWorkflow(join(EXAMPLES_DIR, PIPELINE_EXAMPLE), WORKFLOW_ID)),
			);
			// Three runs at once on top of the schedule.
			await Promise.all([1, 2, 3].map(() => n8n.startManualWorkflow(WORKFLOW_ID)));
			// More rows while runs are going.
			await table.insert(sixFamilyRows('Pipeline video', 18, 12));

			const expected = 30;
			try {
				await until(
					'every row finished',
					PIPELINE_TIMEOUT_MS,
					async () => (await table.rows()).filter((row) => row.finishedAt).length >= expected,
					2_000,
				);
			} catch (error) {
				await explain();
				throw error;
			}

			const rows = await table.rows();
			const prompts = creates();
			const files = readdirSync(videoFolder).sort();
			const downloads = sim.fileDownloads.map((download) => download.path);
			const sTaskIds = rows
				.filter((row) => row.family === 'taskS')
				.map((row) => String(row.taskId));
			const counts = {
				rows: rows.length,
				rowsCreatedTwice: moreThanOnce(prompts),
				creates: prompts.length,
				videosDownloadedTwice: moreThanOnce(downloads),
				files: files.length,
				taskSQueries: sTaskIds.reduce((sum, taskId) => sum + sim.pollLog(taskId).length, 0),
				violations: sim.violations.map((violation) => violation.message),
			};
			process.stderr.write(
				`video-pipeline-data-table on n8n ${line}.x (defaults${line === 1 ? ' + DB_SQLITE_POOL_SIZE=2' : ''}): ${JSON.stringify(counts)}; ${
					sim.requests.filter((request) => request.method === 'GET').length
				} queries\n`,
			);
			expect(counts).toEqual({
				rows: expected,
				rowsCreatedTwice: [],
				creates: expected,
				videosDownloadedTwice: [],
				files: expected,
				taskSQueries: 0,
				violations: [],
			});
			for (const row of rows) {
				expect(row).toMatchObject({
					status: 'succeeded',
					error: '',
					taskId: expect.any(String),
					claimedBy: expect.any(String),
					file: expect.stringContaining(
						`-${String(row.taskId).replace(/[^A-Za-z0-9_-]+/g, '-')}.mp4`,
					),
					finishedAt: expect.any(String),
				});
			}
			expect(new Set(rows.map((row) => row.taskId)).size).toBe(expected);
			expect(await failedExecutions(started)).toEqual([]);
		},
		PIPELINE_TIMEOUT_MS + 60_000,
	);

	test('Prune Finished Rows: a run deletes succeeded rows finished over keepFinishedDays ago, and keeps failed and recent ones', async () => {
		const day = 24 * 60 * 60 * 1000;
		const finished = (prompt: string, status: string, daysAgo: number) => ({
			prompt,
			family: 'generic',
			model: 'video-model-1',
			claimedBy: 'an-earlier-run',
			taskId: `task-${prompt.replace(/\W+/g, '-')}`,
			status,
			finishedAt: new Date(Date.now() - daysAgo * day).toISOString(),
		});
		await table.insert([
			finished('Old success 1', 'succeeded', 40),
			finished('Old success 2', 'succeeded', 31),
			finished('Old failure', 'failed', 40),
			finished('Recent success', 'succeeded', 29),
		]);
		const run = await running().runManualWorkflow(WORKFLOW_ID);
		expect(run.execution.status).toBe('success');
		const prompts = (await table.rows()).map((row) => String(row.prompt));
		expect(prompts).not.toContain('Old success 1');
		expect(prompts).not.toContain('Old success 2');
		expect(prompts).toEqual(expect.arrayContaining(['Old failure', 'Recent success']));
		// The rows of the test before (finished minutes ago) are all kept.
		expect(prompts.filter((prompt) => prompt.startsWith('Pipeline video'))).toHaveLength(30);
	});

	test('a run that takes rows and creates none of them fails and says why', async () => {
		const createsBefore = creates().length;
		const started = Date.now();
		await table.insert(
			videoRows([
				['familyA', 'kling-video-2', 'omni-video', 'No aspect ratio, first', ''],
				['familyA', 'kling-video-2', 'omni-video', 'No aspect ratio, second', ''],
			]),
		);
		let failed: Execution[] = [];
		await until(
			'a failed run',
			60_000,
			async () => {
				failed = await failedExecutions(started);
				return failed.length > 0;
			},
			1_000,
		);
		expect(creates().length).toBe(createsBefore);
		expect(failed).toHaveLength(1);
		expect(failed[0].data?.resultData.error?.message).toMatch(
			/^This run took 2 rows and created none of them: 2 × "aspect_ratio": is required/,
		);
		const refused = (await table.rows()).filter((row) =>
			String(row.prompt).startsWith('No aspect'),
		);
		for (const row of refused) {
			expect(row).toMatchObject({
				status: 'notCreated',
				error: expect.stringContaining('aspect_ratio'),
				finishedAt: expect.any(String),
			});
		}
	});
});

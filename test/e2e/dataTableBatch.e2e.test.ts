/**
 * examples/video-data-table-batch.json in real n8n: an n8n Data Table is the sheet. The test
 * creates the table and its rows headlessly (the editor's REST API), points the example's
 * Data table nodes at it, runs the example as shipped and reads the table back: every row has
 * exactly one task, its video on disk and its cost; a second run creates nothing.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSimulator, type Simulator } from '../simulator';
import { SAMPLE_MP4 } from '../simulator/media';
import {
	EXAMPLES_DIR,
	EXAMPLE_VIDEO_FOLDER,
	createExampleFolders,
	exampleWorkflowId,
	simulatorCredentials,
} from './examples';
import {
	N8N_LINES,
	allRunsOutput,
	loadWorkflow,
	packPackage,
	startN8n,
	type Execution,
	type JsonObject,
	type N8nInstance,
	type NodeRun,
	type PackedPackage,
} from './harness';

const EXAMPLE = 'video-data-table-batch.json';
const WORKFLOW_ID = exampleWorkflowId(EXAMPLE);
/** The example's chunk size (Loop Over Items). */
const CHUNK = 10;
/** Loops through n8n's Wait node (≥ 70 s, resumed by n8n's wait tracker). */
const RUN_TIMEOUT_MS = 420_000;
/**
 * Tasks are recorded as created 11 minutes ago, so Task family S tasks (the family that reports
 * cost) may be checked on the loop's first pass, as the spec allows.
 */
const TASK_AGE_MS = 11 * 60_000;

/** The table's columns, all text, as the example's note asks. */
const COLUMNS = [
	'prompt',
	'family',
	'model',
	'endpoint',
	'request',
	'taskId',
	'status',
	'taskCreatedAt',
	'file',
	'cost',
	'currency',
	'error',
	'finishedAt',
] as const;
type Column = (typeof COLUMNS)[number];
type Row = Partial<Record<Column, string | null>> & { id?: number };

/** 12 rows, families by id and by name; the result columns are left empty (null). */
const ROWS: Row[] = [
	['Generic Video', 'video-model-1', '', 'A lighthouse at dusk', '{"duration": 6, "size": "768p"}'],
	['generic', 'video-model-1', '', 'Rain on a window at night', ''],
	['generic', 'video-model-1', '', 'A sneaker turning slowly', ''],
	['Generic Video', 'video-model-1', '', 'Waves rolling onto a beach', ''],
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
	['Family C', 'vidu-q1', '', 'Two friends talking in a cafe', ''],
	['familyC', 'vidu-q1', '', 'A cat watching birds', ''],
	['Task Family S', 'seedance-video-1', '', 'Steam rising from a cup of coffee', ''],
	['taskS', 'seedance-video-1', '', 'Snow falling on a quiet street', ''],
	['taskS', 'seedance-video-1', '', 'A paper boat on a pond', '{"ratio": "16:9"}'],
].map(([family, model, endpoint, prompt, request]) => ({
	family,
	model,
	endpoint,
	prompt,
	request,
}));

/** Create requests, by family. */
const CREATE_PATHS = [
	'/v1/videos',
	'/vendor-a/v1/videos/omni-video',
	'/vendor-a/v1/videos/image2video',
	'/vendor-c/ent/v2/reference2video',
	'/v1/task/create',
];

interface TimedRun extends NodeRun {
	startTime?: number;
	executionTime?: number;
}

function promptOf(body: unknown): string {
	const fields = (body ?? {}) as { prompt?: unknown; content?: Array<{ text?: unknown }> };
	if (typeof fields.prompt === 'string') return fields.prompt;
	return String(fields.content?.find((part) => typeof part.text === 'string')?.text ?? '');
}

function countBy(values: string[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
	return counts;
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

describe.each(N8N_LINES)('n8n line %s.x: a Data Table as the sheet', (line) => {
	let n8n: N8nInstance | undefined;
	let videoFolder = '';
	let rowsPath = '';

	beforeAll(async () => {
		n8n = await startN8n({
			line,
			packages: [gatewayPackage.tarball],
			credentials: simulatorCredentials(sim),
			workflows: [loadWorkflow(join(EXAMPLES_DIR, EXAMPLE), WORKFLOW_ID)],
		});
		videoFolder = createExampleFolders(n8n.userFolder);
		// The table and its rows, as a user would make them in the editor.
		const project = await n8n.rest<{ id: string }>('GET', '/projects/personal');
		const tables = `/projects/${project.id}/data-tables`;
		const table = await n8n.rest<{ id: string }>('POST', tables, {
			name: 'video_batch',
			columns: COLUMNS.map((name) => ({ name, type: 'string' })),
		});
		await n8n.rest('POST', `${tables}/${table.id}/insert`, { data: ROWS, returnType: 'id' });
		rowsPath = `${tables}/${table.id}/rows?take=100`;
		// After import the user picks the table in every Data table node.
		await n8n.updateWorkflow(WORKFLOW_ID, (workflow) => {
			for (const node of workflow.nodes) {
				if (node.type !== 'n8n-nodes-base.dataTable') continue;
				const parameters = node.parameters as JsonObject;
				parameters.dataTableId = { ...(parameters.dataTableId as JsonObject), value: table.id };
			}
		});
	}, 240_000);

	afterAll(async () => {
		await n8n?.stop();
	});

	function running(): N8nInstance {
		if (!n8n) throw new Error('n8n did not start');
		return n8n;
	}

	async function tableRows(): Promise<Row[]> {
		const page = await running().rest<{ count: number; data: Row[] }>('GET', rowsPath);
		expect(page.count).toBe(ROWS.length);
		return page.data;
	}

	async function run(): Promise<Execution> {
		const executionId = await running().startManualWorkflow(WORKFLOW_ID);
		const execution = await running()
			.waitForExecution(executionId, RUN_TIMEOUT_MS)
			.catch(async (error: unknown) => {
				// Say where the run stands: its status and how often each node ran.
				const stuck = await running().publicApi<Execution>(
					'GET',
					`/executions/${executionId}?includeData=true`,
				);
				const runs = Object.entries(stuck.data?.resultData.runData ?? {}).map(
					([name, nodeRuns]) => `${name} ×${nodeRuns.length}`,
				);
				const pending = allRunsOutput(stuck, 'Check Videos', 3).map((item) =>
					JSON.stringify(item.pendingTasks),
				);
				throw new Error(
					`${String(error)}\nstatus ${stuck.status}; ran ${runs.join(', ')}; still running ${pending.join(' | ')}`,
				);
			});
		const result = execution.data?.resultData;
		expect({
			status: execution.status,
			error: result?.error?.message,
			at: result?.lastNodeExecuted,
		}).toEqual({ status: 'success', error: undefined, at: expect.any(String) });
		return execution;
	}

	function creates(): string[] {
		return CREATE_PATHS.flatMap((path) => sim.requestsTo('POST', path)).map((request) =>
			promptOf(request.body),
		);
	}

	test(
		'first run: chunks of 10 created and written back one after the other; every row ends with one task, its file and its cost',
		async () => {
			const createsBefore = creates().length;
			const execution = await run();

			// Each prompt created exactly once.
			const prompts = creates().slice(createsBefore);
			expect(countBy(prompts)).toEqual(
				Object.fromEntries(ROWS.map((row) => [String(row.prompt), 1])),
			);

			// Two chunks (10 + 2); the first chunk's ids were written before the second was created.
			const runData = execution.data?.resultData.runData ?? {};
			const createRuns = (runData['Create Video Tasks'] ?? []) as TimedRun[];
			const writeRuns = (runData['Write Task IDs'] ?? []) as TimedRun[];
			expect(createRuns.map((r) => r.data?.main?.[0]?.length)).toEqual([
				CHUNK,
				ROWS.length - CHUNK,
			]);
			expect(writeRuns).toHaveLength(2);
			const firstWriteEnd = (writeRuns[0].startTime ?? 0) + (writeRuns[0].executionTime ?? 0);
			expect(createRuns[1].startTime ?? 0).toBeGreaterThanOrEqual(firstWriteEnd);

			// The table: one task per row, done, its file on disk, its cost where the family reports it.
			const rows = await tableRows();
			const files = readdirSync(videoFolder).sort();
			expect(files).toHaveLength(ROWS.length);
			for (const file of files) expect(readFileSync(join(videoFolder, file))).toEqual(SAMPLE_MP4);
			expect(new Set(rows.map((row) => row.taskId)).size).toBe(ROWS.length);
			for (const row of rows) {
				const taskS = row.family === 'taskS';
				expect(row).toMatchObject({
					status: 'succeeded',
					error: '',
					taskId: expect.any(String),
					taskCreatedAt: expect.any(String),
					finishedAt: expect.any(String),
					file: expect.stringContaining(`${EXAMPLE_VIDEO_FOLDER}/${String(row.family)}-`),
					cost: taskS ? '0.25' : '',
					currency: taskS ? 'USD' : '',
				});
			}
			expect(rows.map((row) => String(row.file).split('/').pop()).sort()).toEqual(files);
			// Families written back as ids (Wait for Task reads them from the rows).
			expect(countBy(rows.map((row) => String(row.family)))).toEqual({
				generic: 4,
				familyA: 3,
				familyC: 2,
				taskS: 3,
			});

			// One report, with the money added exactly.
			const [report, ...more] = allRunsOutput(execution, 'Batch Report');
			expect(more).toEqual([]);
			expect(report).toMatchObject({
				tasks: ROWS.length,
				byStatus: { succeeded: ROWS.length, failed: 0, timedOut: 0 },
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

	test('a second run creates nothing and changes no row', async () => {
		const before = await tableRows();
		const createsBefore = creates().length;
		const queriesBefore = sim.requests.filter((request) => request.method === 'GET').length;

		const execution = await run();

		expect(creates().length).toBe(createsBefore);
		expect(sim.requests.filter((request) => request.method === 'GET').length).toBe(queriesBefore);
		expect(execution.data?.resultData.runData['Create Video Tasks']).toBeUndefined();
		expect(execution.data?.resultData.runData['Check Videos']).toBeUndefined();
		expect(await tableRows()).toEqual(before);
	});
});

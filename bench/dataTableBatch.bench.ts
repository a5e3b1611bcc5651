/**
 * Benchmark (not a test): `npm run bench:batch`.
 *
 * The shipped example examples/video-data-table-batch.json (an n8n Data Table as the sheet: rows
 * claimed, created 10 per chunk by the Video node, task ids written back per chunk, a durable
 * Check Once and Route loop through n8n's Wait node, every video written to disk by n8n's
 * Read/Write File node, every row completed, a Batch Report) on n8n's queue mode: real Redis and
 * Postgres, one main process and 2 workers (test/e2e/queueMode.ts), the gateway simulator on
 * loopback. The table gets BENCH_ROWS (1000) rows spread round-robin over every family the
 * example's Request Fields code supports (generic, familyA, familyB, familyC, taskS,
 * longRunning); each result video is BENCH_RESULT_BYTES (1 MiB) so that every result moved
 * through n8n is at least 1 MB. Task family S tasks may be checked only 10 minutes after their
 * creation (spec), so a run with them lasts at least that long.
 *
 * Binary data: n8n 2.x with N8N_DEFAULT_BINARY_DATA_MODE=database (what 2.41.1 defaults to in
 * queue mode anyway, set explicitly); n8n 1.x with its default mode (`default`: the bytes in the
 * execution data). Pruning: as shipped during the run; afterwards the main process is restarted
 * with pruning of every finished execution (EXECUTIONS_DATA_MAX_AGE=0, hard-delete buffer 0,
 * soft- and hard-delete cycles every 15 s) and the database measured again, then once more after
 * VACUUM FULL (what an operator's disk gets back: Postgres keeps freed pages otherwise).
 *
 * Figures per line: wall time ÷ ideal (ideal = the slowest task's lifetime, from the simulator's
 * timeline of the tasks this run created, plus one check interval, the median gap between two
 * queries of the same task), gateway queries per task, peak RSS per worker (VmRSS of each
 * worker's process tree, every second), Postgres growth per video, rows written back, lost and
 * duplicated.
 *
 * BENCH_N8N_LINES ("1 2"), BENCH_ROWS (1000), BENCH_RESULT_BYTES (1048576), BENCH_QUEUED_MS
 * (5000), BENCH_RUNNING_MS (25000), BENCH_RUN_TIMEOUT_MS (3600000), BENCH_FAMILIES (all six;
 * for debugging only: leaving taskS out makes a run shorter than the truth), BENCH_BINARY_MODE
 * ("database" stores 1.x's binary data in Postgres as 2.x does in queue mode).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import {
	DATA_TABLE_EXAMPLE,
	createRequestPrompt,
	createVideoTable,
	exampleCallbackPath,
	setExampleSetting,
	useVideoTable,
	type VideoTableRow,
} from '../test/e2e/dataTable';
import {
	EXAMPLES_DIR,
	createExampleFolders,
	exampleWorkflowId,
	simulatorCredentials,
} from '../test/e2e/examples';
import type { N8nLine, WorkflowJson } from '../test/e2e/harness';
import { N8N_VERSIONS, loadWorkflow, packPackage, until } from '../test/e2e/harness';
import {
	startQueueMode,
	startQueueServices,
	type QueueModeN8n,
	type QueueServices,
} from '../test/e2e/queueMode';
import type { RecordedRequest, Simulator } from '../test/simulator';
import { startSimulator } from '../test/simulator';
import { median } from './n8nCpu';
import { sampleWorkerRss } from './processRss';

const LINES = (process.env.BENCH_N8N_LINES ?? '1 2')
	.split(/[\s,]+/)
	.filter((line) => line !== '')
	.map((line) => {
		if (line !== '1' && line !== '2') throw new Error(`BENCH_N8N_LINES: unknown line ${line}`);
		return Number(line) as N8nLine;
	});
const ROWS = Number(process.env.BENCH_ROWS ?? 1000);
const RESULT_BYTES = Number(process.env.BENCH_RESULT_BYTES ?? 1_048_576);
const QUEUED_MS = Number(process.env.BENCH_QUEUED_MS ?? 5_000);
const RUNNING_MS = Number(process.env.BENCH_RUNNING_MS ?? 25_000);
const RUN_TIMEOUT_MS = Number(process.env.BENCH_RUN_TIMEOUT_MS ?? 3_600_000);
/** Callback executions still running after the batch's execution ended. */
const SETTLE_TIMEOUT_MS = 180_000;
const PRUNE_TIMEOUT_MS = 300_000;
const POLL_MS = 2_000;
/** Task family S: its first query is allowed 10 minutes after creation (spec). */
const TASK_S_FIRST_QUERY_MS = 600_000;

const WORKFLOW_ID = exampleWorkflowId(DATA_TABLE_EXAMPLE);

type Family = 'generic' | 'familyA' | 'familyB' | 'familyC' | 'taskS' | 'longRunning';
const ALL_FAMILIES: Family[] = ['generic', 'familyA', 'familyB', 'familyC', 'taskS', 'longRunning'];
const FAMILIES = (process.env.BENCH_FAMILIES ?? ALL_FAMILIES.join(' '))
	.split(/[\s,]+/)
	.filter((family) => family !== '')
	.map((family) => {
		if (!ALL_FAMILIES.includes(family as Family))
			throw new Error(`BENCH_FAMILIES: unknown family ${family}`);
		return family as Family;
	});

/** Valid rows per family (models and endpoints as in the mixed-sheet example); taken in turn. */
const FAMILY_ROWS: Record<Family, Array<{ model: string; endpoint: string; request: string }>> = {
	generic: [{ model: 'video-model-1', endpoint: '', request: '{"duration": 6, "size": "768p"}' }],
	familyA: [
		{ model: 'kling-video-2', endpoint: 'omni-video', request: '{"aspect_ratio": "16:9"}' },
		{
			model: 'kling-video-2',
			endpoint: 'image2video',
			request: '{"image": "https://example.com/garden.png"}',
		},
	],
	familyB: [{ model: 'hunyuan-video', endpoint: '', request: '' }],
	familyC: [{ model: 'vidu-q1', endpoint: '', request: '' }],
	taskS: [{ model: 'seedance-video-1', endpoint: '', request: '' }],
	longRunning: [
		{ model: 'veo-3', endpoint: '', request: '{"parameters": {"durationSeconds": 8}}' },
	],
};

const PROMPT_PREFIX = 'Bench video';

function benchRows(count: number): VideoTableRow[] {
	return Array.from({ length: count }, (_, index) => {
		const family = FAMILIES[index % FAMILIES.length];
		const variants = FAMILY_ROWS[family];
		const variant = variants[Math.floor(index / FAMILIES.length) % variants.length];
		return { family, ...variant, prompt: `${PROMPT_PREFIX} ${index + 1} (${family})` };
	});
}

/** The prompt of one of this benchmark's creates, or undefined for any other request. */
function promptOf(body: unknown): string | undefined {
	const prompt = createRequestPrompt(body);
	return prompt.startsWith(PROMPT_PREFIX) ? prompt : undefined;
}

function isCreate(request: RecordedRequest): boolean {
	return request.method === 'POST' && promptOf(request.body) !== undefined;
}

// ---------------------------------------------------------------------------------------------
// One line.

const PRUNE_EVERYTHING = {
	EXECUTIONS_DATA_PRUNE: 'true',
	EXECUTIONS_DATA_MAX_AGE: '0',
	EXECUTIONS_DATA_HARD_DELETE_BUFFER: '0',
	EXECUTIONS_DATA_PRUNE_SOFT_DELETE_INTERVAL: '0.25',
	EXECUTIONS_DATA_PRUNE_HARD_DELETE_INTERVAL: '0.25',
};

const mb = (bytes: number) => bytes / 1024 / 1024;
const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '—');

async function benchLine(line: N8nLine, tarball: string): Promise<void> {
	const version = N8N_VERSIONS[line];
	// BENCH_BINARY_MODE=database: binary data in Postgres on 1.x too (1.123.81 has the mode,
	// off unless listed among the available modes).
	const binaryEnv: Record<string, string> =
		line === 2
			? { N8N_DEFAULT_BINARY_DATA_MODE: 'database' }
			: process.env.BENCH_BINARY_MODE === 'database'
				? {
						N8N_AVAILABLE_BINARY_DATA_MODES: 'filesystem,database',
						N8N_DEFAULT_BINARY_DATA_MODE: 'database',
					}
				: {};
	const sim: Simulator = await startSimulator({
		queuedMs: QUEUED_MS,
		runningMs: RUNNING_MS,
		resultVideoBytes: RESULT_BYTES,
	});
	let services: QueueServices | undefined;
	let cluster: QueueModeN8n | undefined;
	try {
		services = await startQueueServices();
		const db = services;
		const workflow = loadWorkflow(join(EXAMPLES_DIR, DATA_TABLE_EXAMPLE), WORKFLOW_ID);
		cluster = await startQueueMode({
			line,
			services,
			packages: [tarball],
			credentials: simulatorCredentials(sim),
			workflows: [workflow],
			env: binaryEnv,
		});
		const n8n = cluster;
		const folders = [n8n.main.userFolder, ...n8n.workers.map((worker) => worker.userFolder)].map(
			createExampleFolders,
		);
		const triggerPath = exampleCallbackPath(workflow);
		const rows = benchRows(ROWS);
		const table = await createVideoTable(n8n.main, rows);
		await n8n.main.updateWorkflow(WORKFLOW_ID, (stored: WorkflowJson) => {
			useVideoTable(stored, table);
			setExampleSetting(stored, 'callbackUrl', n8n.main.webhookUrl(triggerPath));
		});
		await n8n.main.activateWorkflow(WORKFLOW_ID);
		await n8n.main.waitForWebhook(triggerPath);

		const dbSize = async () => Number(await db.psql('SELECT pg_database_size(current_database())'));
		const sizeBefore = await dbSize();
		const stopSampling = sampleWorkerRss(n8n.workers);
		process.stderr.write(
			`[bench] n8n ${version}: ${ROWS} rows (${FAMILIES.join(', ')}), running the example\n`,
		);
		const executionId = await n8n.main.startManualWorkflow(WORKFLOW_ID);
		let status = '';
		let wallMs = NaN;
		let firstStartedAt: number | undefined;
		/** Each wait of the loop: when first seen waiting, and until when (the Wait node's waitTill). */
		const waits = new Map<string, number>();
		const progress = setInterval(() => {
			const created = sim.requests.filter(isCreate).length;
			const queries = sim.requests.filter((request) => request.method === 'GET').length;
			process.stderr.write(
				`[bench] ${new Date().toISOString()} ${created} creates, ${queries} queries, ${sim.callbacks.length} callbacks\n`,
			);
		}, 60_000);
		let timedOut = false;
		try {
			await until(
				`execution ${executionId} to end`,
				RUN_TIMEOUT_MS,
				async () => {
					const [state, startedAt, stoppedAt, waitTill] = (
						await db.psql(
							`SELECT status, extract(epoch from "startedAt") * 1000, extract(epoch from "stoppedAt") * 1000, extract(epoch from "waitTill") * 1000 FROM execution_entity WHERE id = ${Number(executionId)}`,
						)
					).split('|');
					status = state;
					if (state === 'waiting' && waitTill && !waits.has(waitTill))
						waits.set(waitTill, Date.now());
					// n8n 1.x moves startedAt to each resume: the first one seen is the run's start.
					firstStartedAt ??= startedAt ? Number(startedAt) : undefined;
					wallMs = Number(stoppedAt) - (firstStartedAt ?? Number(startedAt));
					return !['new', 'running', 'waiting', ''].includes(state) && stoppedAt !== '';
				},
				POLL_MS,
			);
		} catch (error) {
			// Measured as it stands: an execution n8n never ends is a result too.
			timedOut = true;
			wallMs = NaN;
			process.stderr.write(`[bench] ${String(error)}\n`);
		} finally {
			clearInterval(progress);
		}
		// Callback executions (Attach Task to Its Row) may still run.
		await until(
			'the callback executions to end',
			SETTLE_TIMEOUT_MS,
			async () => {
				const running = await db.psql(
					`SELECT count(*) FROM execution_entity WHERE status IN ('new', 'running') AND id <> ${Number(executionId)}`,
				);
				return Number(running) === 0;
			},
			POLL_MS,
		).catch((error: unknown) => process.stderr.write(`[bench] ${String(error)}\n`));
		const peaks = stopSampling();
		const sizeEnd = await dbSize();
		const biggest = await db.psql(
			`SELECT relname || ' ' || round(pg_total_relation_size(c.oid) / 1048576.0, 1) || ' MB' FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY pg_total_relation_size(c.oid) DESC LIMIT 5`,
		);
		const executionsEnd = Number(await db.psql('SELECT count(*) FROM execution_entity'));

		// The table, the gateway's log, the disk.
		const tableRows = await table.rows();
		const creates = sim.requests.filter(isCreate);
		const billed = creates.filter((request) => (request.status ?? 0) < 300);
		const createsPerPrompt = new Map<string, number>();
		for (const request of billed) {
			const prompt = String(promptOf(request.body));
			createsPerPrompt.set(prompt, (createsPerPrompt.get(prompt) ?? 0) + 1);
		}
		const duplicated = [...createsPerPrompt.values()].filter((count) => count > 1).length;
		const queries = sim.requests.filter((request) => request.method === 'GET').length;
		const written = tableRows.filter(
			(row) => row.status === 'succeeded' && Boolean(row.file) && Boolean(row.finishedAt),
		);
		const lost = tableRows.filter((row) => !row.taskId || !row.finishedAt || !row.file);
		const files = folders.flatMap((folder) =>
			readdirSync(folder).map((file) => statSync(join(folder, file)).size),
		);
		const smallest = files.length > 0 ? Math.min(...files) : 0;

		// The ideal: the slowest task's lifetime (the simulator's timeline: queued + running, and for
		// Task family S not before its first allowed query) plus one check interval (the median wait
		// of the loop: the Wait node's waitTill − when the execution was first seen waiting, polled
		// every 2 s; the median gap between two queries of one task when the loop never waited).
		const lifetimeOf = (row: VideoTableRow) =>
			row.family === 'taskS'
				? Math.max(QUEUED_MS + RUNNING_MS, TASK_S_FIRST_QUERY_MS)
				: QUEUED_MS + RUNNING_MS;
		const withTask = tableRows.filter((row) => row.taskId);
		const slowest = Math.max(...withTask.map(lifetimeOf));
		const gaps: number[] = [];
		for (const row of withTask) {
			const polls = sim.pollLog(String(row.taskId));
			for (let index = 1; index < polls.length; index++) gaps.push(polls[index] - polls[index - 1]);
		}
		const waitLengths = [...waits].map(([until, seen]) => Number(until) - seen);
		const checkInterval =
			waitLengths.length > 0 ? median(waitLengths) : gaps.length > 0 ? median(gaps) : NaN;
		const ideal = slowest + checkInterval;
		const createTimes = creates.map((request) => request.at);
		const createSpan =
			createTimes.length > 0 ? Math.max(...createTimes) - Math.min(...createTimes) : NaN;
		const maxPolls = Math.max(0, ...withTask.map((row) => sim.pollLog(String(row.taskId)).length));

		// Pruning: the main process again, told to prune every finished execution at once.
		const pruneStarted = Date.now();
		n8n.main = await n8n.main.restart(PRUNE_EVERYTHING);
		let pruned = true;
		await until(
			'pruning to remove every finished execution',
			PRUNE_TIMEOUT_MS,
			async () => {
				const left = await db.psql(
					`SELECT count(*) FROM execution_entity WHERE status NOT IN ('new', 'running', 'waiting')`,
				);
				return Number(left) === 0;
			},
			POLL_MS,
		).catch((error: unknown) => {
			pruned = false;
			process.stderr.write(`[bench] ${String(error)}\n`);
		});
		const pruneSeconds = (Date.now() - pruneStarted) / 1000;
		const sizePruned = await dbSize();
		await db.psql('VACUUM FULL');
		const sizeVacuumed = await dbSize();

		const workerErrors = n8n.workers.flatMap((worker, index) =>
			worker
				.log()
				.split('\n')
				.filter((text) => /Error|error:/.test(text))
				.map((text) => `worker ${index + 1}: ${text.trim().slice(0, 200)}`),
		);
		const videos = Math.max(1, files.length);
		const perVideo = (after: number) => `${fixed(mb(after - sizeBefore) / videos, 2)} MB`;
		const lines = [
			`\nn8n ${version} in queue mode (main + ${n8n.workers.length} workers, Redis, Postgres): ${ROWS} rows over ${FAMILIES.join(', ')}; results ${fixed(mb(RESULT_BYTES), 2)} MB each; tasks queued ${QUEUED_MS / 1000} s + running ${RUNNING_MS / 1000} s; binary data: ${binaryEnv.N8N_DEFAULT_BINARY_DATA_MODE ?? 'n8n default (default: in the execution data)'}`,
			`Execution ${executionId}: ${status}${timedOut ? ` (did not end within ${RUN_TIMEOUT_MS / 1000} s)` : ''}; ${billed.length} tasks created (${creates.length - billed.length} creates refused) over ${fixed(createSpan / 1000)} s; ${queries} queries; ${sim.callbacks.length} callbacks; ${files.length} files on disk, smallest ${fixed(mb(smallest), 2)} MB; a task queried at most ${maxPolls} times; waits of the loop ${waitLengths.map((ms) => fixed(ms / 1000, 0)).join(', ')} s; ${executionsEnd} executions stored at the end`,
			'| figure | value | how |',
			'|---|---|---|',
			`| wall time ÷ ideal | ${fixed(wallMs / ideal, 2)} (${fixed(wallMs / 1000)} s ÷ ${fixed(ideal / 1000)} s) | wall: the execution's stoppedAt − its first startedAt (1.x moves startedAt on each resume); ideal: slowest task's lifetime ${fixed(slowest / 1000)} s (simulator timeline; Task family S: first query allowed after 600 s) + one check interval ${fixed(checkInterval / 1000)} s (median of the loop's ${waitLengths.length} waits: the Wait node's waitTill − first seen waiting, polled every 2 s) |`,
			`| gateway queries per task | ${fixed(queries / Math.max(1, billed.length), 2)} | ${queries} GET requests (file downloads not logged) ÷ ${billed.length} tasks created |`,
			...peaks.map(
				(peak, index) =>
					`| peak RSS, worker ${index + 1} | ${fixed(peak, 0)} MB | VmRSS of its process tree (n8n worker and task runners), every second |`,
			),
			`| Postgres growth per video, end of run | ${perVideo(sizeEnd)} | pg_database_size ${fixed(mb(sizeBefore))} → ${fixed(mb(sizeEnd))} MB, ÷ ${videos} videos on disk; largest tables: ${biggest.split('\n').join(', ')} |`,
			`| Postgres growth per video, after pruning | ${perVideo(sizePruned)} | ${pruned ? 'every finished execution pruned' : 'pruning did not finish'} in ${fixed(pruneSeconds, 0)} s (main restarted with ${Object.entries(
				PRUNE_EVERYTHING,
			)
				.map(([key, value]) => `${key}=${value}`)
				.join(' ')}): ${fixed(mb(sizePruned))} MB |`,
			`| Postgres growth per video, after pruning + VACUUM FULL | ${perVideo(sizeVacuumed)} | ${fixed(mb(sizeVacuumed))} MB |`,
			`| rows written back | ${written.length} of ${tableRows.length} | status succeeded, file and finishedAt set |`,
			`| rows lost | ${lost.length} | no task id, or no result (finishedAt or file empty) |`,
			`| rows duplicated | ${duplicated} | prompts the gateway created more than once (its recorded creates) |`,
		];
		if (workerErrors.length > 0)
			lines.push(
				`Worker log errors (${workerErrors.length}): ${workerErrors.slice(0, 5).join(' | ')}`,
			);
		console.log(lines.join('\n'));
	} finally {
		await cluster?.stop();
		await services?.stop();
		await sim.close();
	}
}

async function main(): Promise<void> {
	const packDir = mkdtempSync(join(tmpdir(), 'mg-bench-pack-'));
	try {
		const packed = await packPackage(packDir);
		for (const line of LINES) await benchLine(line, packed.tarball);
	} finally {
		if (existsSync(packDir)) rmSync(packDir, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

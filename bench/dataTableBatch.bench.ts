/**
 * Benchmark (not a test): `npm run bench:batch`.
 *
 * examples/video-data-table-batch.json at scale on n8n's queue mode, as a marketing team runs it:
 * real Redis and Postgres, one main process and two workers, the package installed in each; an
 * n8n Data Table of BENCH_ROWS rows (1,000) over every video family in turn; the gateway
 * simulator's video results BENCH_VIDEO_BYTES each (1 MiB), downloaded into n8n and written to
 * disk by the example; the example's callback URL set (Task family S and Family A tasks call its
 * Task Callback Trigger). Binary data as n8n sets it for queue mode: 2.x keeps it in the
 * database (its default there), 1.x in the execution data (its default; BENCH_BINARY_MODE below).
 *
 * Printed per line: wall time ÷ the ideal (the last moment a task could be seen finished, under
 * Task family S's 10-minute rule, plus one pass of the loop's Wait, 65 s), gateway queries per
 * task, peak RSS of each worker (its whole process group, sampled every second), Postgres
 * growth per video (at the end of the run, and after every execution was deleted and
 * hard-deleted by n8n's pruning, then VACUUM FULL), rows written back, lost, duplicated.
 *
 * BENCH_LINES ("1 2"), BENCH_ROWS (1000), BENCH_VIDEO_BYTES (1048576), BENCH_TIMEOUT_MIN (45),
 * BENCH_FAMILIES (every family; e.g. "generic familyA" for a short run without Task family S),
 * BENCH_BINARY_MODE (n8n's default for the line; "database" stores binary data in Postgres on
 * 1.x too: N8N_AVAILABLE_BINARY_DATA_MODES=filesystem,database, N8N_DEFAULT_BINARY_DATA_MODE).
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import {
	DATA_TABLE_EXAMPLE,
	createVideoTable,
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
import type { Execution, N8nLine } from '../test/e2e/harness';
import { N8N_VERSIONS, findInstallation, loadWorkflow, packPackage } from '../test/e2e/harness';
import { startQueueMode, startQueueServices, type N8nServiceProcess } from '../test/e2e/queueMode';
import { startSimulator, type RecordedRequest, type Simulator } from '../test/simulator';

const LINES = (process.env.BENCH_LINES ?? '1 2')
	.split(/[\s,]+/)
	.filter(Boolean)
	.map((line) => Number(line) as N8nLine);
const ROWS = Number(process.env.BENCH_ROWS ?? 1000);
const VIDEO_BYTES = Number(process.env.BENCH_VIDEO_BYTES ?? 1_048_576);
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MIN ?? 45) * 60_000;
const QUEUED_MS = 2_000;
const RUNNING_MS = 20_000;
/** Task family S: first query 10 minutes after creation. */
const TASK_S_FIRST_QUERY_MS = 600_000;
/** The loop's shortest Wait (n8n stores waits of 65 s or more). */
const LOOP_WAIT_MS = 65_000;
const WORKFLOW_ID = exampleWorkflowId(DATA_TABLE_EXAMPLE);

const CREATE_PATHS = [
	'/v1/videos',
	'/vendor-a/v1/videos/omni-video',
	'/vendor-b/v1/video/generations',
	'/vendor-c/ent/v2/reference2video',
	'/v1/task/create',
];

/** One row per family in turn, as a mixed marketing sheet. */
const FAMILY_ROWS: Array<Omit<VideoTableRow, 'prompt'>> = [
	{ family: 'generic', model: 'video-model-1' },
	{
		family: 'familyA',
		model: 'kling-video-2',
		endpoint: 'omni-video',
		request: '{"aspect_ratio": "16:9"}',
	},
	{ family: 'familyB', model: 'hunyuan-video' },
	{ family: 'familyC', model: 'vidu-q1' },
	{ family: 'taskS', model: 'seedance-video-1' },
	{ family: 'longRunning', model: 'veo-3' },
];

const BINARY_MODE = process.env.BENCH_BINARY_MODE ?? '';
const FAMILIES = (process.env.BENCH_FAMILIES ?? '').split(/[\s,]+/).filter(Boolean);

function benchRows(count: number): VideoTableRow[] {
	const families = FAMILY_ROWS.filter(
		(row) => FAMILIES.length === 0 || FAMILIES.includes(String(row.family)),
	);
	return Array.from({ length: count }, (_, index) => ({
		...families[index % families.length],
		prompt: `Bench row ${String(index + 1).padStart(5, '0')}`,
	}));
}

function promptOf(request: RecordedRequest): string {
	const body = (request.body ?? {}) as {
		prompt?: unknown;
		Prompt?: unknown;
		content?: Array<{ text?: unknown }>;
		instances?: Array<{ prompt?: unknown }>;
	};
	if (typeof body.prompt === 'string') return body.prompt;
	if (typeof body.Prompt === 'string') return body.Prompt;
	if (body.instances?.[0]?.prompt !== undefined) return String(body.instances[0].prompt);
	return String(body.content?.find((part) => typeof part.text === 'string')?.text ?? '');
}

const isCreate = (request: RecordedRequest) =>
	request.method === 'POST' &&
	(CREATE_PATHS.includes(request.path) || request.path.endsWith(':predictLongRunning'));

/** Resident memory of a process group (the n8n process and its task runner), in bytes. */
function groupRss(group: number): number {
	let total = 0;
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (Number(fields[2]) !== group) continue;
			const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${entry}/status`, 'utf8'));
			total += rss ? Number(rss[1]) * 1024 : 0;
		} catch {
			// The process ended between the listing and the read.
		}
	}
	return total;
}

/** The process group a worker's n8n runs in: its supervisor's child leads one. */
function workerGroup(worker: N8nServiceProcess): number | undefined {
	const supervisor = worker.supervisorPid;
	if (supervisor === undefined) return undefined;
	for (const entry of readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		try {
			const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (Number(fields[1]) === supervisor) return Number(fields[2]);
		} catch {
			// gone
		}
	}
	return undefined;
}

const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

async function benchLine(line: N8nLine, tarball: string): Promise<string[]> {
	const sim: Simulator = await startSimulator({
		queuedMs: QUEUED_MS,
		runningMs: RUNNING_MS,
		videoBytes: VIDEO_BYTES,
	});
	const services = await startQueueServices();
	const workflow = loadWorkflow(join(EXAMPLES_DIR, DATA_TABLE_EXAMPLE), WORKFLOW_ID);
	const cluster = await startQueueMode({
		line,
		services,
		packages: [tarball],
		credentials: simulatorCredentials(sim),
		workflows: [workflow],
		// Deleted executions are hard-deleted (binary data included) within a minute.
		env: {
			EXECUTIONS_DATA_HARD_DELETE_BUFFER: '0',
			EXECUTIONS_DATA_PRUNE_HARD_DELETE_INTERVAL: '1',
			...(BINARY_MODE === 'database'
				? {
						N8N_AVAILABLE_BINARY_DATA_MODES: 'filesystem,database',
						N8N_DEFAULT_BINARY_DATA_MODE: 'database',
					}
				: {}),
		},
	});
	const dbSize = async () =>
		Number(await services.psql('SELECT pg_database_size(current_database())'));
	try {
		const { main } = cluster;
		const videoFolders = cluster.workers.map((worker) => createExampleFolders(worker.userFolder));
		const trigger = workflow.nodes.find((node) => node.name === 'Task Callback Trigger');
		const triggerPath = `${String(trigger?.webhookId)}/${String(trigger?.id)}`;
		const table = await createVideoTable(main, benchRows(ROWS));
		await main.updateWorkflow(WORKFLOW_ID, (stored) => {
			useVideoTable(stored, table.id);
			setExampleSetting(stored, 'callbackUrl', main.webhookUrl(triggerPath));
		});
		await main.activateWorkflow(WORKFLOW_ID);
		await main.waitForWebhook(triggerPath);
		const dbBefore = await dbSize();

		const peakRss = cluster.workers.map(() => 0);
		const sampler = setInterval(() => {
			cluster.workers.forEach((worker, index) => {
				const group = workerGroup(worker);
				if (group !== undefined) peakRss[index] = Math.max(peakRss[index], groupRss(group));
			});
		}, 1_000);
		const started = Date.now();
		let execution: Execution;
		try {
			const executionId = await main.startManualWorkflow(WORKFLOW_ID);
			execution = await main.waitForExecution(executionId, TIMEOUT_MS);
		} finally {
			clearInterval(sampler);
		}
		const wall = Date.now() - started;
		const dbAtEnd = await dbSize();
		const largest = await services.psql(
			"SELECT string_agg(relname || ' ' || pg_size_pretty(pg_total_relation_size(relid)), ', ') FROM (SELECT relid, relname FROM pg_statio_user_tables ORDER BY pg_total_relation_size(relid) DESC LIMIT 3) t",
		);

		// What the run did, from the gateway's side and the table's.
		const creates = sim.requests.filter(isCreate);
		const prompts = creates.map(promptOf);
		const duplicated = prompts.length - new Set(prompts).size;
		const queries = sim.requests.filter(
			(request) => request.method === 'GET' && !request.path.startsWith('/files/'),
		).length;
		// The videos on disk, written by whichever worker ran the pass.
		const written = videoFolders.flatMap((folder) =>
			readdirSync(folder).map((file) => statSync(join(folder, file)).size),
		);
		const writtenBytes = written.reduce((sum, size) => sum + size, 0);
		const rows = await table.rows();
		const writtenBack = rows.filter((row) => row.taskId && row.finishedAt).length;
		const lost = rows.filter((row) => !row.taskId || !row.finishedAt).length;
		const ready = creates.map((request) => {
			const finished = request.at + QUEUED_MS + RUNNING_MS;
			return request.path === '/v1/task/create'
				? Math.max(finished, request.at + TASK_S_FIRST_QUERY_MS)
				: finished;
		});
		const ideal = Math.max(...ready) - started + LOOP_WAIT_MS;

		const status = `${execution.status}${execution.data?.resultData.error ? ` (${execution.data.resultData.error.message})` : ''}`;
		const figures = [
			`n8n ${N8N_VERSIONS[line]} queue mode, 2 workers, ${ROWS} rows, videos of ${mb(VIDEO_BYTES)} MiB, binary data ${BINARY_MODE === 'database' || line === 2 ? 'in the database' : 'in the execution data'}: run ${status}`,
			`| wall / ideal | ${(wall / 1000).toFixed(0)} s / ${(ideal / 1000).toFixed(0)} s = ${(wall / ideal).toFixed(2)} |`,
			`| gateway queries per task | ${(queries / creates.length).toFixed(2)} (${queries} queries, ${creates.length} tasks) |`,
			`| videos on disk | ${written.length} files, ${mb(writtenBytes)} MiB |`,
			`| peak RSS per worker | ${peakRss.map((rss) => `${mb(rss)} MiB`).join(' / ')} |`,
			`| Postgres growth per video, end of run | ${mb((dbAtEnd - dbBefore) / Math.max(1, writtenBack))} MiB (${mb(dbAtEnd - dbBefore)} MiB in all; largest: ${largest}) |`,
			`| rows written back / lost / duplicated | ${writtenBack} / ${lost} / ${duplicated} |`,
		];
		// Printed now: pruning below can take minutes.
		process.stdout.write(`\n${figures.join('\n')}\n`);

		// n8n's pruning: every execution deleted (soft), hard-deleted by the main process. Late
		// callbacks may still start executions: deleted as they come, for up to 5 minutes.
		let executionCount = 0;
		let left = 0;
		const pruneDeadline = Date.now() + 5 * 60_000;
		do {
			for (;;) {
				const page = await main.publicApi<{ data: Array<{ id: string }> }>(
					'GET',
					'/executions?limit=250',
				);
				if (page.data.length === 0) break;
				for (const { id } of page.data) await main.publicApi('DELETE', `/executions/${id}`);
				executionCount += page.data.length;
			}
			await new Promise((resolve) => setTimeout(resolve, 2_000));
			left = Number(await services.psql('SELECT count(*) FROM execution_entity'));
		} while (left > 0 && Date.now() < pruneDeadline);
		await services.psql('VACUUM FULL');
		const dbAfterPrune = await dbSize();
		return [
			`| Postgres growth per video, after pruning ${executionCount} executions (${left} left) + VACUUM FULL | ${mb((dbAfterPrune - dbBefore) / Math.max(1, writtenBack))} MiB (${mb(dbAfterPrune - dbBefore)} MiB in all) |`,
		];
	} finally {
		await cluster.stop();
		await services.stop();
		await sim.close();
	}
}

async function main(): Promise<void> {
	const packDir = mkdtempSync(join(tmpdir(), 'mg-bench-batch-'));
	try {
		const { tarball } = await packPackage(packDir);
		for (const line of LINES) {
			try {
				findInstallation(line);
			} catch {
				process.stdout.write(`n8n ${line}.x is not installed here: skipped\n`);
				continue;
			}
			const report = await benchLine(line, tarball).catch((error: unknown) => [
				`n8n ${line}.x: the benchmark failed: ${String(error)}`,
			]);
			process.stdout.write(`\n${report.join('\n')}\n`);
		}
	} finally {
		rmSync(packDir, { recursive: true, force: true });
	}
}

void main();

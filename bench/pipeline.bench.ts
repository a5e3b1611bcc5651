/**
 * Benchmark (not a test): `npm run bench:pipeline`.
 *
 * The shipped standing pipeline examples/video-pipeline-data-table.json on n8n's queue mode (real
 * Redis and Postgres, one main process, BENCH_WORKERS workers, test/e2e/queueMode.ts), the
 * gateway simulator on loopback with fast clocks. A Data Table gets BENCH_START_ROWS rows at the
 * start; the rest of BENCH_ROWS arrive while runs are going (BENCH_ADD_PER_MINUTE, in a few
 * inserts a minute). The workflow is activated: its Schedule Trigger fires every
 * BENCH_SCHEDULE_SECONDS; every result video is BENCH_RESULT_BYTES (1 MiB) and is downloaded and
 * written to disk by the pipeline's own finished-video executions. Task family S and Family A
 * call back (the trigger's URL is set).
 *
 * Printed per worker count: wall time ÷ ideal (ideal: the last row's arrival, plus one schedule
 * interval to be taken, one task lifetime, one schedule interval to be checked), rows finished per
 * minute, peak RSS per worker when 1,000 rows had finished and at the end, each worker's RSS every
 * minute and its slope per 1,000 rows finished, Postgres growth per
 * video at the end (no pruning), and the counts that must be 0: rows created more than once
 * (taken twice), Task family S queries against the rule (the simulator's violations), videos
 * downloaded twice (a row is completed only after its download, so no row is completed twice
 * without one).
 *
 * BENCH_N8N_LINES ("2"), BENCH_WORKERS ("1 2 4"), BENCH_ROWS (10000), BENCH_START_ROWS (1000),
 * BENCH_ADD_PER_MINUTE (600), BENCH_SCHEDULE_SECONDS (60), BENCH_ROWS_PER_CHUNK (10),
 * BENCH_CHUNKS_PER_RUN (20), BENCH_CHECKS_PER_RUN (400), BENCH_RESULT_BYTES (1048576),
 * BENCH_QUEUED_MS (2000), BENCH_RUNNING_MS (8000), BENCH_RUN_TIMEOUT_MS (14400000),
 * BENCH_HARD_DELETE_MINUTES (1).
 *
 * n8n 2.x does not delete an execution it was told not to keep at once: it marks it deleted and
 * its leader removes it, with its binary data (every video, 1 MiB), on the next hard delete
 * (EXECUTIONS_DATA_PRUNE_HARD_DELETE_INTERVAL, 15 minutes by default; 1.x deletes at once).
 * Postgres is therefore measured twice: at the end, and once n8n's hard delete has run, with
 * the interval docs/before-you-publish.md#settings-to-set asks for (BENCH_HARD_DELETE_MINUTES).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import {
	PIPELINE_EXAMPLE,
	PIPELINE_TABLE_COLUMNS,
	createRequestPrompt,
	createVideoTable,
	exampleCallbackPath,
	setExampleSetting,
	useVideoTable,
	moreThanOnce,
	sixFamilyRows,
	videoCreates,
	type VideoTableRow,
} from '../test/e2e/dataTable';
import {
	EXAMPLES_DIR,
	createExampleFolders,
	exampleWorkflowId,
	simulatorCredentials,
} from '../test/e2e/examples';
import type {
	Execution,
	JsonObject,
	N8nInstance,
	N8nLine,
	WorkflowJson,
} from '../test/e2e/harness';
import { N8N_VERSIONS, delay, loadWorkflow, packPackage, until } from '../test/e2e/harness';
import { startQueueMode, startQueueServices } from '../test/e2e/queueMode';
import { AUTO_DETECT, recognizeEvent } from '../nodes/ModelGatewayTaskTrigger/recognize';
import { isDone } from '../nodes/shared/tasks';
import { startSimulator } from '../test/simulator';
import { envNumbers } from './envNumbers';
import { sampleWorkerRss, slope, workerRssMb } from './processRss';

const LINES = envNumbers('BENCH_N8N_LINES', '2').map((line) => {
	if (line !== 1 && line !== 2) throw new Error(`BENCH_N8N_LINES: unknown line ${line}`);
	return line as N8nLine;
});
const WORKER_COUNTS = envNumbers('BENCH_WORKERS', '1 2 4');
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const START_ROWS = Math.min(ROWS, Number(process.env.BENCH_START_ROWS ?? 1_000));
const ADD_PER_MINUTE = Number(process.env.BENCH_ADD_PER_MINUTE ?? 600);
const SCHEDULE_SECONDS = Number(process.env.BENCH_SCHEDULE_SECONDS ?? 60);
const ROWS_PER_CHUNK = Number(process.env.BENCH_ROWS_PER_CHUNK ?? 10);
const CHUNKS_PER_RUN = Number(process.env.BENCH_CHUNKS_PER_RUN ?? 20);
const CHECKS_PER_RUN = Number(process.env.BENCH_CHECKS_PER_RUN ?? 400);
const RESULT_BYTES = Number(process.env.BENCH_RESULT_BYTES ?? 1_048_576);
const QUEUED_MS = Number(process.env.BENCH_QUEUED_MS ?? 2_000);
const RUNNING_MS = Number(process.env.BENCH_RUNNING_MS ?? 8_000);
const RUN_TIMEOUT_MS = Number(process.env.BENCH_RUN_TIMEOUT_MS ?? 14_400_000);
const HARD_DELETE_MINUTES = Number(process.env.BENCH_HARD_DELETE_MINUTES ?? 1);
/** Rows are added in this many inserts a minute. */
const INSERTS_PER_MINUTE = 6;
const POLL_MS = 5_000;
const PROMPT_PREFIX = 'Pipeline bench';

const WORKFLOW_ID = exampleWorkflowId(PIPELINE_EXAMPLE);

function benchRows(from: number, count: number): VideoTableRow[] {
	return sixFamilyRows(PROMPT_PREFIX, from, count);
}

const mb = (bytes: number) => bytes / 1024 / 1024;
const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '—');

async function benchOnce(line: N8nLine, workers: number, tarball: string): Promise<string[]> {
	const version = N8N_VERSIONS[line];
	const sim = await startSimulator({
		queuedMs: QUEUED_MS,
		runningMs: RUNNING_MS,
		resultVideoBytes: RESULT_BYTES,
	});
	const services = await startQueueServices();
	const workflow = loadWorkflow(join(EXAMPLES_DIR, PIPELINE_EXAMPLE), WORKFLOW_ID);
	const cluster = await startQueueMode({
		line,
		services,
		workers,
		packages: [tarball],
		credentials: simulatorCredentials(sim),
		workflows: [workflow],
		// What the docs ask of 1.x on SQLite is moot here (Postgres). What they ask of 2.x: the
		// hard delete often enough that videos of unkept executions leave Postgres soon.
		env: { EXECUTIONS_DATA_PRUNE_HARD_DELETE_INTERVAL: String(HARD_DELETE_MINUTES) },
	}).catch(async (error: unknown) => {
		await services.stop();
		await sim.close();
		throw error;
	});
	try {
		const { main } = cluster;
		const folders = [main.userFolder, ...cluster.workers.map((worker) => worker.userFolder)].map(
			createExampleFolders,
		);
		const table = await createVideoTable(
			main,
			benchRows(0, START_ROWS),
			'video_pipeline',
			PIPELINE_TABLE_COLUMNS,
		);
		await main.updateWorkflow(WORKFLOW_ID, (stored: WorkflowJson) => {
			useVideoTable(stored, table);
			setExampleSetting(stored, 'callbackUrl', main.webhookUrl(exampleCallbackPath(workflow)));
			setExampleSetting(stored, 'rowsPerChunk', ROWS_PER_CHUNK);
			setExampleSetting(stored, 'chunksPerRun', CHUNKS_PER_RUN);
			setExampleSetting(stored, 'checksPerRun', CHECKS_PER_RUN);
			const schedule = stored.nodes.find((node) => node.name === 'Every Minute');
			(schedule?.parameters as JsonObject).rule = {
				interval: [{ field: 'seconds', secondsInterval: SCHEDULE_SECONDS }],
			};
		});
		const dbSize = async () =>
			Number(await services.psql('SELECT pg_database_size(current_database())'));
		// Measured as the settled size is, after VACUUM FULL, so both count live data only.
		await services.psql('VACUUM FULL');
		const sizeBefore = await dbSize();
		let stopSampling = sampleWorkerRss(cluster.workers);
		let peaksAt1000: number[] | undefined;

		const startedAt = Date.now();
		await main.activateWorkflow(WORKFLOW_ID);
		await main.waitForWebhook(exampleCallbackPath(workflow));

		// The rest of the rows arrive while runs are going.
		let added = START_ROWS;
		let slowInserts = 0;
		let lastArrival = startedAt;
		const perInsert = Math.max(1, Math.round(ADD_PER_MINUTE / INSERTS_PER_MINUTE));
		const arrivals = (async () => {
			while (added < ROWS) {
				await delay(60_000 / INSERTS_PER_MINUTE);
				const count = Math.min(perInsert, ROWS - added);
				// A main process too busy to answer in 30 s is a figure, not the end of the bench:
				// the insert is tried again (n8n's insert is not idempotent, so only after a check).
				const insertedBefore = await table.rows().then(
					(rows) => rows.length,
					() => -1,
				);
				try {
					await table.insert(benchRows(added, count));
				} catch (error) {
					slowInserts++;
					process.stderr.write(`[bench] insert of ${count} rows: ${String(error)}\n`);
					await delay(5_000);
					const now = await table.rows().then(
						(rows) => rows.length,
						() => -1,
					);
					if (now !== -1 && now === insertedBefore) continue;
				}
				added += count;
				lastArrival = Date.now();
			}
		})();

		let finished = 0;
		// Each worker's memory once a minute, against the rows finished by then: the slope per
		// 1,000 rows says whether a worker grows with the work done (the goal: flat).
		const rssTimeline: Array<{ minute: number; finished: number; rssMb: number[] }> = [];
		const progress = setInterval(() => {
			const rssMb = workerRssMb(cluster.workers);
			rssTimeline.push({ minute: rssTimeline.length + 1, finished, rssMb });
			process.stderr.write(
				`[bench] ${new Date().toISOString()} ${workers} worker(s): ${added} rows in, ${finished} finished, ${
					videoCreates(sim.requests).length
				} creates, ${sim.fileDownloads.length} downloads, worker RSS ${rssMb.map((mb) => fixed(mb, 0)).join(', ')} MB\n`,
			);
		}, 60_000);
		let timedOut = false;
		try {
			await until(
				'every row finished',
				RUN_TIMEOUT_MS,
				async () => {
					finished = Number(
						await services.psql(
							`SELECT count(*) FROM "data_table_user_${table.id}" WHERE "finishedAt" IS NOT NULL`,
						),
					);
					if (finished >= 1_000 && !peaksAt1000) {
						peaksAt1000 = stopSampling();
						// Peaks from here on are the second half's.
						stopSampling = sampleWorkerRss(cluster.workers);
					}
					return added >= ROWS && finished >= ROWS;
				},
				POLL_MS,
			);
		} catch (error) {
			timedOut = true;
			process.stderr.write(`[bench] ${String(error)}\n`);
		} finally {
			clearInterval(progress);
		}
		const wallMs = Date.now() - startedAt;
		await arrivals;
		const peaksAfter = stopSampling();
		const sizeEnd = await dbSize();
		const executionsBy = async () =>
			(
				await services.psql(
					`SELECT kind || ': ' || count(*) FROM (SELECT status || CASE WHEN "deletedAt" IS NULL THEN '' ELSE ' (marked deleted)' END AS kind FROM execution_entity) AS executions GROUP BY kind ORDER BY kind`,
				)
			)
				.split('\n')
				.filter((entry) => entry.trim() !== '')
				.join(', ') || 'none';
		const executionsAtEnd = await executionsBy();
		// n8n's own hard delete (the leader, every HARD_DELETE_MINUTES): wait for it, bounded.
		const markedDeleted = async () =>
			Number(
				await services.psql('SELECT count(*) FROM execution_entity WHERE "deletedAt" IS NOT NULL'),
			);
		const hardDeleted = await until(
			'n8n to hard-delete the executions it marked deleted',
			(HARD_DELETE_MINUTES + 2) * 60_000,
			async () => (await markedDeleted()) === 0,
			POLL_MS,
		).then(
			() => true,
			() => false,
		);
		// Postgres keeps the space of deleted rows in its files for reuse (autovacuum); VACUUM FULL
		// rewrites the tables so the size is what stays, not the peak (tables of other owners are
		// skipped with a warning).
		const sizeBeforeVacuum = await dbSize();
		await services.psql('VACUUM FULL');
		const sizeSettled = await dbSize();
		const executionsSettled = await executionsBy();
		const failed = await failedExecutions((sql) => services.psql(sql), main);

		const rows = await table.rows();
		const prompts = videoCreates(sim.requests)
			.map((request) => createRequestPrompt(request.body))
			.filter((prompt) => prompt.startsWith(PROMPT_PREFIX));
		const downloads = sim.fileDownloads.map((download) => download.path);
		const files = folders.reduce((sum, folder) => sum + readdirSync(folder).length, 0);
		const succeeded = rows.filter((row) => row.status === 'succeeded' && row.file).length;
		const unfinished = rows
			.filter((row) => !row.finishedAt)
			.slice(0, 5)
			.map((row) =>
				JSON.stringify({
					id: row.id,
					family: row.family,
					status: row.status,
					taskId: row.taskId,
					claimedBy: row.claimedBy,
					checkedBy: row.checkedBy,
					nextCheckAt: row.nextCheckAt,
					error: row.error,
				}),
			);
		const perVideo = (bytes: number) => fixed((bytes - sizeBefore) / 1024 / Math.max(1, files), 1);
		// A final callback the gateway gave up on (every try unanswered within its timeout) leaves a
		// Task family S row to the spec's rule: no query before 10 minutes after its creation.
		const finalsByTask = new Map<string, { answered: boolean; firstAt: number }>();
		for (const callback of sim.callbacks) {
			const task = finalCallbackTask(callback.body);
			if (!task) continue;
			const known = finalsByTask.get(task) ?? { answered: false, firstAt: callback.at };
			known.answered ||= callback.status !== undefined && callback.status < 300;
			finalsByTask.set(task, known);
		}
		const lostFinals = [...finalsByTask].filter(([, final]) => !final.answered);
		const lostS = lostFinals.filter(([task]) =>
			rows.some((row) => row.taskId === task && row.family === 'taskS'),
		);
		const createdAt = (task: string) =>
			Date.parse(String(rows.find((row) => row.taskId === task)?.taskCreatedAt ?? '')) || startedAt;
		const unansweredCallbacks = sim.callbacks.filter(
			(callback) => callback.status === undefined || callback.status >= 300,
		).length;
		const ideal = Math.max(
			lastArrival - startedAt + 2 * SCHEDULE_SECONDS * 1_000 + QUEUED_MS + RUNNING_MS,
			...lostS.map(
				([task]) => createdAt(task) - startedAt + TASK_S_FIRST_QUERY_MS + SCHEDULE_SECONDS * 1_000,
			),
		);
		const peaks = (values: number[] | undefined) =>
			values ? values.map((peak) => `${fixed(peak, 0)} MB`).join(', ') : 'not reached';
		// From the first minute with 500 rows finished: the start (n8n loading, first runs) aside.
		const steady = rssTimeline.filter((sample) => sample.finished >= 500);
		const rssSlopes = cluster.workers
			.map((_, index) => {
				const perThousand = slope(
					steady.map((sample) => ({ x: sample.finished, y: sample.rssMb[index] })),
					1_000,
				);
				return perThousand === undefined ? 'not enough minutes' : `${fixed(perThousand, 1)} MB`;
			})
			.join(', ');
		const rssMinutes = rssTimeline.map(
			(sample) =>
				`| ${sample.minute} | ${sample.finished} | ${sample.rssMb.map((mb) => fixed(mb, 0)).join(', ')} |`,
		);
		return [
			`\nn8n ${version} in queue mode, main + ${workers} worker(s), Redis, Postgres: ${ROWS} rows (${START_ROWS} at the start, then ${ADD_PER_MINUTE} a minute), schedule every ${SCHEDULE_SECONDS} s, ${ROWS_PER_CHUNK} × ${CHUNKS_PER_RUN} rows and ${CHECKS_PER_RUN} checks per run, results ${fixed(mb(RESULT_BYTES), 2)} MB, tasks ${QUEUED_MS / 1000} s queued + ${RUNNING_MS / 1000} s running${timedOut ? `; DID NOT FINISH within ${RUN_TIMEOUT_MS / 1000} s` : ''}`,
			'| figure | value |',
			'|---|---|',
			`| wall ÷ ideal | ${fixed(wallMs / ideal, 2)} (${fixed(wallMs / 1000, 0)} s ÷ ${fixed(ideal / 1000, 0)} s: last arrival + 2 schedule intervals + a task's lifetime, or a Task family S row whose callback was lost: its creation + 10 minutes + a schedule interval) |`,
			`| callbacks unanswered (the simulator gives up after 5 s) / tasks whose every final went unanswered (of them Task family S, left to its 10-minute rule) | ${unansweredCallbacks} of ${sim.callbacks.length} / ${lostFinals.length} (${lostS.length}) |`,
			`| row inserts main did not answer within 30 s (tried again) | ${slowInserts} |`,
			`| rows finished per minute | ${fixed(finished / (wallMs / 60_000), 1)} |`,
			`| peak RSS per worker, until 1,000 rows finished | ${peaks(peaksAt1000)} |`,
			`| peak RSS per worker, after | ${peaks(peaksAfter)} |`,
			`| RSS slope per worker per 1,000 rows finished (least squares over the minutes from 500 finished) | ${rssSlopes} |`,
			`| Postgres growth per video, at the end | ${perVideo(sizeEnd)} KB (${fixed(mb(sizeBefore))} → ${fixed(mb(sizeEnd))} MB; executions: ${executionsAtEnd}) |`,
			`| Postgres growth per video, after n8n's hard delete (every ${HARD_DELETE_MINUTES} min) and VACUUM FULL, no pruning | ${hardDeleted ? '' : 'NOT HARD-DELETED IN TIME: '}${perVideo(sizeSettled)} KB (→ ${fixed(mb(sizeSettled))} MB, ${fixed(mb(sizeBeforeVacuum))} MB on disk before VACUUM FULL; executions: ${executionsSettled}) |`,
			`| rows created more than once (taken twice) | ${moreThanOnce(prompts).length} |`,
			`| Task family S queries against the rule | ${sim.violations.filter((violation) => /queried/.test(violation.message)).length} (spec violations in all: ${sim.violations.length}) |`,
			`| videos downloaded twice | ${moreThanOnce(downloads).length} |`,
			`| rows succeeded with their file / files on disk / rows | ${succeeded} / ${files} / ${rows.length} |`,
			'',
			'| minute | rows finished | RSS per worker (MB) |',
			'|---|---|---|',
			...rssMinutes,
			...(unfinished.length ? ['', 'Rows not finished (first 5):', ...unfinished] : []),
			...(failed.length ? ['', 'Failed executions (kept by n8n; first 10):', ...failed] : []),
		];
	} finally {
		await cluster.stop();
		await services.stop();
		await sim.close();
	}
}

/** Task family S: no query before 10 minutes after creation (unless it called back). */
const TASK_S_FIRST_QUERY_MS = 600_000;

/**
 * The task id of a final-state callback body, read as the Task Callback Trigger reads it (one
 * recognition and one status mapping for the package and its benchmark), else undefined.
 */
function finalCallbackTask(body: unknown): string | undefined {
	const event = recognizeEvent(body, AUTO_DETECT, {});
	return event && isDone(event.status) ? event.taskId : undefined;
}

/** Failed executions n8n kept (first 10): id, mode, status, the node and the message. */
async function failedExecutions(
	psql: (sql: string) => Promise<string>,
	main: N8nInstance,
): Promise<string[]> {
	const ids = (
		await psql(
			`SELECT id FROM execution_entity WHERE status NOT IN ('success', 'waiting', 'running', 'new') ORDER BY id LIMIT 10`,
		)
	)
		.split('\n')
		.filter((id) => id.trim() !== '');
	const described: string[] = [];
	for (const id of ids) {
		const execution = await main
			.publicApi<Execution>('GET', `/executions/${id}?includeData=true`)
			.catch(() => undefined);
		const result = execution?.data?.resultData;
		described.push(
			`${id} ${String(execution?.mode)} ${String(execution?.status)} at ${String(result?.lastNodeExecuted)}: ${String(result?.error?.message)}`,
		);
	}
	return described;
}

async function main(): Promise<void> {
	const packDir = mkdtempSync(join(tmpdir(), 'mg-bench-pack-'));
	try {
		const packed = await packPackage(packDir);
		for (const line of LINES)
			for (const workers of WORKER_COUNTS) {
				process.stderr.write(`[bench] n8n ${N8N_VERSIONS[line]}, ${workers} worker(s)\n`);
				console.log((await benchOnce(line, workers, packed.tarball)).join('\n'));
			}
	} finally {
		if (existsSync(packDir)) rmSync(packDir, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

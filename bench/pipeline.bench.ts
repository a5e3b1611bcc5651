/**
 * Benchmark (not a test): `npm run bench:pipeline`.
 *
 * A marketing team's day with the shipped standing pipeline examples/video-pipeline-data-table.json,
 * on n8n's queue mode (real Redis and Postgres, one main process, BENCH_WORKERS workers,
 * test/e2e/queueMode.ts), the gateway simulator on loopback with fast clocks. The day
 * (bench/pipelineDay.ts): sheets pasted in at once (BENCH_BURSTS, `minute:rows`, the first at
 * minute 0) and the rest of BENCH_ROWS steadily (BENCH_ADD_PER_MINUTE, six inserts a minute), the
 * six families in turn, every BENCH_FAIL_EVERY-th row asking the gateway to fail, and every
 * BENCH_LOSE_CALLBACKS_EVERY-th task that calls back losing every callback at the load balancer
 * (answered 503, as when no process is up to take it), so the pipeline's checks must find it.
 *
 * Callbacks go through a load balancer on loopback: to the main process, or (variant
 * BENCH_WEBHOOK_PROCESS=1) to an `n8n webhook` process only, as docs/running-at-scale.md sets
 * one up. The settings the docs ask for are on every process: the lazy expression engine
 * (BENCH_LAZY=1) and the hard delete every BENCH_HARD_DELETE_MINUTES. The example's own Settings
 * are used as shipped, unless BENCH_ROWS_PER_CHUNK, BENCH_CHUNKS_PER_RUN or BENCH_CHECKS_PER_RUN
 * say otherwise. Every result video is BENCH_RESULT_BYTES (1 MiB), downloaded and written to disk
 * by the pipeline's own finished-video executions.
 *
 * Printed per variant, per minute: rows in, created, finished, callbacks answered within the
 * simulator's 5 s, RSS of every n8n process, CPU of each kind of process (main, webhook process,
 * workers, Postgres), executions running. At the end: wall ÷ ideal (ideal: the last create the
 * Settings allow at best, plus a task's lifetime and a schedule interval; or a Task family S row
 * whose callbacks were lost: its creation + 10 minutes + a schedule interval), CPU per video of
 * each kind, RSS slope per 1,000 rows finished, Postgres bytes per video once n8n's hard delete
 * ran, and the counts that must be 0: rows created twice, videos downloaded twice, polling-rule
 * breaks, rows lost (not finished: neither a result, a failure nor listed for a person).
 *
 * BENCH_N8N_LINES ("2"), BENCH_WORKERS ("2"), BENCH_WEBHOOK_PROCESS ("0 1"), BENCH_ROWS (10000),
 * BENCH_BURSTS ("0:3000 20:2000 40:2000"), BENCH_ADD_PER_MINUTE (50), BENCH_FAIL_EVERY (25),
 * BENCH_LOSE_CALLBACKS_EVERY (20), BENCH_LAZY (1), BENCH_SCHEDULE_SECONDS (60),
 * BENCH_ROWS_PER_CHUNK, BENCH_CHUNKS_PER_RUN, BENCH_CHECKS_PER_RUN (the example's), BENCH_RESULT_BYTES
 * (1048576), BENCH_QUEUED_MS (2000), BENCH_RUNNING_MS (8000), BENCH_RUN_TIMEOUT_MS (14400000),
 * BENCH_HARD_DELETE_MINUTES (1).
 *
 * n8n 2.x does not delete an execution it was told not to keep at once: it marks it deleted and
 * its leader removes it, with its binary data (every video, 1 MiB), on the next hard delete
 * (EXECUTIONS_DATA_PRUNE_HARD_DELETE_INTERVAL, 15 minutes by default; 1.x deletes at once).
 * Postgres is therefore measured twice: at the end, and once n8n's hard delete has run.
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
	exampleSetting,
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
import { startQueueMode, startQueueServices, startRoundRobinProxy } from '../test/e2e/queueMode';
import { AUTO_DETECT, recognizeEvent } from '../nodes/ModelGatewayTaskTrigger/recognize';
import { startSimulator } from '../test/simulator';
import { envNumbers } from './envNumbers';
import { postgresTicks, processesOf, ticksAndRssMb, ticksToMs } from './n8nCpu';
import {
	asksToFail,
	dayArrivals,
	lastCreateAtBest,
	parseBursts,
	type Arrival,
} from './pipelineDay';
import { slope } from './processRss';

const LINES = envNumbers('BENCH_N8N_LINES', '2').map((line) => {
	if (line !== 1 && line !== 2) throw new Error(`BENCH_N8N_LINES: unknown line ${line}`);
	return line as N8nLine;
});
const WORKER_COUNTS = envNumbers('BENCH_WORKERS', '2');
const WEBHOOK_VARIANTS = envNumbers('BENCH_WEBHOOK_PROCESS', '0 1').map((value) => value === 1);
const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const BURSTS = parseBursts(process.env.BENCH_BURSTS ?? '0:3000 20:2000 40:2000');
const ADD_PER_MINUTE = Number(process.env.BENCH_ADD_PER_MINUTE ?? 50);
const FAIL_EVERY = Number(process.env.BENCH_FAIL_EVERY ?? 25);
const LOSE_CALLBACKS_EVERY = Number(process.env.BENCH_LOSE_CALLBACKS_EVERY ?? 20);
const LAZY = (process.env.BENCH_LAZY ?? '1') === '1';
const SCHEDULE_SECONDS = Number(process.env.BENCH_SCHEDULE_SECONDS ?? 60);
/** Settings of the example; undefined: as shipped. */
const SETTINGS_OVERRIDES = {
	rowsPerChunk: process.env.BENCH_ROWS_PER_CHUNK,
	chunksPerRun: process.env.BENCH_CHUNKS_PER_RUN,
	checksPerRun: process.env.BENCH_CHECKS_PER_RUN,
};
const RESULT_BYTES = Number(process.env.BENCH_RESULT_BYTES ?? 1_048_576);
const QUEUED_MS = Number(process.env.BENCH_QUEUED_MS ?? 2_000);
const RUNNING_MS = Number(process.env.BENCH_RUNNING_MS ?? 8_000);
const RUN_TIMEOUT_MS = Number(process.env.BENCH_RUN_TIMEOUT_MS ?? 14_400_000);
const HARD_DELETE_MINUTES = Number(process.env.BENCH_HARD_DELETE_MINUTES ?? 1);
const POLL_MS = 5_000;
const PROMPT_PREFIX = 'Pipeline bench';
/** Task family S: no query before 10 minutes after creation (unless it called back). */
const TASK_S_FIRST_QUERY_MS = 600_000;

const WORKFLOW_ID = exampleWorkflowId(PIPELINE_EXAMPLE);

/** The day's rows `from` … `from + count - 1`: six families in turn, some asking to fail. */
function benchRows(from: number, count: number): VideoTableRow[] {
	return sixFamilyRows(PROMPT_PREFIX, from, count).map((row, offset) =>
		asksToFail(from + offset, FAIL_EVERY) ? { ...row, prompt: `${String(row.prompt)} FAIL` } : row,
	);
}

const mb = (bytes: number) => bytes / 1024 / 1024;
const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
const percent = (part: number, whole: number) =>
	whole === 0 ? '—' : `${fixed((100 * part) / whole, 1)} %`;

/** A number setting of the example's Settings node, as shipped. */
function shippedSetting(workflow: WorkflowJson, name: string): number {
	const value = exampleSetting(workflow, name);
	if (typeof value !== 'number') throw new Error(`the example's setting ${name} is not a number`);
	return value;
}

/** One kind of process the bench watches: its CPU and memory are read from /proc each minute. */
interface Watched {
	name: string;
	kind: 'main' | 'webhook' | 'worker' | 'postgres';
	/** CPU ticks and RSS now (RSS undefined for Postgres: not an n8n process). */
	read(): { ticks: number; rssMb?: number };
}

interface Minute {
	minute: number;
	rowsIn: number;
	created: number;
	finished: number;
	rssMb: Array<number | undefined>;
	ticks: number[];
	running: string;
}

async function benchOnce(
	line: N8nLine,
	workers: number,
	webhookProcess: boolean,
	tarball: string,
): Promise<string[]> {
	const version = N8N_VERSIONS[line];
	const sim = await startSimulator({
		queuedMs: QUEUED_MS,
		runningMs: RUNNING_MS,
		resultVideoBytes: RESULT_BYTES,
	});
	const services = await startQueueServices();
	const balancer = await startRoundRobinProxy();
	balancer.loseEveryNthTask = LOSE_CALLBACKS_EVERY;
	const workflow = loadWorkflow(join(EXAMPLES_DIR, PIPELINE_EXAMPLE), WORKFLOW_ID);
	const settings = {
		rowsPerChunk: Number(
			SETTINGS_OVERRIDES.rowsPerChunk ?? shippedSetting(workflow, 'rowsPerChunk'),
		),
		chunksPerRun: Number(
			SETTINGS_OVERRIDES.chunksPerRun ?? shippedSetting(workflow, 'chunksPerRun'),
		),
		checksPerRun: Number(
			SETTINGS_OVERRIDES.checksPerRun ?? shippedSetting(workflow, 'checksPerRun'),
		),
	};
	const cluster = await startQueueMode({
		line,
		services,
		workers,
		webhookProcess,
		packages: [tarball],
		credentials: simulatorCredentials(sim),
		workflows: [workflow],
		// The balancer is the cluster's public address, so the callback URL (and the secret the
		// Video node adds to it only for this n8n's own address) names it.
		publicUrl: balancer.url,
		env: {
			// What docs/running-at-scale.md asks of every process that receives callbacks (2.x).
			...(LAZY ? { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' } : {}),
			// What docs/before-you-publish.md asks of 2.x: the hard delete often enough that videos
			// of unkept executions leave Postgres soon.
			EXECUTIONS_DATA_PRUNE_HARD_DELETE_INTERVAL: String(HARD_DELETE_MINUTES),
		},
	}).catch(async (error: unknown) => {
		await balancer.close();
		await services.stop();
		await sim.close();
		throw error;
	});
	try {
		const { main } = cluster;
		balancer.targets = [cluster.webhook ? cluster.webhook.baseUrl : main.baseUrl];
		const folders = [main.userFolder, ...cluster.workers.map((worker) => worker.userFolder)].map(
			createExampleFolders,
		);
		const arrivals: Arrival[] = dayArrivals(ROWS, BURSTS, ADD_PER_MINUTE);
		const first = arrivals[0]?.atMs === 0 ? (arrivals.shift()?.rows ?? 0) : 0;
		const table = await createVideoTable(
			main,
			benchRows(0, first),
			'video_pipeline',
			PIPELINE_TABLE_COLUMNS,
		);
		await main.updateWorkflow(WORKFLOW_ID, (stored: WorkflowJson) => {
			useVideoTable(stored, table);
			setExampleSetting(stored, 'rowsPerChunk', settings.rowsPerChunk);
			setExampleSetting(stored, 'chunksPerRun', settings.chunksPerRun);
			setExampleSetting(stored, 'checksPerRun', settings.checksPerRun);
			const schedule = stored.nodes.find((node) => node.name === 'Every Minute');
			(schedule?.parameters as JsonObject).rule = {
				interval: [{ field: 'seconds', secondsInterval: SCHEDULE_SECONDS }],
			};
		});
		const sql = async (query: string) => await services.psql(query);
		const countRows = async (where = 'TRUE') =>
			Number(await sql(`SELECT count(*) FROM "data_table_user_${table.id}" WHERE ${where}`));
		const dbSize = async () => Number(await sql('SELECT pg_database_size(current_database())'));
		// Measured as the settled size is, after VACUUM FULL, so both count live data only.
		await sql('VACUUM FULL');
		const sizeBefore = await dbSize();

		const watched: Watched[] = [
			{ name: 'main', kind: 'main', read: () => ticksAndRssMb(processesOf(main.userFolder)) },
			...(cluster.webhook
				? [
						{
							name: 'webhook',
							kind: 'webhook' as const,
							read: () => ticksAndRssMb(processesOf(cluster.webhook?.userFolder ?? '')),
						},
					]
				: []),
			...cluster.workers.map((worker) => ({
				name: worker.name,
				kind: 'worker' as const,
				read: () => ticksAndRssMb(processesOf(worker.userFolder)),
			})),
			{
				name: 'Postgres',
				kind: 'postgres',
				read: () => ({ ticks: postgresTicks(services.postgres.port) }),
			},
		];
		const ticksAtStart = watched.map((process) => process.read().ticks);
		const benchCpuAtStart = process.cpuUsage();

		const startedAt = Date.now();
		await main.activateWorkflow(WORKFLOW_ID);
		await main.waitForWebhook(exampleCallbackPath(workflow));

		// The rest of the day's rows arrive while runs are going.
		let added = first;
		let slowInserts = 0;
		let lastArrival = startedAt;
		const arriving = (async () => {
			for (const arrival of arrivals) {
				const wait = startedAt + arrival.atMs - Date.now();
				if (wait > 0) await delay(wait);
				for (;;) {
					// A main process too busy to answer in 30 s is a figure, not the end of the bench:
					// the insert is tried again (n8n's insert is not idempotent, so only after a count).
					const before = await countRows();
					try {
						await table.insert(benchRows(added, arrival.rows));
						break;
					} catch (error) {
						slowInserts++;
						process.stderr.write(`[bench] insert of ${arrival.rows} rows: ${String(error)}\n`);
						await delay(5_000);
						if ((await countRows()) !== before) break;
					}
				}
				added += arrival.rows;
				lastArrival = Date.now();
			}
		})();

		let finished = 0;
		let longestScheduleRunS = 0;
		const minutes: Minute[] = [];
		const sampleMinute = async () => {
			const reads = watched.map((process) => process.read());
			const [created, finishedNow, running, longest] = await Promise.all([
				countRows('"taskId" IS NOT NULL AND "taskId" <> \'\''),
				countRows('"finishedAt" IS NOT NULL'),
				sql(
					`SELECT string_agg(mode || ' ' || n, ', ') FROM (SELECT mode, count(*) AS n FROM execution_entity WHERE status = 'running' GROUP BY mode ORDER BY mode) AS r`,
				),
				// Schedule runs n8n still holds (kept until its hard delete), finished or running.
				sql(
					`SELECT coalesce(max(EXTRACT(EPOCH FROM (coalesce("stoppedAt", now()) - "startedAt"))), 0) FROM execution_entity WHERE mode = 'trigger' AND "startedAt" IS NOT NULL`,
				),
			]).catch(() => [NaN, NaN, 'unread', '0'] as const);
			longestScheduleRunS = Math.max(longestScheduleRunS, Number(longest));
			minutes.push({
				minute: minutes.length + 1,
				rowsIn: added,
				created: Number(created),
				finished: Number(finishedNow),
				rssMb: reads.map((read) => read.rssMb),
				ticks: reads.map((read) => read.ticks),
				running: String(running).trim() || 'none',
			});
			const last = minutes[minutes.length - 1];
			process.stderr.write(
				`[bench] ${new Date().toISOString()} minute ${last.minute}: ${added} rows in, ${last.created} created, ${last.finished} finished, ${sim.callbacks.length} callbacks, RSS ${watched
					.filter((watch) => watch.kind !== 'postgres')
					.map((watch, index) => `${watch.name} ${fixed(reads[index].rssMb ?? 0, 0)}`)
					.join(
						', ',
					)} MB, running: ${last.running}, this process (simulator) heap ${fixed(mb(process.memoryUsage().heapUsed), 0)} MB\n`,
			);
		};
		const progress = setInterval(() => void sampleMinute(), 60_000);
		let timedOut = false;
		try {
			await until(
				'every row finished',
				RUN_TIMEOUT_MS,
				async () => {
					finished = await countRows('"finishedAt" IS NOT NULL');
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
		const ticksAtEnd = watched.map((process) => process.read().ticks);
		const benchCpu = process.cpuUsage(benchCpuAtStart);
		await arriving;
		const sizeEnd = await dbSize();
		const executionsBy = async () =>
			(
				await sql(
					`SELECT kind || ': ' || count(*) FROM (SELECT status || CASE WHEN "deletedAt" IS NULL THEN '' ELSE ' (marked deleted)' END AS kind FROM execution_entity) AS executions GROUP BY kind ORDER BY kind`,
				)
			)
				.split('\n')
				.filter((entry) => entry.trim() !== '')
				.join(', ') || 'none';
		const executionsAtEnd = await executionsBy();
		// n8n's own hard delete (the leader, every HARD_DELETE_MINUTES): wait for it, bounded.
		const hardDeleted = await until(
			'n8n to hard-delete the executions it marked deleted',
			(HARD_DELETE_MINUTES + 2) * 60_000,
			async () =>
				Number(await sql('SELECT count(*) FROM execution_entity WHERE "deletedAt" IS NOT NULL')) ===
				0,
			POLL_MS,
		).then(
			() => true,
			() => false,
		);
		// Postgres keeps the space of deleted rows in its files for reuse (autovacuum); VACUUM FULL
		// rewrites the tables so the size is what stays, not the peak.
		const sizeBeforeVacuum = await dbSize();
		await sql('VACUUM FULL');
		const sizeSettled = await dbSize();
		const executionsSettled = await executionsBy();
		const failed = await failedExecutions(sql, main);

		const rows = await table.rows();
		const prompts = videoCreates(sim.requests)
			.map((request) => createRequestPrompt(request.body))
			.filter((prompt) => prompt.startsWith(PROMPT_PREFIX));
		const downloads = sim.fileDownloads.map((download) => download.path);
		const files = folders.reduce((sum, folder) => sum + readdirSync(folder).length, 0);
		const byStatus = new Map<string, number>();
		for (const row of rows) {
			const status = String(row.status ?? '(none)');
			byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
		}
		const askedToFail = rows.filter((row) => String(row.prompt).endsWith(' FAIL'));
		const failedAsAsked = askedToFail.filter((row) => row.status === 'failed').length;
		const failedUnasked = rows.filter(
			(row) => row.status === 'failed' && !String(row.prompt).endsWith(' FAIL'),
		).length;
		const succeeded = rows.filter((row) => row.status === 'succeeded' && row.file).length;
		const lost = rows.filter((row) => !row.finishedAt);

		// Callbacks, as the gateway saw them: answered (any HTTP status) within its 5 s or not.
		const lostOnPurpose = (body: unknown) => {
			const task = callbackTask(body);
			return task !== undefined && balancer.lostTaskIds.has(task);
		};
		const delivered = sim.callbacks.filter((callback) => !lostOnPurpose(callback.body));
		const answeredInTime = delivered.filter(
			(callback) => callback.status !== undefined && callback.status < 300,
		);
		const createdAt = (task: string) =>
			Date.parse(String(rows.find((row) => row.taskId === task)?.taskCreatedAt ?? '')) || startedAt;
		const lostS = [...balancer.lostTaskIds].filter((task) =>
			rows.some((row) => row.taskId === task && row.family === 'taskS'),
		);
		const createsPerRun = settings.rowsPerChunk * settings.chunksPerRun;
		const allArrivals = [{ atMs: 0, rows: first }, ...arrivals];
		const ideal = Math.max(
			lastCreateAtBest(allArrivals, createsPerRun, SCHEDULE_SECONDS * 1_000, 0) +
				QUEUED_MS +
				RUNNING_MS +
				SCHEDULE_SECONDS * 1_000,
			lastArrival - startedAt + 2 * SCHEDULE_SECONDS * 1_000 + QUEUED_MS + RUNNING_MS,
			...lostS.map(
				(task) => createdAt(task) - startedAt + TASK_S_FIRST_QUERY_MS + SCHEDULE_SECONDS * 1_000,
			),
		);

		// CPU per video of each kind of process over the whole day.
		const kinds = ['main', 'webhook', 'worker', 'postgres'] as const;
		const cpuMsOfKind = (kind: (typeof kinds)[number]) =>
			ticksToMs(
				watched.reduce(
					(sum, watch, index) =>
						watch.kind === kind ? sum + ticksAtEnd[index] - ticksAtStart[index] : sum,
					0,
				),
			);
		const videos = Math.max(1, finished);
		const cpuLines = kinds
			.filter((kind) => watched.some((watch) => watch.kind === kind))
			.map(
				(kind) =>
					`| CPU per video: ${kind === 'worker' ? `workers (${workers} together)` : kind} | ${fixed(cpuMsOfKind(kind) / videos, 0)} ms (${fixed(cpuMsOfKind(kind) / 1000, 0)} s in all, ${fixed((100 * cpuMsOfKind(kind)) / wallMs, 0)} % of one core over the day) |`,
			);
		const benchCpuMs = (benchCpu.user + benchCpu.system) / 1000;

		// Per minute: rows, callbacks by the minute they were sent, RSS, CPU of each kind.
		const callbackMinute = (at: number) => Math.floor((at - startedAt) / 60_000) + 1;
		const callbacksIn = (minute: number) => {
			const sent = delivered.filter((callback) => callbackMinute(callback.at) === minute);
			const inTime = sent.filter(
				(callback) => callback.status !== undefined && callback.status < 300,
			).length;
			return `${inTime} / ${sent.length}`;
		};
		const n8nWatched = watched.filter((watch) => watch.kind !== 'postgres');
		const minuteLines = minutes.map((sample, index) => {
			const before = index === 0 ? ticksAtStart : minutes[index - 1].ticks;
			const cpu = kinds
				.filter((kind) => watched.some((watch) => watch.kind === kind))
				.map((kind) =>
					fixed(
						watched.reduce(
							(sum, watch, at) => (watch.kind === kind ? sum + sample.ticks[at] - before[at] : sum),
							0,
						) / 60,
						0,
					),
				)
				.join(' / ');
			const previous = index === 0 ? undefined : minutes[index - 1];
			return `| ${sample.minute} | ${sample.rowsIn} | ${sample.created} (+${sample.created - (previous?.created ?? 0)}) | ${sample.finished} (+${sample.finished - (previous?.finished ?? 0)}) | ${callbacksIn(sample.minute)} | ${n8nWatched
				.map((_, at) => fixed(sample.rssMb[at] ?? 0, 0))
				.join(', ')} | ${cpu} | ${sample.running} |`;
		});
		// From the first minute with 500 rows finished: the start (n8n loading, first runs) aside.
		// Once over the minutes rows were still created (memory under work), once to the end
		// (which includes the fall once the work is done).
		const fromFiveHundred = minutes.filter((sample) => sample.finished >= 500);
		const whileCreating = fromFiveHundred.filter((sample) => {
			const previous = minutes[sample.minute - 2];
			return sample.created > (previous?.created ?? 0);
		});
		const slopesOver = (samples: Minute[]) =>
			n8nWatched
				.map((watch, index) => {
					const perThousand = slope(
						samples.map((sample) => ({ x: sample.finished, y: sample.rssMb[index] ?? 0 })),
						1_000,
					);
					return `${watch.name} ${perThousand === undefined ? 'not enough minutes' : `${fixed(perThousand, 1)} MB`}`;
				})
				.join(', ');
		const rssSlopes = `while rows were created (${whileCreating.length} minutes): ${slopesOver(whileCreating)}; to the end (${fromFiveHundred.length} minutes): ${slopesOver(fromFiveHundred)}`;
		const rssPeaks = n8nWatched
			.map(
				(watch, index) =>
					`${watch.name} ${fixed(Math.max(0, ...minutes.map((sample) => sample.rssMb[index] ?? 0)), 0)} MB`,
			)
			.join(', ');
		const perVideo = (bytes: number) => fixed((bytes - sizeBefore) / 1024 / Math.max(1, files), 1);
		const finishedPerMinute = minutes.map(
			(sample, index) => sample.finished - (index === 0 ? 0 : minutes[index - 1].finished),
		);
		const cpuKinds = kinds.filter((kind) => watched.some((watch) => watch.kind === kind));
		return [
			`\nn8n ${version} in queue mode, main + ${workers} worker(s)${webhookProcess ? ' + an n8n webhook process taking every callback' : ', main taking every callback'}, Redis, Postgres${LAZY ? ', N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true' : ''}: ${ROWS} rows (bursts ${BURSTS.map((burst) => `${burst.rows} at minute ${burst.minute}`).join(', ')}; the rest ${ADD_PER_MINUTE} a minute), every ${FAIL_EVERY}th row failing, every ${LOSE_CALLBACKS_EVERY}th task's callbacks lost; schedule every ${SCHEDULE_SECONDS} s, ${settings.rowsPerChunk} × ${settings.chunksPerRun} rows and ${settings.checksPerRun} checks per run, results ${fixed(mb(RESULT_BYTES), 2)} MB, tasks ${QUEUED_MS / 1000} s queued + ${RUNNING_MS / 1000} s running${timedOut ? `; DID NOT FINISH within ${RUN_TIMEOUT_MS / 1000} s` : ''}`,
			'| figure | value |',
			'|---|---|',
			`| wall ÷ ideal | ${fixed(wallMs / ideal, 2)} (${fixed(wallMs / 1000, 0)} s ÷ ${fixed(ideal / 1000, 0)} s: the last create the Settings allow at best (${createsPerRun} a run) + a task's lifetime + a schedule interval, or a Task family S row whose callbacks were lost: its creation + 10 minutes + a schedule interval) |`,
			`| rows finished per minute: over the day / best minute | ${fixed(finished / (wallMs / 60_000), 1)} / ${Math.max(0, ...finishedPerMinute)} |`,
			`| callbacks answered within the simulator's 5 s (those not lost on purpose) | ${answeredInTime.length} of ${delivered.length} (${percent(answeredInTime.length, delivered.length)}) |`,
			`| tasks whose callbacks were lost on purpose (of them Task family S, left to its 10-minute rule) | ${balancer.lostTaskIds.size} (${lostS.length}) |`,
			`| row inserts main did not answer within 30 s (tried again) | ${slowInserts} |`,
			`| longest schedule run seen (n8n keeps it until its hard delete) | ${fixed(longestScheduleRunS, 0)} s (schedule every ${SCHEDULE_SECONDS} s) |`,
			...cpuLines,
			`| CPU of the simulator and this bench (one process) | ${fixed(benchCpuMs / videos, 0)} ms per video |`,
			`| peak RSS (sampled each minute) | ${rssPeaks} |`,
			`| RSS slope per 1,000 rows finished (least squares over the minutes from 500 finished) | ${rssSlopes} |`,
			`| Postgres growth per video, at the end | ${perVideo(sizeEnd)} KB (${fixed(mb(sizeBefore))} → ${fixed(mb(sizeEnd))} MB; executions: ${executionsAtEnd}) |`,
			`| Postgres growth per video, after n8n's hard delete (every ${HARD_DELETE_MINUTES} min) and VACUUM FULL | ${hardDeleted ? '' : 'NOT HARD-DELETED IN TIME: '}${perVideo(sizeSettled)} KB (→ ${fixed(mb(sizeSettled))} MB, ${fixed(mb(sizeBeforeVacuum))} MB on disk before VACUUM FULL; executions: ${executionsSettled}) |`,
			`| rows created more than once (taken twice) | ${moreThanOnce(prompts).length} |`,
			`| videos downloaded twice | ${moreThanOnce(downloads).length} |`,
			`| Task family S queries against the rule | ${sim.violations.filter((violation) => /queried/.test(violation.message)).length} (spec violations in all: ${sim.violations.length}) |`,
			`| rows lost (not finished: no result, no failure, not listed for a person) | ${lost.length} |`,
			`| rows asked to fail: failed / in all; rows failed without being asked | ${failedAsAsked} / ${askedToFail.length}; ${failedUnasked} |`,
			`| rows succeeded with their file / files on disk / rows | ${succeeded} / ${files} / ${rows.length} |`,
			`| rows by status | ${[...byStatus].map(([status, count]) => `${status} ${count}`).join(', ')} |`,
			'',
			`| minute | rows in | created | finished | callbacks sent that minute: answered within 5 s / sent | RSS MB (${n8nWatched.map((watch) => watch.name).join(', ')}) | CPU % of a core (${cpuKinds.join(' / ')}) | executions running |`,
			'|---|---|---|---|---|---|---|---|',
			...minuteLines,
			...(lost.length
				? [
						'',
						'Rows not finished (first 5):',
						...lost.slice(0, 5).map((row) =>
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
						),
					]
				: []),
			...(failed.length ? ['', 'Failed executions (kept by n8n; first 10):', ...failed] : []),
		];
	} finally {
		await cluster.stop();
		await balancer.close();
		await services.stop();
		await sim.close();
	}
}

/**
 * The task id of a callback body, read as the Task Callback Trigger reads it (one recognition
 * for the package and its benchmark), else undefined.
 */
function callbackTask(body: unknown): string | undefined {
	return recognizeEvent(body, AUTO_DETECT, {})?.taskId;
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
			for (const workers of WORKER_COUNTS)
				for (const webhookProcess of WEBHOOK_VARIANTS) {
					process.stderr.write(
						`[bench] n8n ${N8N_VERSIONS[line]}, ${workers} worker(s)${webhookProcess ? ', webhook process' : ''}\n`,
					);
					console.log((await benchOnce(line, workers, webhookProcess, packed.tarball)).join('\n'));
				}
	} finally {
		if (existsSync(packDir)) rmSync(packDir, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

/**
 * Benchmark (not a test): `npm run bench:table-size`.
 *
 * What one run of the shipped standing pipeline (examples/video-pipeline-data-table.json) costs
 * when its Data Table keeps the rows of the last weeks. n8n 2.x on Postgres (regular mode: the
 * run is n8n's main process), the gateway simulator on loopback. For each N of BENCH_TABLE_ROWS
 * the table `video_pipeline` is filled directly in Postgres with N finished rows (status
 * succeeded, a task id, a file, finishedAt spread over the last BENCH_KEPT_DAYS days) and a
 * handful of open rows (a task running, its next check tomorrow), then the workflow is run from its
 * manual trigger (the same nodes a scheduled run goes through; the schedule is disabled):
 * - BENCH_REPEATS runs with nothing to do;
 * - BENCH_REPEATS runs each finding BENCH_NEW_ROWS new rows (inserted through n8n's insert API)
 *   that it creates tasks for (their next checks are then moved to tomorrow by SQL, so the next
 *   run finds the same).
 * Printed per run: the execution's duration, each lane's time (the nodes on its sticky note:
 * their executionTime summed), n8n's CPU during the run (its processes, bench/n8nCpu.ts, the
 * bench's own polling for the end included) and Postgres's, and each Data Table query on the
 * table as Postgres logged it (log_min_duration_statement=0): calls and time. Once per N, each
 * distinct query of a run with new rows with its plan (EXPLAIN ANALYZE for reads, EXPLAIN for
 * writes). Then the table's bytes per row, and n8n's data-table size limit
 * (N8N_DATA_TABLES_MAX_SIZE_BYTES) met: n8n restarted with the limit at the tables' size, a run
 * with new rows, what fails, and whether deleting rows lowers what n8n counts.
 *
 * Knobs: BENCH_TABLE_ROWS ("0 10000 100000"), BENCH_KEPT_DAYS (30), BENCH_REPEATS (3),
 * BENCH_NEW_ROWS (50), BENCH_EXAMPLE_REVISION (a git revision of the example; unset: the file as
 * it is), BENCH_SIZE_LIMIT ("1"; "0" skips the limit), BENCH_KEEP_FINISHED_DAYS (unset: the
 * example's Settings).
 */
import { execFileSync } from 'child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import {
	PIPELINE_EXAMPLE,
	PIPELINE_TABLE_COLUMNS,
	createVideoTable,
	exampleCallbackPath,
	setExampleSetting,
	useVideoTable,
	videoRows,
	type VideoSheetLine,
	type VideoTable,
} from '../test/e2e/dataTable';
import {
	EXAMPLES_DIR,
	createExampleFolders,
	exampleWorkflowId,
	simulatorCredentials,
} from '../test/e2e/examples';
import type { Execution, JsonObject, N8nInstance, WorkflowJson } from '../test/e2e/harness';
import { N8N_VERSIONS, loadWorkflow, packPackage, startN8n } from '../test/e2e/harness';
import { startQueueServices, type QueueServices } from '../test/e2e/queueMode';
import { startSimulator } from '../test/simulator';
import { envNumbers } from './envNumbers';
import { cpuTicks, median, postgresTicks, settle, ticksToMs } from './n8nCpu';

const ROW_COUNTS = envNumbers('BENCH_TABLE_ROWS', '0 10000 100000');
const KEPT_DAYS = Number(process.env.BENCH_KEPT_DAYS ?? 30);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const NEW_ROWS = Number(process.env.BENCH_NEW_ROWS ?? 50);
const REVISION = process.env.BENCH_EXAMPLE_REVISION ?? '';
const SIZE_LIMIT = process.env.BENCH_SIZE_LIMIT !== '0';
const KEEP_FINISHED_DAYS = process.env.BENCH_KEEP_FINISHED_DAYS;
/** Rows with a task running, their next check tomorrow: a day's work in flight. */
const OPEN_ROWS = 20;
const WORKFLOW_ID = exampleWorkflowId(PIPELINE_EXAMPLE);
const STICKY = 'n8n-nodes-base.stickyNote';

/** The example as it is, or as it was at REVISION. */
function pipelineWorkflow(): WorkflowJson {
	if (!REVISION) return loadWorkflow(join(EXAMPLES_DIR, PIPELINE_EXAMPLE), WORKFLOW_ID);
	const text = execFileSync('git', ['show', `${REVISION}:examples/${PIPELINE_EXAMPLE}`], {
		encoding: 'utf8',
	});
	return { ...(JSON.parse(text) as WorkflowJson), id: WORKFLOW_ID };
}

/** Each node's lane: the name of the sticky note it lies on ("Lane: " left off). */
function lanesOf(workflow: WorkflowJson): Map<string, string> {
	const position = (node: JsonObject) => node.position as [number, number];
	const notes = workflow.nodes.filter((node) => node.type === STICKY);
	const lanes = new Map<string, string>();
	for (const node of workflow.nodes.filter((candidate) => candidate.type !== STICKY)) {
		const [x, y] = position(node);
		const note = notes.find((candidate) => {
			const [left, top] = position(candidate);
			const { width, height } = candidate.parameters as JsonObject;
			return x >= left && y >= top && x < left + Number(width) && y < top + Number(height);
		});
		lanes.set(node.name, note ? note.name.replace(/^Lane: /, '') : '(no lane)');
	}
	return lanes;
}

/** An ISO timestamp in SQL, as the pipeline writes them (`$now.toUTC().toISO()`). */
const iso = (expression: string) =>
	`to_char((${expression}) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

const COLUMNS = PIPELINE_TABLE_COLUMNS.map((column) => `"${column}"`).join(', ');

/**
 * The finished rows, oldest first, spread over the kept days (ending an hour ago), in the
 * pipeline's column order (PIPELINE_TABLE_COLUMNS), then the open ones.
 */
function fillSql(table: string, rows: number): string {
	const families = `(ARRAY['generic','familyA','familyB','familyC','taskS','longRunning'])[1 + g % 6]`;
	const finishedAt = `now() - interval '1 hour' - (interval '${KEPT_DAYS} days' - interval '2 hours') * (${rows} - g) / ${Math.max(1, rows)}`;
	const values = (
		prompt: string,
		status: string,
		file: string,
		finished: string,
		nextCheck: string,
	) =>
		[
			`${prompt} || g || ': a sneaker turning slowly on a white table, soft studio light'`,
			families,
			`'video-model-1'`,
			`''`,
			`'{"duration": 6, "size": "768p"}'`,
			`${iso("t - interval '12 minutes'")}`,
			`'task_' || md5(g::text)`,
			`'${status}'`,
			iso(`t - interval '11 minutes'`),
			`${file}`,
			`'0.42'`,
			`'USD'`,
			`'exact'`,
			`'1'`,
			`''`,
			finished,
			`(1000 + g) || '-' || (extract(epoch from t - interval '12 minutes') * 1000)::bigint`,
			nextCheck,
			iso('t'),
			`(1000 + g) || '-' || (extract(epoch from t) * 1000)::bigint`,
		].join(', ');
	// PIPELINE_TABLE_COLUMNS: the batch's columns (prompt … finishedAt), then claimedBy,
	// nextCheckAt, lastCheckedAt, checkedBy.
	return [
		`TRUNCATE "${table}";`,
		`INSERT INTO "${table}" (${COLUMNS}) SELECT ${values(
			`'Kept row '`,
			'succeeded',
			`'model-gateway-videos/task_' || md5(g::text) || '.mp4'`,
			iso('t'),
			`''`,
		)} FROM generate_series(1, ${rows}) AS g, LATERAL (SELECT ${finishedAt} AS t) AS kept;`,
		`INSERT INTO "${table}" (${COLUMNS}) SELECT ${values(
			`'Open row '`,
			'running',
			'NULL',
			'NULL',
			iso(`now() + interval '1 day'`),
		)} FROM generate_series(${rows + 1}, ${rows + OPEN_ROWS}) AS g, LATERAL (SELECT now() AS t) AS open;`,
		`ANALYZE "${table}";`,
	].join('\n');
}

/** New rows as a person adds them: generic family (no callbacks), prompts only. */
function newRows(from: number): ReturnType<typeof videoRows> {
	return videoRows(
		Array.from(
			{ length: NEW_ROWS },
			(_, index): VideoSheetLine => [
				'generic',
				'video-model-1',
				'',
				`Table size bench new row ${from + index}`,
				'',
			],
		),
	);
}

// ---------------------------------------------------------------------------------------------
// Postgres: its CPU, and the statements it logged.

interface LoggedStatement {
	ms: number;
	sql: string;
	parameters: string[];
}

/** The statements on `table` Postgres executed (its log from `fromByte` on). */
function loggedStatements(logFile: string, fromByte: number, table: string): LoggedStatement[] {
	const text = readFileSync(logFile).subarray(fromByte).toString('utf8');
	const statements: LoggedStatement[] = [];
	const lines = text.split('\n');
	for (const [index, line] of lines.entries()) {
		const match = /LOG: {2}duration: ([\d.]+) ms {2}(?:execute [^:]*|statement): (.*)$/.exec(line);
		if (!match || !match[2].includes(`"${table}"`)) continue;
		const detail = /DETAIL: {2}parameters: (.*)$/.exec(lines[index + 1] ?? '');
		const parameters = [...(detail?.[1] ?? '').matchAll(/\$\d+ = (NULL|'(?:[^']|'')*')/g)].map(
			(parameter) => parameter[1],
		);
		statements.push({ ms: Number(match[1]), sql: match[2], parameters });
	}
	return statements;
}

/** Which lane's query a statement is, by its filter (the example's Data Table nodes). */
function queryLabel(sql: string): string {
	const kind = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? '?';
	const count = /COUNT\(\*\)/i.test(sql) ? ' count' : '';
	const read = kind === 'SELECT';
	const has = (column: string) => sql.includes(`"${column}"`);
	if (read && has('claimedAt') && has('claimedBy')) return `Claimed Long Ago, No Task${count}`;
	if (read && has('nextCheckAt')) return `Rows Due for a Check${count}`;
	if (read && has('taskId') && has('claimedBy')) return `Rows to Create${count}`;
	if (read && has('claimedBy')) return `Rows This Run Took${count}`;
	if (read && has('finishedAt')) return `Oldest Row to Prune${count}`;
	if (kind === 'DELETE') return 'Delete Rows Finished Long Ago';
	if (kind === 'UPDATE' && has('taskId') && !/"id" =/.test(sql)) return 'UPDATE by taskId';
	if (kind === 'UPDATE') return 'UPDATE by id';
	return `${kind} (other)`;
}

/** A statement with its logged parameters written in (they are text literals or NULL). */
function withParameters(statement: LoggedStatement): string {
	return statement.sql.replace(
		/\$(\d+)\b/g,
		(whole, number: string) => statement.parameters[Number(number) - 1] ?? whole,
	);
}

// ---------------------------------------------------------------------------------------------
// One run.

interface RunFigures {
	status: string;
	durationMs: number;
	lanes: Map<string, number>;
	dataTableNodes: Map<string, { runs: number; ms: number }>;
	n8nCpuMs: number;
	postgresCpuMs: number;
	queries: Map<string, { calls: number; ms: number }>;
	statements: LoggedStatement[];
	error?: string;
}

async function measuredRun(
	n8n: N8nInstance,
	services: QueueServices,
	lanes: Map<string, string>,
	dataTableNodes: Set<string>,
	table: string,
): Promise<RunFigures> {
	await settle(n8n);
	const logFrom = statSync(services.postgresLogFile).size;
	const n8nBefore = cpuTicks(n8n);
	const postgresBefore = postgresTicks(services.postgres.port);
	const { execution } = await n8n.runManualWorkflow(WORKFLOW_ID);
	const n8nCpuMs = ticksToMs(cpuTicks(n8n) - n8nBefore);
	const postgresCpuMs = ticksToMs(postgresTicks(services.postgres.port) - postgresBefore);
	const statements = loggedStatements(services.postgresLogFile, logFrom, table);
	const queries = new Map<string, { calls: number; ms: number }>();
	for (const statement of statements) {
		const label = queryLabel(statement.sql);
		const known = queries.get(label) ?? { calls: 0, ms: 0 };
		queries.set(label, { calls: known.calls + 1, ms: known.ms + statement.ms });
	}
	const laneMs = new Map<string, number>();
	const nodeMs = new Map<string, { runs: number; ms: number }>();
	for (const [node, runs] of Object.entries(execution.data?.resultData.runData ?? {})) {
		const ms = runs.reduce(
			(sum, run) => sum + ((run as { executionTime?: number }).executionTime ?? 0),
			0,
		);
		const lane = lanes.get(node) ?? '(no lane)';
		laneMs.set(lane, (laneMs.get(lane) ?? 0) + ms);
		if (dataTableNodes.has(node)) nodeMs.set(node, { runs: runs.length, ms });
	}
	return {
		status: execution.status,
		durationMs: durationOf(execution),
		lanes: laneMs,
		dataTableNodes: nodeMs,
		n8nCpuMs,
		postgresCpuMs,
		queries,
		statements,
		error: execution.data?.resultData.error
			? `${String(execution.data.resultData.lastNodeExecuted)}: ${execution.data.resultData.error.message}`
			: undefined,
	};
}

function durationOf(execution: Execution): number {
	return Date.parse(execution.stoppedAt ?? '') - Date.parse(execution.startedAt);
}

const fixed = (value: number, digits = 0) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
const mb = (bytes: number) => fixed(bytes / 1024 / 1024, 1);

/** Medians of runs, as table rows: the run's figures, each lane, each Data Table node, each query. */
function runTable(title: string, runs: RunFigures[]): string[] {
	const mid = (pick: (run: RunFigures) => number) => fixed(median(runs.map(pick)));
	const all = (pick: (run: RunFigures) => number) => runs.map((run) => fixed(pick(run))).join(', ');
	const keys = (pick: (run: RunFigures) => Map<string, unknown>) => [
		...new Set(runs.flatMap((run) => [...pick(run).keys()])),
	];
	const rows = [
		`| execution duration (ms) | ${mid((run) => run.durationMs)} | ${all((run) => run.durationMs)} |`,
		`| n8n CPU (ms) | ${mid((run) => run.n8nCpuMs)} | ${all((run) => run.n8nCpuMs)} |`,
		`| Postgres CPU (ms) | ${mid((run) => run.postgresCpuMs)} | ${all((run) => run.postgresCpuMs)} |`,
		...keys((run) => run.lanes).map(
			(lane) =>
				`| lane ${lane} (ms) | ${mid((run) => run.lanes.get(lane) ?? 0)} | ${all((run) => run.lanes.get(lane) ?? 0)} |`,
		),
		...keys((run) => run.dataTableNodes).map(
			(node) =>
				`| node ${node} (ms, ${runs[0].dataTableNodes.get(node)?.runs ?? 0} run(s)) | ${mid((run) => run.dataTableNodes.get(node)?.ms ?? 0)} | ${all((run) => run.dataTableNodes.get(node)?.ms ?? 0)} |`,
		),
		...keys((run) => run.queries).map(
			(label) =>
				`| Postgres: ${label} (${runs[0].queries.get(label)?.calls ?? 0} call(s), ms in all) | ${fixed(median(runs.map((run) => run.queries.get(label)?.ms ?? 0)), 1)} | ${runs.map((run) => fixed(run.queries.get(label)?.ms ?? 0, 1)).join(', ')} |`,
		),
	];
	const statuses = runs.map((run) => run.status + (run.error ? ` (${run.error})` : ''));
	return [
		'',
		`${title} — ${runs.length} run(s), status: ${[...new Set(statuses)].join('; ')}`,
		'| figure | median | each run |',
		'|---|---|---|',
		...rows,
	];
}

/** Each distinct query of a run, once, with its plan. */
async function plans(services: QueueServices, run: RunFigures): Promise<string[]> {
	const seen = new Set<string>();
	const lines: string[] = [];
	for (const statement of run.statements) {
		const label = queryLabel(statement.sql);
		if (seen.has(label)) continue;
		seen.add(label);
		const read = /^\s*SELECT/i.test(statement.sql);
		const explain = `EXPLAIN ${read ? '(ANALYZE, BUFFERS) ' : ''}${withParameters(statement)}`;
		const plan = await services
			.psql(explain)
			.catch((error: unknown) => `(EXPLAIN failed: ${String(error)})`);
		lines.push(
			'',
			`${label}: ${statement.sql.length > 400 ? `${statement.sql.slice(0, 400)}…` : statement.sql}`,
			...plan.split('\n').map((line) => `    ${line}`),
		);
	}
	return lines;
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
	const packDir = mkdtempSync(join(tmpdir(), 'mg-bench-pack-'));
	const sim = await startSimulator({ queuedMs: 3_600_000, runningMs: 600_000 });
	const services = await startQueueServices();
	const out = (lines: string[]) => console.log(lines.join('\n'));
	let n8n: N8nInstance | undefined;
	try {
		const packed = await packPackage(packDir);
		const workflow = pipelineWorkflow();
		for (const node of workflow.nodes) if (node.name === 'Every Minute') node.disabled = true;
		const lanes = lanesOf(workflow);
		const dataTableNodes = new Set(
			workflow.nodes
				.filter((node) => node.type === 'n8n-nodes-base.dataTable')
				.map((node) => node.name),
		);
		const database = Object.fromEntries(
			Object.entries(services.env).filter(([key]) => key.startsWith('DB_')),
		);
		n8n = await startN8n({
			line: 2,
			packages: [packed.tarball],
			credentials: simulatorCredentials(sim),
			workflows: [workflow],
			env: { ...database, N8N_LOG_LEVEL: 'warn' },
		});
		createExampleFolders(n8n.userFolder);
		const video: VideoTable = await createVideoTable(
			n8n,
			[],
			'video_pipeline',
			PIPELINE_TABLE_COLUMNS,
		);
		const table = `data_table_user_${video.id}`;
		const callbackUrl = n8n.webhookUrl(exampleCallbackPath(workflow));
		await n8n.updateWorkflow(WORKFLOW_ID, (stored: WorkflowJson) => {
			useVideoTable(stored, video);
			setExampleSetting(stored, 'callbackUrl', callbackUrl);
			if (KEEP_FINISHED_DAYS !== undefined)
				setExampleSetting(stored, 'keepFinishedDays', Number(KEEP_FINISHED_DAYS));
		});
		await n8n.activateWorkflow(WORKFLOW_ID);
		await n8n.waitForWebhook(exampleCallbackPath(workflow));
		await services.psqlAsSuperuser('ALTER SYSTEM SET log_min_duration_statement = 0');
		await services.psqlAsSuperuser('SELECT pg_reload_conf()');
		out([
			`n8n ${N8N_VERSIONS[2]} on Postgres (regular mode), the pipeline example${REVISION ? ` at ${REVISION}` : ''}; kept rows finished over the last ${KEPT_DAYS} days, ${OPEN_ROWS} open rows, ${NEW_ROWS} new rows per run with work; ${REPEATS} runs each`,
		]);

		let added = 0;
		const rowCount = async () => Number(await services.psql(`SELECT count(*) FROM "${table}"`));
		const tableBytes = async () =>
			Number(await services.psql(`SELECT pg_total_relation_size('"${table}"')`));
		const pushChecksToTomorrow = () =>
			services.psql(
				`UPDATE "${table}" SET "nextCheckAt" = ${iso(`now() + interval '1 day'`)} WHERE "finishedAt" IS NULL AND "taskId" IS NOT NULL`,
			);
		for (const rows of ROW_COUNTS) {
			process.stderr.write(`[bench] ${rows} kept rows\n`);
			const fillStarted = Date.now();
			await services.psql(fillSql(table, rows));
			const fillMs = Date.now() - fillStarted;
			const bytes = await tableBytes();
			const before = await rowCount();
			const idle: RunFigures[] = [];
			for (let repeat = 0; repeat < REPEATS; repeat++)
				idle.push(await measuredRun(n8n, services, lanes, dataTableNodes, table));
			const afterIdle = await rowCount();
			const busy: RunFigures[] = [];
			for (let repeat = 0; repeat < REPEATS; repeat++) {
				await video.insert(newRows(added));
				added += NEW_ROWS;
				busy.push(await measuredRun(n8n, services, lanes, dataTableNodes, table));
				await pushChecksToTomorrow();
			}
			const created = Number(
				await services.psql(
					`SELECT count(*) FROM "${table}" WHERE "prompt" LIKE 'Table size bench new row %' AND "taskId" IS NOT NULL`,
				),
			);
			out([
				'',
				`## ${rows} kept rows (+ ${OPEN_ROWS} open): table ${mb(bytes)} MB in Postgres (${fixed(bytes / Math.max(1, before))} bytes per row, indexes and TOAST included), filled by SQL in ${fixed(fillMs / 1000, 1)} s; rows ${before} before the runs, ${afterIdle} after the runs with nothing to do; new rows given a task: ${created} of ${REPEATS * NEW_ROWS}`,
				...runTable(`Runs with nothing to do (${rows} kept rows)`, idle),
				...runTable(`Runs with ${NEW_ROWS} new rows (${rows} kept rows)`, busy),
				'',
				`Plans of the queries of a run with new rows (${rows} kept rows):`,
				...(await plans(services, busy[busy.length - 1])),
			]);
		}

		if (SIZE_LIMIT) out(await sizeLimit(n8n, services, table, lanes, dataTableNodes));
	} finally {
		await n8n?.stop();
		await services.stop();
		await sim.close();
		if (existsSync(packDir)) rmSync(packDir, { recursive: true, force: true });
	}

	/** n8n restarted with its data-table limit at what the tables hold: a run with new rows. */
	async function sizeLimit(
		running: N8nInstance,
		pg: QueueServices,
		table: string,
		lanes: Map<string, string>,
		dataTableNodes: Set<string>,
	): Promise<string[]> {
		const total = async () =>
			Number(
				await pg.psql(
					`SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public' AND c.relname LIKE 'data_table_user_%' AND c.relkind IN ('r', 'm', 'p')`,
				),
			);
		const limit = await total();
		n8n = await running.restart({ N8N_DATA_TABLES_MAX_SIZE_BYTES: String(limit) });
		const lines = [
			'',
			`## At n8n's data-table size limit: N8N_DATA_TABLES_MAX_SIZE_BYTES=${limit} (${mb(limit)} MB, what the tables hold now; n8n refuses a write once they hold at least that)`,
		];
		const insertAnswer = await n8n
			.rest(
				'POST',
				`/projects/${(await n8n.rest<{ id: string }>('GET', '/projects/personal')).id}/data-tables/${table.replace('data_table_user_', '')}/insert`,
				{
					data: newRows(1_000_000).slice(0, 1),
					returnType: 'id',
				},
			)
			.then(
				() => 'accepted',
				(error: unknown) => `refused: ${String(error).slice(0, 300)}`,
			);
		lines.push(
			`- a row added through n8n's insert API (as the Data tables page adds one): ${insertAnswer}`,
		);
		// New rows put in by SQL, as they would be there had they come before the limit.
		await pg.psql(
			`INSERT INTO "${table}" ("prompt", "family", "model") SELECT 'Table size bench limit row ' || g, 'generic', 'video-model-1' FROM generate_series(1, ${NEW_ROWS}) AS g`,
		);
		const runs = async (label: string) => {
			const run = await measuredRun(n8n as N8nInstance, pg, lanes, dataTableNodes, table);
			const given = Number(
				await pg.psql(
					`SELECT count(*) FROM "${table}" WHERE "prompt" LIKE 'Table size bench limit row %' AND "taskId" IS NOT NULL`,
				),
			);
			lines.push(
				`- ${label}: execution ${run.status}${run.error ? ` at ${run.error}` : ''}; limit rows given a task: ${given} of ${NEW_ROWS}; rows ${await rowCount()}, table ${mb(await tableBytes())} MB, data tables ${mb(await total())} MB`,
			);
		};
		const rowCount = async () => Number(await pg.psql(`SELECT count(*) FROM "${table}"`));
		const tableBytes = async () =>
			Number(await pg.psql(`SELECT pg_total_relation_size('"${table}"')`));
		await runs('a run with new rows');
		const deleted = Number(
			await pg.psql(
				`WITH gone AS (DELETE FROM "${table}" WHERE id IN (SELECT id FROM "${table}" WHERE "finishedAt" IS NOT NULL ORDER BY id LIMIT (SELECT count(*) / 2 FROM "${table}")) RETURNING 1) SELECT count(*) FROM gone`,
			),
		);
		await pg.psql(`VACUUM "${table}"`);
		lines.push(
			`- half the finished rows deleted (${deleted}, oldest first) and VACUUM (what autovacuum does):`,
		);
		await new Promise((resolve) => setTimeout(resolve, 6_000)); // n8n caches the size for 5 s
		await runs('  the next run');
		await pg.psql(`VACUUM FULL "${table}"`);
		await new Promise((resolve) => setTimeout(resolve, 6_000));
		lines.push('- then VACUUM FULL (rewrites the table):');
		await runs('  the next run');
		return lines;
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

/**
 * Benchmark (not a test): `npm run bench:example-callbacks`.
 *
 * What one final callback costs n8n in the shipped Data Table examples, as they are and as they
 * were at an earlier revision (BENCH_BEFORE, a git revision: issue 49 measured the examples before
 * their callback lane stopped running the table set-up chain). Every version of both examples is
 * published side by side in one n8n 2.x on its defaults, the schedule switched off; the
 * callbacks are real Task family S final bodies (captured from the simulator) with fresh task ids,
 * sent one after another at the trigger's Production URL with the secret made from the
 * credential, in two shapes:
 * - "no row": the URL names no row (nothing to do but be refused by *Names a Row?*);
 * - "taken row": the URL names a real row of the example's table that already holds another task
 *   (and, in the pipeline, another claim), so each callback tries the row updates and changes
 *   nothing (the row is compared after the rounds).
 * Printed: n8n's CPU per callback (all its processes, until n8n is quiet again), per version,
 * shape and round, and the median of the rounds.
 *
 * Knobs (environment): BENCH_BEFORE (a git revision; unset: only the files as they are),
 * BENCH_CALLBACKS (60 per round and shape), BENCH_ROUNDS (2), BENCH_SETTING ("default" or "lazy":
 * N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true).
 */
import { execFileSync } from 'child_process';
import { randomUUID } from 'crypto';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { deriveCallbackSecret } from '../nodes/shared/callbacks/callbackSecret';
import { callbackStatus, captureTaskCallbacks } from '../test/e2e/callbackBodies';
import {
	DATA_TABLE_EXAMPLE,
	PIPELINE_EXAMPLE,
	PIPELINE_TABLE_COLUMNS,
	VIDEO_TABLE_COLUMNS,
	createVideoTable,
	exampleCallbackPath,
	type VideoTable,
} from '../test/e2e/dataTable';
import { EXAMPLES_DIR, simulatorCredentials } from '../test/e2e/examples';
import {
	REPO_ROOT,
	packPackage,
	startN8n,
	type N8nInstance,
	type WorkflowJson,
} from '../test/e2e/harness';
import { startSimulator } from '../test/simulator';
import { cpuTicks, median, settle, ticksToMs } from './n8nCpu';

const BEFORE = process.env.BENCH_BEFORE ?? '';
const CALLBACKS = Number(process.env.BENCH_CALLBACKS ?? 60);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SETTING = process.env.BENCH_SETTING ?? 'default';
const SETTING_ENV: Record<string, Record<string, string>> = {
	default: {},
	lazy: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
};
/** The triggers that would start runs of their own during the measurement. */
const SCHEDULE_NODES = ['Every Minute'];
/** A claim the taken row does not hold (it is claimed by `claimed-by-bench`). */
const OTHER_CLAIM = 'not-this-rows-claim';

interface Example {
	file: string;
	table: string;
	columns: readonly string[];
}

const EXAMPLES: Example[] = [
	{ file: PIPELINE_EXAMPLE, table: 'video_pipeline', columns: PIPELINE_TABLE_COLUMNS },
	{ file: DATA_TABLE_EXAMPLE, table: 'video_batch', columns: VIDEO_TABLE_COLUMNS },
];

interface Contender {
	label: string;
	example: Example;
	workflow: WorkflowJson;
}

/** The example's file as it is, or as it was at `revision`. */
function exampleText(file: string, revision: string): string {
	if (!revision) return readFileSync(join(EXAMPLES_DIR, file), 'utf8');
	return execFileSync('git', ['show', `${revision}:examples/${file}`], {
		cwd: REPO_ROOT,
		encoding: 'utf8',
	});
}

/** A copy that can be published beside the others: its own id and webhook ids, no schedule. */
function contender(example: Example, revision: string): Contender {
	const workflow = JSON.parse(exampleText(example.file, revision)) as WorkflowJson;
	const label = `${example.file.replace(/\.json$/, '')} @ ${revision || 'now'}`;
	workflow.id = `bench${randomUUID().replace(/-/g, '').slice(0, 11)}`;
	workflow.name = label;
	for (const node of workflow.nodes) {
		if (node.webhookId) node.webhookId = randomUUID();
		if (SCHEDULE_NODES.includes(node.name)) node.disabled = true;
	}
	return { label, example, workflow };
}

/** Sends the callbacks one after another; the CPU n8n spent on them, per callback (ms). */
async function sendCallbacks(
	n8n: N8nInstance,
	url: string,
	bodies: unknown[],
): Promise<{ cpuMs: number; refused: number }> {
	await settle(n8n);
	const before = cpuTicks(n8n);
	let refused = 0;
	for (const body of bodies) {
		const answer = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify(body),
		});
		await answer.text();
		if (answer.status !== 200) refused++;
	}
	await settle(n8n);
	return { cpuMs: ticksToMs(cpuTicks(n8n) - before) / bodies.length, refused };
}

async function main(): Promise<void> {
	const simulator = await startSimulator({ queuedMs: 100, runningMs: 200 });
	let template: unknown[];
	try {
		template = (await captureTaskCallbacks(simulator, 5)).filter(
			(body) => callbackStatus(body) === 'succeeded',
		);
	} finally {
		await simulator.close();
	}
	const contenders = EXAMPLES.flatMap((example) => [
		...(BEFORE ? [contender(example, BEFORE)] : []),
		contender(example, ''),
	]);
	const endpoints = {
		baseUrl: 'http://127.0.0.1:9/',
		identityUrl: 'http://127.0.0.1:9/',
		apiKey: 'bench-example-callbacks-key',
		accessToken: 'bench-example-callbacks-token',
	};
	const secret = deriveCallbackSecret(endpoints.apiKey);
	const packDir = mkdtempSync(join(tmpdir(), 'mg-bench-pack-'));
	const figures = new Map<string, number[]>();
	try {
		const { tarball } = await packPackage(packDir);
		const n8n = await startN8n({
			line: 2,
			packages: [tarball],
			credentials: simulatorCredentials(endpoints),
			workflows: contenders.map((entry) => entry.workflow),
			env: { N8N_LOG_LEVEL: 'warn', ...SETTING_ENV[SETTING] },
			n8nDefaults: true,
		});
		try {
			const tables = new Map<string, { table: VideoTable; row: number; before: string }>();
			for (const example of EXAMPLES) {
				const table = await createVideoTable(
					n8n,
					[
						{
							prompt: 'bench row',
							family: 'tasks',
							claimedAt: '2026-01-01T00:00:00.000Z',
							taskId: 'task-of-the-row',
							...(example.columns.includes('claimedBy') ? { claimedBy: 'claimed-by-bench' } : {}),
						},
					],
					example.table,
					example.columns,
				);
				const [row] = await table.rows();
				tables.set(example.file, { table, row: Number(row.id), before: JSON.stringify(row) });
			}
			for (const entry of contenders) await n8n.activateWorkflow(entry.workflow.id);
			console.log(
				`Final callbacks to the Data Table examples, ${CALLBACKS} one after another per round and shape, ${ROUNDS} round(s), n8n 2.x ${SETTING === 'default' ? "on n8n's defaults" : `with ${JSON.stringify(SETTING_ENV[SETTING])}`}: n8n CPU per callback`,
			);
			let tag = 0;
			for (let round = 1; round <= ROUNDS; round++) {
				// Every other round in reverse order, so that n8n's drift over a run (its database
				// grows with every execution it keeps) does not favour whichever comes first.
				for (const entry of round % 2 === 1 ? contenders : [...contenders].reverse()) {
					const { table, row } = tables.get(entry.example.file)!;
					const base = n8n.webhookUrl(exampleCallbackPath(entry.workflow));
					const shapes: Record<string, string> = {
						'no row': `${base}?secret=${secret}`,
						'taken row': `${base}?secret=${secret}&row=${row}&claim=${OTHER_CLAIM}&table=${table.id}`,
					};
					for (const [shape, url] of Object.entries(shapes)) {
						const bodies = Array.from({ length: CALLBACKS }, (_, index) => ({
							...(template[index % template.length] as Record<string, unknown>),
							id: `bench${++tag}`,
						}));
						const { cpuMs, refused } = await sendCallbacks(n8n, url, bodies);
						const key = `${entry.label} | ${shape}`;
						figures.set(key, [...(figures.get(key) ?? []), cpuMs]);
						console.log(
							`  round ${round}  ${key.padEnd(52)} ${cpuMs.toFixed(0).padStart(4)} ms${refused ? `  (${refused} not answered 200)` : ''}`,
						);
					}
				}
			}
			// The taken row's callbacks must have changed nothing.
			for (const { table, before } of tables.values()) {
				const after = JSON.stringify((await table.rows())[0]);
				if (after !== before)
					throw new Error(`${table.name}: a callback changed the row: ${before} → ${after}`);
			}
		} finally {
			await n8n.stop();
		}
	} finally {
		rmSync(packDir, { recursive: true, force: true });
	}
	console.log('\nmedian of the rounds, n8n CPU per callback');
	for (const [key, values] of figures)
		console.log(`  ${key.padEnd(52)} ${median(values).toFixed(0)} ms`);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

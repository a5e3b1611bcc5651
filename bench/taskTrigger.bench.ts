/**
 * Benchmark (not a test): `npm run bench:trigger`.
 *
 * Callbacks per second into the Task Callback Trigger next to n8n's own Webhook node (On
 * Received, no node after it) in the same running n8n, on each cached line (1.x and 2.x, see
 * test/e2e/README.md; a line that is not installed is skipped with a message). The callbacks are
 * real: 250 Task family S tasks created on the simulator, whose callbacks (queued, running, the
 * final state, the repeated final) are captured and replayed, 1,000 in the order they came. Every
 * run gives the task ids a fresh suffix, so the trigger never meets a task of an earlier run.
 *
 * The trigger runs in both its versions (2, the default, and 1, which existing workflows keep).
 * Two loads, each at 8 and at 32 callbacks in flight, the contenders alternating with the
 * order rotated per repetition:
 * - all 1,000 callbacks: the trigger (Final Events Only, its default) starts 250 executions and
 *   answers the other 750 without one; the Webhook node starts 1,000;
 * - only callbacks that start executions: the 250 first finals, 250 executions for both.
 * Printed per run: callbacks/s (answered ÷ wall time of the load), answer p50 / p95 / max, and
 * how long n8n took to settle afterwards (its processes' CPU quiet: executions done and saved),
 * so also callbacks/s until settled: n8n answers a Webhook node's callback before its execution
 * runs, and much of that work comes after the last answer. Each run starts on a settled n8n.
 *
 * BENCH_LINES ("1 2"), BENCH_REPEATS (2), BENCH_IN_FLIGHT ("8 32"), BENCH_TRIGGER_V1 ("0" leaves
 * version 1 out); BENCH_N8N_NODE_OPTIONS is
 * passed to n8n as NODE_OPTIONS (Node refuses --cpu-prof there: to profile n8n, --require a
 * script that runs the inspector's Profiler and writes .cpuprofile files).
 */
import { existsSync, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { callbackStatus, captureTaskCallbacks, inFlight } from '../test/e2e/callbackBodies';
import type { N8nInstance, N8nLine, WorkflowJson, WorkflowNode } from '../test/e2e/harness';
import { N8N_VERSIONS, findInstallation, packPackage, startN8n } from '../test/e2e/harness';
import { startSimulator } from '../test/simulator';
import { singleNodeWorkflow, webhookNodeWorkflow } from './webhookWorkflows';
import { cpuTicks, median, percentile, settle, ticksToMs } from './n8nCpu';

const LINES = (process.env.BENCH_LINES ?? '1 2')
	.split(/[\s,]+/)
	.filter(Boolean)
	.map((line) => Number(line) as N8nLine);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 2);
const IN_FLIGHT = (process.env.BENCH_IN_FLIGHT ?? '8 32')
	.split(/[\s,]+/)
	.filter(Boolean)
	.map(Number);
const TASKS = 250;
const N8N_NODE_OPTIONS = process.env.BENCH_N8N_NODE_OPTIONS;

const TRIGGER_WEBHOOK_ID = '5b1e2c3d-4f60-4a7b-8c9d-0e1f2a3b4c5d';
const TRIGGER_SECRET = 'bench-callbacks-3e7a91c4';
const TRIGGER_PATH = `${TRIGGER_WEBHOOK_ID}/${TRIGGER_SECRET}`;
const WEBHOOK_PATH = 'bench-callbacks-webhook';
// At most 16 characters: n8n saves static data only for such workflow ids.
const TRIGGER_WORKFLOW = 'benchCbTrigger01';
const TRIGGER_V1_WORKFLOW = 'benchCbTriggerV1';
const WEBHOOK_WORKFLOW = 'benchCbWebhook01';
// Version 1 of the trigger, kept by existing workflows: n8n reads every body for it and
// evaluates a binary-data option per call.
const TRIGGER_V1_WEBHOOK_ID = '6c2f3d4e-5a71-4b8c-9dae-1f2a3b4c5d6e';
const TRIGGER_V1_PATH = `${TRIGGER_V1_WEBHOOK_ID}/${TRIGGER_SECRET}`;

/** The trigger alone, at its default settings, in one of its versions. */
function triggerNode(typeVersion: number, webhookId: string): WorkflowNode {
	return {
		id: `bench-cb-trigger-v${typeVersion}`,
		name: 'Task Callback',
		type: 'n8n-nodes-model-gateway.modelGatewayTaskTrigger',
		typeVersion,
		position: [0, 0],
		webhookId,
		parameters: { secret: TRIGGER_SECRET, events: 'final' },
	};
}

const workflows: WorkflowJson[] = [
	singleNodeWorkflow(TRIGGER_WORKFLOW, triggerNode(2, TRIGGER_WEBHOOK_ID)),
	singleNodeWorkflow(TRIGGER_V1_WORKFLOW, triggerNode(1, TRIGGER_V1_WEBHOOK_ID)),
	webhookNodeWorkflow(
		WEBHOOK_WORKFLOW,
		'bench-cb-webhook',
		'a0b1c2d3-e4f5-4a6b-9c8d-7e6f5a4b3c2d',
		WEBHOOK_PATH,
	),
];

interface Load {
	name: string;
	bodies: unknown[];
}

interface Contender {
	label: string;
	path: string;
	/** How many executions the load should start (checked from the answers where they say). */
	startsOf: (load: Load) => number | undefined;
}

const trigger: Contender = {
	label: 'Task Callback Trigger',
	path: TRIGGER_PATH,
	startsOf: () => TASKS,
};
const triggerV1: Contender = {
	label: 'Task Callback Trigger version 1',
	path: TRIGGER_V1_PATH,
	startsOf: () => TASKS,
};
const webhook: Contender = {
	label: 'Webhook node (On Received)',
	path: WEBHOOK_PATH,
	startsOf: () => undefined,
};
// BENCH_TRIGGER_V1=0 leaves version 1 out (a shorter run).
const contenders =
	process.env.BENCH_TRIGGER_V1 === '0' ? [trigger, webhook] : [trigger, triggerV1, webhook];

interface Figures {
	/** Callbacks answered per second of the load. */
	perSecond: number;
	/** Callbacks per second until n8n settled: the load and the work it left behind. */
	donePerSecond: number;
	/**
	 * CPU time of n8n's processes per callback, from the first callback until n8n settled: what
	 * the callbacks cost n8n, much less disturbed by other work on the machine than wall time.
	 */
	cpuMsPerCallback: number;
	p50: number;
	p95: number;
	max: number;
	settleSeconds: number;
}

let runNumber = 0;

/** The load with task ids no earlier run used. */
function freshIds(bodies: unknown[]): unknown[] {
	runNumber++;
	return bodies.map((body) => {
		const record = body as { id: string };
		return { ...record, id: `${record.id}-run${runNumber}` };
	});
}

async function runLoad(
	n8n: N8nInstance,
	contender: Contender,
	load: Load,
	inFlightCount: number,
): Promise<Figures> {
	const bodies = freshIds(load.bodies);
	const url = n8n.webhookUrl(contender.path);
	const times: number[] = [];
	let started = 0;
	const begun = process.hrtime.bigint();
	const ticksBefore = cpuTicks(n8n);
	let resets = 0;
	await inFlight(inFlightCount, bodies, async (body) => {
		const sent = process.hrtime.bigint();
		let response: Response | undefined;
		// A connection the server closed as it was reused: sent again, as a gateway would.
		while (!response) {
			try {
				response = await fetch(url, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(body),
				});
			} catch (error) {
				if (++resets > 10) throw error;
			}
		}
		const text = await response.text();
		times.push(Number(process.hrtime.bigint() - sent) / 1e6);
		if (response.status !== 200)
			throw new Error(`${contender.label} answered ${response.status}: ${text.slice(0, 200)}`);
		if (contender !== webhook && (JSON.parse(text) as { started?: boolean }).started) started++;
	});
	const seconds = Number(process.hrtime.bigint() - begun) / 1e9;
	const expected = contender.startsOf(load);
	// A callback sent again after a reset may have been taken the first time.
	if (expected !== undefined && (started > expected || started < expected - resets))
		throw new Error(`${contender.label}, ${load.name}: ${started} executions, not ${expected}`);
	if (resets > 0) console.log(`  (${resets} connection(s) reset and sent again)`);
	const settleSeconds = await settle(n8n);
	const cpuMs = ticksToMs(cpuTicks(n8n) - ticksBefore);
	times.sort((a, b) => a - b);
	return {
		perSecond: bodies.length / seconds,
		donePerSecond: bodies.length / (seconds + settleSeconds),
		cpuMsPerCallback: cpuMs / bodies.length,
		p50: percentile(times, 0.5),
		p95: percentile(times, 0.95),
		max: times[times.length - 1],
		settleSeconds,
	};
}

const ms = (value: number) => value.toFixed(0);

async function benchLine(line: N8nLine, tarball: string, loads: Load[]): Promise<void> {
	try {
		findInstallation(line);
	} catch (error) {
		console.log(`\nn8n ${N8N_VERSIONS[line]}: skipped (${(error as Error).message})`);
		return;
	}
	const n8n = await startN8n({
		line,
		packages: [tarball],
		workflows,
		env: {
			N8N_LOG_LEVEL: 'warn',
			...(N8N_NODE_OPTIONS ? { NODE_OPTIONS: N8N_NODE_OPTIONS } : {}),
		},
	});
	try {
		for (const id of [TRIGGER_WORKFLOW, TRIGGER_V1_WORKFLOW, WEBHOOK_WORKFLOW])
			await n8n.activateWorkflow(id);
		await n8n.waitForWebhook(TRIGGER_PATH);
		await n8n.waitForWebhook(TRIGGER_V1_PATH);
		await n8n.waitForWebhook(WEBHOOK_PATH);
		// Unmeasured: n8n loads the node types and warms up on first use.
		const warmUp: Load = { name: 'warm-up', bodies: loads[0].bodies.slice(0, 100) };
		for (const contender of contenders) {
			await inFlight(8, freshIds(warmUp.bodies), async (body) => {
				await (
					await fetch(n8n.webhookUrl(contender.path), {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify(body),
					})
				).text();
			});
		}
		await settle(n8n);

		const runs = loads.flatMap((load) =>
			IN_FLIGHT.flatMap((level) => contenders.map((contender) => ({ load, level, contender }))),
		);
		const results = runs.map(() => [] as Figures[]);
		for (let repeat = 0; repeat < REPEATS; repeat++) {
			for (let turn = 0; turn < runs.length; turn++) {
				const index = (turn + repeat) % runs.length;
				const { load, level, contender } = runs[index];
				const figures = await runLoad(n8n, contender, load, level);
				results[index].push(figures);
				console.log(
					`  n8n ${N8N_VERSIONS[line]}, ${load.name}, ${level} in flight, ${contender.label}: ${figures.perSecond.toFixed(1)} callbacks/s answered (${figures.donePerSecond.toFixed(1)}/s until settled), n8n CPU ${figures.cpuMsPerCallback.toFixed(1)} ms per callback, p50 ${ms(figures.p50)} / p95 ${ms(figures.p95)} / max ${ms(figures.max)} ms, settled ${figures.settleSeconds.toFixed(0)} s later`,
				);
			}
		}

		console.log(
			`\nn8n ${N8N_VERSIONS[line]}: medians of ${REPEATS} repetition(s); answer times in ms`,
		);
		console.log(
			'| callbacks | in flight | trigger version | trigger callbacks/s | Webhook node callbacks/s | trigger ÷ Webhook | until settled: trigger ÷ Webhook | n8n CPU ms per callback: trigger / Webhook | trigger p50 / p95 / max | Webhook p50 / p95 / max |',
		);
		console.log('|---|---|---|---|---|---|---|---|---|---|');
		for (const load of loads) {
			for (const level of IN_FLIGHT) {
				const of = (contender: Contender) =>
					results[
						runs.findIndex(
							(run) => run.load === load && run.level === level && run.contender === contender,
						)
					];
				const figure = (contender: Contender, key: keyof Figures) =>
					median(of(contender).map((figures) => figures[key]));
				const times = (contender: Contender) =>
					`${ms(figure(contender, 'p50'))} / ${ms(figure(contender, 'p95'))} / ${ms(figure(contender, 'max'))}`;
				for (const [version, contender] of [
					['2', trigger],
					['1', triggerV1],
				] as const) {
					if (!contenders.includes(contender)) continue;
					const ratio = figure(contender, 'perSecond') / figure(webhook, 'perSecond');
					const doneRatio = figure(contender, 'donePerSecond') / figure(webhook, 'donePerSecond');
					console.log(
						`| ${load.name} | ${level} | ${version} | ${figure(contender, 'perSecond').toFixed(1)} | ${figure(webhook, 'perSecond').toFixed(1)} | ${ratio.toFixed(2)} | ${doneRatio.toFixed(2)} | ${figure(contender, 'cpuMsPerCallback').toFixed(1)} / ${figure(webhook, 'cpuMsPerCallback').toFixed(1)} | ${times(contender)} | ${times(webhook)} |`,
					);
				}
			}
		}
	} finally {
		await n8n.stop();
	}
}

async function main(): Promise<void> {
	const simulator = await startSimulator({ queuedMs: 200, runningMs: 400 });
	let callbacks: unknown[];
	try {
		callbacks = await captureTaskCallbacks(simulator, TASKS);
	} finally {
		await simulator.close();
	}
	const firstFinals = new Map<string, unknown>();
	for (const body of callbacks) {
		const id = (body as { id: string }).id;
		if (callbackStatus(body) === 'succeeded' && !firstFinals.has(id)) firstFinals.set(id, body);
	}
	const loads: Load[] = [
		{ name: `all ${callbacks.length.toLocaleString('en')}`, bodies: callbacks },
		{ name: `${firstFinals.size} finals (each starts one)`, bodies: [...firstFinals.values()] },
	];
	console.log(
		`Callbacks into a running n8n: ${TASKS} Task family S tasks, ${callbacks.length} real callbacks (queued, running, final, repeated final); in flight ${IN_FLIGHT.join(' and ')}; ${REPEATS} repetition(s), order rotated`,
	);
	const packDir = mkdtempSync(join(tmpdir(), 'mg-bench-pack-'));
	try {
		const packed = await packPackage(packDir);
		for (const line of LINES) await benchLine(line, packed.tarball, loads);
	} finally {
		if (existsSync(packDir)) rmSync(packDir, { recursive: true, force: true });
	}
	process.exit(0);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

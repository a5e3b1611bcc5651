/**
 * Benchmark (not a test): `npm run bench:callbacks`.
 *
 * Final callbacks arriving in bursts, as they do when a batch of tasks created together finishes
 * together: the Task Callback Trigger (Final Events Only, a typed secret) and n8n's own Webhook
 * node (On Received, fixed path) side by side in the same n8n, alternating. Each burst sends N
 * Task family S final callbacks (real bodies captured from the simulator, fresh task ids) at the
 * same moment, each given 5 s as a gateway gives it (then the caller hangs up); a steady load
 * sends them at a fixed rate. Printed per burst: answered 200 within 5 s, answer p50 / p95 / max
 * of those, n8n's CPU per callback (all its processes: main, workers, webhook processes, task
 * runners) while answering and until n8n is quiet again, the machine's load average, and every
 * final accounted for: an execution that carries its task id, or (unanswered, no execution) left
 * to the sweeper's check; a final answered 200 without an execution is lost.
 *
 * Knobs (environment):
 * - BENCH_LINES ("2"): n8n lines, "1 2" for both.
 * - BENCH_MODES ("regular queue"): regular (one n8n, SQLite), queue (Postgres, Redis, main + 2
 *   workers; callbacks to main), queue+webhook (the same plus an `n8n webhook` process, callbacks
 *   spread round-robin over main and it).
 * - BENCH_SETTINGS ("default legacy"): named n8n settings, each on a fresh n8n:
 *   default (n8n's defaults: pool 2, ping 5 s), pool20 (DB_POSTGRESDB_POOL_SIZE=20,
 *   DB_PING_TIMEOUT_MS=30000), legacy (N8N_EXPRESSION_ENGINE=legacy), lazy
 *   (N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true), isolates16 (N8N_EXPRESSION_ENGINE_POOL_SIZE=16).
 * - BENCH_CONTENDERS ("trigger webhook"): add trigger-default-secret for the trigger at its
 *   default secret (the node's id: an expression n8n evaluates for every callback), and
 *   trigger-credential-secret for version 3's default, the secret made from the credential (a
 *   credential read per callback instead of an expression).
 * - BENCH_BURSTS ("20 100"), BENCH_STEADY ("2": callbacks per second for 30 s, "0" for none),
 *   BENCH_REPEATS (1).
 */
import { existsSync, mkdtempSync, rmSync } from 'fs';
import { loadavg, tmpdir } from 'os';
import { join } from 'path';

import { callbackStatus, captureTaskCallbacks } from '../test/e2e/callbackBodies';
import type { CredentialJson, N8nInstance, N8nLine, WorkflowJson } from '../test/e2e/harness';
import { deriveCallbackSecret } from '../nodes/shared/callbacks/callbackSecret';
import { N8N_VERSIONS, findInstallation, packPackage, startN8n } from '../test/e2e/harness';
import type { QueueModeN8n, RoundRobinProxy } from '../test/e2e/queueMode';
import { startQueueMode, startQueueServices, startRoundRobinProxy } from '../test/e2e/queueMode';
import { startSimulator } from '../test/simulator';
import { singleNodeWorkflow, webhookNodeWorkflow } from './webhookWorkflows';
import { cpuTicksOf, percentile, settleOn, ticksToMs } from './n8nCpu';

const list = (value: string | undefined, fallback: string): string[] =>
	(value ?? fallback).split(/[\s,]+/).filter(Boolean);
const LINES = list(process.env.BENCH_LINES, '2').map((line) => Number(line) as N8nLine);
const MODES = list(process.env.BENCH_MODES, 'regular queue') as Mode[];
const SETTINGS = list(process.env.BENCH_SETTINGS, 'default legacy');
const BURSTS = list(process.env.BENCH_BURSTS, '20 100').map(Number);
const STEADY_PER_SECOND = Number(process.env.BENCH_STEADY ?? 2);
const STEADY_SECONDS = 30;
const REPEATS = Number(process.env.BENCH_REPEATS ?? 1);
const GATEWAY_TIMEOUT_MS = 5_000;

type Mode = 'regular' | 'queue' | 'queue+webhook';

const SETTING_ENV: Record<string, Record<string, string>> = {
	// n8n's own defaults for what the suite otherwise sets (see test/e2e/harness.ts, queueMode.ts).
	default: { DB_POSTGRESDB_POOL_SIZE: '2', DB_PING_TIMEOUT_MS: '5000' },
	pool20: { DB_POSTGRESDB_POOL_SIZE: '20', DB_PING_TIMEOUT_MS: '30000' },
	legacy: {
		DB_POSTGRESDB_POOL_SIZE: '2',
		DB_PING_TIMEOUT_MS: '5000',
		N8N_EXPRESSION_ENGINE: 'legacy',
	},
	lazy: {
		DB_POSTGRESDB_POOL_SIZE: '2',
		DB_PING_TIMEOUT_MS: '5000',
		N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true',
	},
	isolates16: {
		DB_POSTGRESDB_POOL_SIZE: '2',
		DB_PING_TIMEOUT_MS: '5000',
		N8N_EXPRESSION_ENGINE_POOL_SIZE: '16',
	},
};

const TRIGGER_SECRET = 'bench-burst-7c41d2e9';
const TRIGGER_PATH = `7d3e4f50-6172-4839-94a5-b6c7d8e9f0a1/${TRIGGER_SECRET}`;
const WEBHOOK_PATH = 'bench-burst-webhook';
const TRIGGER_WORKFLOW = 'benchBurstTrig01';
// The trigger at its default secret (the node's id, an expression n8n evaluates per callback).
const DEFAULT_SECRET_NODE_ID = 'c8d9e0f1-a2b3-4c4d-8e5f-6a7b8c9d0e1f';
const DEFAULT_SECRET_PATH = `9e0f1a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b/${DEFAULT_SECRET_NODE_ID}`;
const DEFAULT_SECRET_WORKFLOW = 'benchBurstTrig02';
// The trigger with its secret made from the credential (version 3's default): `?secret=` the
// HMAC of the API key, as the Video node's Add Callback Secret puts it into a callback URL.
const BENCH_API_KEY = 'bench-api-key-5b2e9c41d7';
const CREDENTIAL_SECRET_WORKFLOW = 'benchBurstTrig03';
const CREDENTIAL_SECRET_PATH = `2f3a4b5c-6d7e-4f80-91a2-b3c4d5e6f7a8/callback?secret=${deriveCallbackSecret(BENCH_API_KEY)}`;
const benchCredentials: CredentialJson[] = [
	{
		id: 'benchGatewayApi01',
		name: 'Model Gateway (bench)',
		type: 'modelGatewayApi',
		data: { baseUrl: 'http://127.0.0.1:9', apiKey: BENCH_API_KEY },
	},
];
const WEBHOOK_WORKFLOW = 'benchBurstHook01';

const workflows: WorkflowJson[] = [
	singleNodeWorkflow(TRIGGER_WORKFLOW, {
		id: 'bench-burst-trigger',
		name: 'Task Callback',
		type: 'n8n-nodes-model-gateway.modelGatewayTaskTrigger',
		typeVersion: 2,
		position: [0, 0],
		webhookId: TRIGGER_PATH.split('/')[0],
		parameters: { secret: TRIGGER_SECRET, events: 'final' },
	}),
	singleNodeWorkflow(DEFAULT_SECRET_WORKFLOW, {
		id: DEFAULT_SECRET_NODE_ID,
		name: 'Task Callback',
		type: 'n8n-nodes-model-gateway.modelGatewayTaskTrigger',
		typeVersion: 2,
		position: [0, 0],
		webhookId: DEFAULT_SECRET_PATH.split('/')[0],
		parameters: {},
	}),
	singleNodeWorkflow(CREDENTIAL_SECRET_WORKFLOW, {
		id: 'bench-burst-trigger-credential',
		name: 'Task Callback',
		type: 'n8n-nodes-model-gateway.modelGatewayTaskTrigger',
		typeVersion: 3,
		position: [0, 0],
		webhookId: CREDENTIAL_SECRET_PATH.split('/')[0],
		parameters: { secretLocation: 'credential', events: 'final' },
		credentials: { modelGatewayApi: { id: 'benchGatewayApi01', name: 'Model Gateway (bench)' } },
	}),
	webhookNodeWorkflow(
		WEBHOOK_WORKFLOW,
		'bench-burst-webhook',
		'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e',
		WEBHOOK_PATH,
	),
];

interface Contender {
	label: string;
	path: string;
	workflowId: string;
}
const ALL_CONTENDERS: Record<string, Contender> = {
	trigger: { label: 'Task Callback Trigger', path: TRIGGER_PATH, workflowId: TRIGGER_WORKFLOW },
	webhook: { label: 'Webhook node', path: WEBHOOK_PATH, workflowId: WEBHOOK_WORKFLOW },
	'trigger-default-secret': {
		label: 'Task Callback Trigger, default secret',
		path: DEFAULT_SECRET_PATH,
		workflowId: DEFAULT_SECRET_WORKFLOW,
	},
	'trigger-credential-secret': {
		label: 'Task Callback Trigger, secret made from the credential',
		path: CREDENTIAL_SECRET_PATH,
		workflowId: CREDENTIAL_SECRET_WORKFLOW,
	},
};
const CONTENDERS = list(process.env.BENCH_CONTENDERS, 'trigger webhook').map(
	(name) => ALL_CONTENDERS[name],
);

/** One running n8n of any mode, as the load sees it. */
interface Target {
	/** Where callbacks go (main, or the balancer in front of main and the webhook process). */
	webhookUrl(path: string): string;
	/** The process that answers the public API. */
	api: N8nInstance;
	userFolders: string[];
	stop(): Promise<void>;
}

interface Figures {
	load: string;
	contender: string;
	sent: number;
	answered: number;
	p50: number;
	p95: number;
	max: number;
	cpuAnsweringMs: number;
	cpuSettledMs: number;
	executions: number;
	late: number;
	toSweeper: number;
	lost: number;
	loadAverage: string;
	errors: string;
}

let loadNumber = 0;

/** `count` final callbacks with task ids no other load used. */
function finals(template: unknown[], count: number): { tag: string; bodies: unknown[] } {
	const tag = `burst${++loadNumber}x${Date.now().toString(36)}`;
	return {
		tag,
		bodies: Array.from({ length: count }, (_, index) => ({
			...(template[index % template.length] as Record<string, unknown>),
			id: `${tag}-${index}`,
		})),
	};
}

/** Task ids (of this load) found in the workflow's executions. */
async function executedIds(target: Target, workflowId: string, tag: string): Promise<Set<string>> {
	const found = new Set<string>();
	const pattern = new RegExp(`${tag}-\\d+`, 'g');
	let cursor: string | undefined;
	for (let page = 0; page < 50; page++) {
		const answer = await target.api.publicApi<{ data: unknown[]; nextCursor?: string | null }>(
			'GET',
			`/executions?workflowId=${workflowId}&includeData=true&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
		);
		for (const execution of answer.data) {
			const ids = new Set(JSON.stringify(execution).match(pattern) ?? []);
			for (const id of ids) found.add(id);
		}
		if (!answer.nextCursor) break;
		cursor = answer.nextCursor;
	}
	return found;
}

/** Sends the bodies (all at once, or `perSecond` a second), each given the gateway's 5 s. */
async function runLoad(
	target: Target,
	contender: Contender,
	name: string,
	bodies: unknown[],
	tag: string,
	perSecond?: number,
): Promise<Figures> {
	const url = target.webhookUrl(contender.path);
	const ticks = () => cpuTicksOf(target.userFolders);
	const ticksBefore = ticks();
	const answeredIds = new Set<string>();
	const times: number[] = [];
	const errors = new Map<string, number>();
	await Promise.all(
		bodies.map(async (body, index) => {
			if (perSecond)
				await new Promise((resolve) => setTimeout(resolve, (index * 1000) / perSecond));
			const sent = process.hrtime.bigint();
			const hangUp = new AbortController();
			let timer: NodeJS.Timeout | undefined;
			try {
				// The caller hangs up after the gateway's timeout; the race makes sure the load goes
				// on even if an aborted fetch never settles (seen once with Node 20's fetch).
				const response = await Promise.race([
					(async () => {
						const answer = await fetch(url, {
							method: 'POST',
							headers: { 'content-type': 'application/json' },
							body: JSON.stringify(body),
							signal: hangUp.signal,
						});
						return { status: answer.status, text: await answer.text() };
					})(),
					new Promise<never>((_, reject) => {
						timer = setTimeout(() => {
							hangUp.abort();
							reject(Object.assign(new Error('timeout'), { name: 'TimeoutError' }));
						}, GATEWAY_TIMEOUT_MS);
					}),
				]);
				// The trigger answers a started final with its summary (started: true).
				const summaryOk =
					contender.workflowId === WEBHOOK_WORKFLOW || /"started":true/.test(response.text);
				if (response.status === 200 && !summaryOk)
					errors.set(
						'200 without started: true',
						(errors.get('200 without started: true') ?? 0) + 1,
					);
				else if (response.status === 200) {
					times.push(Number(process.hrtime.bigint() - sent) / 1e6);
					answeredIds.add((body as { id: string }).id);
				} else errors.set(String(response.status), (errors.get(String(response.status)) ?? 0) + 1);
			} catch (error) {
				const kind =
					(error as Error).name === 'TimeoutError' ? 'timeout' : (error as Error).message;
				errors.set(kind, (errors.get(kind) ?? 0) + 1);
			} finally {
				clearTimeout(timer);
			}
		}),
	);
	const cpuAnswering = ticksToMs(ticks() - ticksBefore);
	const loadAverage = loadavg()
		.map((value) => value.toFixed(1))
		.join('/');
	await settleOn(ticks);
	const cpuSettled = ticksToMs(ticks() - ticksBefore);
	// n8n's public API leaves out executions it still counts as active (in queue mode, until
	// main hears a worker finished them): asked again, a few times, before any is called lost.
	let executed = await executedIds(target, contender.workflowId, tag);
	for (let attempt = 0; attempt < 10; attempt++) {
		if ([...answeredIds].every((id) => executed.has(id))) break;
		await new Promise((resolve) => setTimeout(resolve, 3_000));
		executed = await executedIds(target, contender.workflowId, tag);
	}
	let late = 0;
	let toSweeper = 0;
	let lost = 0;
	for (const body of bodies) {
		const id = (body as { id: string }).id;
		if (answeredIds.has(id) && !executed.has(id)) lost++;
		if (!answeredIds.has(id) && executed.has(id)) late++;
		if (!answeredIds.has(id) && !executed.has(id)) toSweeper++;
	}
	times.sort((a, b) => a - b);
	const at = (fraction: number) => (times.length ? percentile(times, fraction) : NaN);
	return {
		load: name,
		contender: contender.label,
		sent: bodies.length,
		answered: times.length,
		p50: at(0.5),
		p95: at(0.95),
		max: times.length ? times[times.length - 1] : NaN,
		cpuAnsweringMs: cpuAnswering / bodies.length,
		cpuSettledMs: cpuSettled / bodies.length,
		executions: executed.size,
		late,
		toSweeper,
		lost,
		loadAverage,
		errors: [...errors].map(([kind, count]) => `${count} ${kind}`).join(', '),
	};
}

async function startTarget(
	line: N8nLine,
	mode: Mode,
	setting: string,
	tarball: string,
): Promise<Target> {
	// Queue mode's workers say they are ready at n8n's info level (what startQueueMode waits for).
	const env = { ...(mode === 'regular' ? { N8N_LOG_LEVEL: 'warn' } : {}), ...SETTING_ENV[setting] };
	if (mode === 'regular') {
		const n8n = await startN8n({
			line,
			packages: [tarball],
			workflows,
			credentials: benchCredentials,
			env,
			n8nDefaults: true,
		});
		return {
			webhookUrl: (path) => n8n.webhookUrl(path),
			api: n8n,
			userFolders: [n8n.userFolder],
			stop: () => n8n.stop(),
		};
	}
	// A fresh database per cluster: n8n 2.x binds what it stores to the cluster's encryption key.
	const services = await startQueueServices();
	let cluster: QueueModeN8n;
	try {
		cluster = await startQueueMode({
			line,
			services,
			packages: [tarball],
			workflows,
			credentials: benchCredentials,
			webhookProcess: mode === 'queue+webhook',
			env,
		});
	} catch (error) {
		await services.stop();
		throw error;
	}
	let proxy: RoundRobinProxy | undefined;
	if (cluster.webhook) {
		proxy = await startRoundRobinProxy();
		proxy.targets = [cluster.main.baseUrl, cluster.webhook.baseUrl];
	}
	return {
		webhookUrl: (path) => (proxy ? `${proxy.url}/webhook/${path}` : cluster.main.webhookUrl(path)),
		api: cluster.main,
		userFolders: [
			cluster.main.userFolder,
			...cluster.workers.map((worker) => worker.userFolder),
			...(cluster.webhook ? [cluster.webhook.userFolder] : []),
		],
		stop: async () => {
			await proxy?.close();
			await cluster.stop();
			await services.stop();
		},
	};
}

const ms = (value: number) => (Number.isNaN(value) ? '—' : value.toFixed(0));

async function main(): Promise<void> {
	const simulator = await startSimulator({ queuedMs: 100, runningMs: 200 });
	let template: unknown[];
	try {
		template = (await captureTaskCallbacks(simulator, 10)).filter(
			(body) => callbackStatus(body) === 'succeeded',
		);
	} finally {
		await simulator.close();
	}
	console.log(
		`Final callbacks in bursts of ${BURSTS.join(', ')}${STEADY_PER_SECOND ? ` and ${STEADY_PER_SECOND} a second for ${STEADY_SECONDS} s` : ''}, each given ${GATEWAY_TIMEOUT_MS / 1000} s; the Task Callback Trigger and n8n's Webhook node alternating in the same n8n; ${REPEATS} repetition(s)`,
	);
	const packDir = mkdtempSync(join(tmpdir(), 'mg-bench-pack-'));
	const rows: string[] = [];
	try {
		const packed = await packPackage(packDir);
		for (const line of LINES) {
			try {
				findInstallation(line);
			} catch (error) {
				console.log(`n8n ${N8N_VERSIONS[line]}: skipped (${(error as Error).message})`);
				continue;
			}
			for (const mode of MODES) {
				for (const setting of SETTINGS) {
					const target = await startTarget(line, mode, setting, packed.tarball);
					try {
						for (const contender of CONTENDERS)
							await target.api.activateWorkflow(contender.workflowId);
						for (const contender of CONTENDERS) await target.api.waitForWebhook(contender.path);
						// Unmeasured warm-up: n8n loads the node types on first use.
						for (const contender of CONTENDERS) {
							const { tag, bodies } = finals(template, 10);
							await runLoad(target, contender, 'warm-up', bodies, tag, 5);
						}
						const loads = [
							...BURSTS.map((size) => ({ name: `burst ${size}`, size, perSecond: undefined })),
							...(STEADY_PER_SECOND > 0
								? [
										{
											name: `steady ${STEADY_PER_SECOND}/s`,
											size: STEADY_PER_SECOND * STEADY_SECONDS,
											perSecond: STEADY_PER_SECOND,
										},
									]
								: []),
						];
						for (let repeat = 0; repeat < REPEATS; repeat++) {
							for (const load of loads) {
								const rotation = (repeat + loadNumber) % CONTENDERS.length;
								const order = [...CONTENDERS.slice(rotation), ...CONTENDERS.slice(0, rotation)];
								for (const contender of order) {
									const { tag, bodies } = finals(template, load.size);
									const f = await runLoad(
										target,
										contender,
										load.name,
										bodies,
										tag,
										load.perSecond,
									);
									const row = `| ${N8N_VERSIONS[line]} | ${mode} | ${setting} | ${f.load} | ${f.contender} | ${f.answered} of ${f.sent} | ${ms(f.p50)} / ${ms(f.p95)} / ${ms(f.max)} | ${f.cpuAnsweringMs.toFixed(0)} / ${f.cpuSettledMs.toFixed(0)} | ${f.executions} / ${f.late} / ${f.toSweeper} / ${f.lost} | ${f.loadAverage} | ${f.errors || '—'} |`;
									rows.push(row);
									console.log(row);
								}
							}
						}
					} finally {
						await target.stop();
					}
				}
			}
		}
	} finally {
		if (existsSync(packDir)) rmSync(packDir, { recursive: true, force: true });
	}
	console.log(
		'\n| n8n | mode | setting | load | contender | answered 200 within 5 s | answer p50 / p95 / max (ms, answered) | n8n CPU ms per callback, while answering / until settled | executions / of them unanswered / no execution: to the sweeper / answered but lost | load average 1/5/15 min | not answered |',
	);
	console.log('|---|---|---|---|---|---|---|---|---|---|---|');
	for (const row of rows) console.log(row);
	process.exit(0);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

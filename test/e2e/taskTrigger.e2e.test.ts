/**
 * The Task Callback Trigger in real n8n, on its production URL with the workflow active (2.x:
 * published): the example pair (examples/task-callback-*.json) creates a batch of Task family S
 * videos whose callbacks the simulator sends over real HTTP (queued, running, the final state
 * twice); the test then replays a stale "running" for every task. Callbacks get lost in real
 * operations (n8n down or too busy for the gateway's timeout): the test loses every callback of
 * some tasks on purpose, and the sweeper example finds them. Every finished task must reach the
 * end exactly once, by its callback or by the sweeper, on a quiet or a busy machine.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSimulator, type Simulator } from '../simulator';
import { callbackStatus, captureTaskCallbacks, inFlight } from './callbackBodies';
import { exampleCallbackSecret } from './dataTable';
import { EXAMPLES_DIR, simulatorCredentials } from './examples';
import {
	N8N_LINES,
	delay,
	reservePort,
	loadWorkflow,
	nodeOutput,
	packPackage,
	startN8n,
	type N8nInstance,
	type PackedPackage,
	type WorkflowJson,
	webhookUrlEnv,
} from './harness';

/**
 * Stands between the gateway and n8n and loses every callback of every `everyNth` task (in the
 * order the tasks are first heard of), answering 503 without forwarding: those tasks' callbacks
 * never reach the trigger, as when n8n is down. Everything else is forwarded as it came.
 */
async function startLossyForwarder(
	target: () => string,
	everyNth: number,
): Promise<{
	url: string;
	lostTaskIds: Set<string>;
	/** The task of every callback n8n answered with `started: true`, even after the gateway gave up. */
	startedTaskIds: string[];
	/** Callbacks forwarded to n8n whose answer has not come yet. */
	inFlight: () => number;
	close: () => Promise<void>;
}> {
	const order = new Map<string, number>();
	const lostTaskIds = new Set<string>();
	const startedTaskIds: string[] = [];
	let inFlight = 0;
	const server = createHttpServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const body = Buffer.concat(chunks);
			const taskId = String((JSON.parse(body.toString('utf8')) as { id?: unknown }).id);
			if (!order.has(taskId)) order.set(taskId, order.size);
			if ((order.get(taskId) ?? 0) % everyNth === everyNth - 1) {
				lostTaskIds.add(taskId);
				response.writeHead(503).end();
				return;
			}
			inFlight += 1;
			fetch(`${target()}${request.url ?? ''}`, {
				method: 'POST',
				headers: { 'content-type': request.headers['content-type'] ?? 'application/json' },
				body,
			})
				.then(async (answer) => {
					const text = await answer.text();
					if (answer.ok && /"started"\s*:\s*true/.test(text)) startedTaskIds.push(taskId);
					response.writeHead(answer.status).end(text);
				})
				.catch(() => {
					if (!response.headersSent) response.writeHead(502);
					response.end();
				})
				.finally(() => (inFlight -= 1));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		lostTaskIds,
		startedTaskIds,
		inFlight: () => inFlight,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

/** The URL the create example ships with; the test points it at this n8n. */
const SHIPPED_N8N_URL = 'http://localhost:5678';
const TRIGGER_PATH = '8f6c1a52-3b0e-4c8e-9d7a-5e2f1c0b7a10/callback';
// n8n saves static data only for workflow ids of at most 16 characters (isWorkflowIdValid,
// packages/cli/src/utils.ts): the duplicate memory needs a short id.
const CREATE_ID = 'mgTaskCbCreate01';
const REACT_ID = 'mgTaskCbReact001';
const SWEEPER_ID = 'mgTaskCbSweeper1';
/** Every 5th task of the batch loses all its callbacks on the way to n8n. */
const LOSE_EVERY_NTH_TASK = 5;
const TEN_MINUTES_MS = 600_000;
/**
 * Tasks of the restart test (four callbacks each). 50 rather than the 250 first measured (docs):
 * before the fix 163 and 199 of 250 finals (65–80 %) started a second execution, so 50 still
 * fails it by 30 or more. Each task costs n8n an execution and four callbacks: 100 took 170–230 s
 * of a line's stream on 2 cores, the longest test outside the timing-sensitive files (issue 53).
 */
const RESTART_TASKS = 50;

let sim: Simulator;
let packDir: string;
let gatewayPackage: PackedPackage;

beforeAll(async () => {
	sim = await startSimulator({ queuedMs: 200, runningMs: 400 });
	packDir = mkdtempSync(join(process.env.MG_E2E_RUN_DIR ?? tmpdir(), 'mg-e2e-pack-'));
	gatewayPackage = await packPackage(packDir);
});

afterAll(async () => {
	await sim?.close();
	if (packDir) rmSync(packDir, { recursive: true, force: true });
});

describe.each(N8N_LINES)('Task Callback Trigger on n8n line %s.x', (line) => {
	let n8n: N8nInstance | undefined;
	let forwarder: Awaited<ReturnType<typeof startLossyForwarder>> | undefined;

	beforeAll(async () => {
		// The port must be known before import: the create example's callback URL names the
		// forwarder, which names this n8n.
		const port = await reservePort();
		forwarder = await startLossyForwarder(() => `http://127.0.0.1:${port}`, LOSE_EVERY_NTH_TASK);
		const shipped = JSON.stringify(
			loadWorkflow(join(EXAMPLES_DIR, 'task-callback-create.json'), CREATE_ID),
		);
		if (!shipped.includes(`${SHIPPED_N8N_URL}/webhook/${TRIGGER_PATH}`))
			throw new Error('the create example no longer calls back to the react example');
		n8n = await startN8n({
			line,
			port,
			// The forwarder stands for a proxy in front of n8n: n8n's webhook URL is its address, as
			// n8n behind a proxy is set up, so the create's Callback URL (the forwarder's) is this
			// n8n's own trigger and Add Callback Secret adds the secret to it.
			env: webhookUrlEnv(line, `${forwarder.url}/`),
			packages: [gatewayPackage.tarball],
			credentials: simulatorCredentials(sim),
			workflows: [
				loadWorkflow(join(EXAMPLES_DIR, 'task-callback-react.json'), REACT_ID),
				JSON.parse(shipped.split(SHIPPED_N8N_URL).join(forwarder.url)) as WorkflowJson,
				loadWorkflow(join(EXAMPLES_DIR, 'task-callback-sweeper.json'), SWEEPER_ID),
			],
		});
		await n8n.activateWorkflow(REACT_ID);
		await n8n.waitForWebhook(TRIGGER_PATH);
	});

	afterAll(async () => {
		await n8n?.stop();
		await forwarder?.close();
	});

	// One simulator for both lines: each test counts only its own callbacks.
	beforeEach(() => sim.reset());

	function running(): N8nInstance {
		if (!n8n) throw new Error('n8n did not start');
		return n8n;
	}

	test('a batch of 20 creates, every callback of 4 tasks lost on the way: each finished video reaches the end exactly once, by its callback or by the sweeper', async () => {
		const lossy = forwarder;
		if (!lossy) throw new Error('the forwarder did not start');
		const { execution } = await running().runManualWorkflow(CREATE_ID);
		expect(execution.status).toBe('success');
		const created = nodeOutput(execution, 'Create Video Tasks');
		const taskIds = created.map((task) => String(task.taskId));
		expect(new Set(taskIds).size).toBe(20);

		// queued, running, final, final again 25 ms later, then a stale running: 5 callbacks per
		// task. Each settles: answered, lost on purpose (503), or given up by the gateway after its
		// timeout on a busy machine; n8n's answer to a forwarded one is awaited all the same.
		const deadline = Date.now() + 120_000;
		while (
			(sim.callbacks.length < 100 ||
				sim.callbacks.some((callback) => callback.status === undefined && !callback.error) ||
				lossy.inFlight() > 0) &&
			Date.now() < deadline
		) {
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		expect(sim.callbacks).toHaveLength(100);
		expect(lossy.inFlight()).toBe(0);
		expect(lossy.lostTaskIds.size).toBe(20 / LOSE_EVERY_NTH_TASK);
		const lostCallbacks = sim.callbacks.filter((callback) =>
			lossy.lostTaskIds.has(String((callback.body as { id?: unknown }).id)),
		);
		expect(lostCallbacks.map((callback) => callback.status)).toEqual(Array(20).fill(503));
		const timedOut = sim.callbacks.filter((callback) => callback.error !== undefined).length;

		// The stale "running" of every task, sent again after its final state: never started.
		const runningCallbacks = sim.callbacks.filter(
			(callback) => (callback.body as { status?: string }).status === 'running',
		);
		expect(runningCallbacks).toHaveLength(40);
		const stale = runningCallbacks.slice(-20);
		const staleAnswers: unknown[] = [];
		for (const callback of stale) {
			const send = () =>
				running().http(
					'POST',
					`/webhook/${TRIGGER_PATH}?secret=${exampleCallbackSecret(sim.apiKey)}`,
					{
						body: callback.body,
					},
				);
			let answer = await send();
			// n8n 1.x answers 503 "Database is not ready" while its SQLite health check times out on
			// a busy machine (seen once with both lines and the browser on 2 cores), before any
			// node runs: a gateway sends such a callback again, and so does this test, a few times.
			for (
				let retry = 0;
				retry < 5 && answer.status === 503 && /Database is not ready/.test(answer.body);
				retry++
			) {
				await delay(1_000);
				answer = await send();
			}
			expect(answer.status).toBe(200);
			staleAnswers.push((JSON.parse(answer.body) as { started: boolean }).started);
		}
		expect(staleAnswers).toEqual(Array(20).fill(false));

		// Every execution the trigger said it started, once each (on one n8n process the
		// trigger's memory tells the two final copies apart, 25 ms apart or not).
		const started = lossy.startedTaskIds;
		expect(new Set(started).size).toBe(started.length);
		const executions = await running().waitForExecutions(REACT_ID, started.length);
		expect(executions).toHaveLength(started.length);
		expect(executions.map((run) => run.status)).toEqual(Array(started.length).fill('success'));
		const byCallback = executions.flatMap((run) => nodeOutput(run, 'Record Result'));
		expect(byCallback.map((result) => String(result.taskId)).sort()).toEqual([...started].sort());

		// The sweeper, ten minutes on (the gateway's clock and the rows' createdAt moved back
		// alike, so a Task family S task may be checked): the tasks without a result, once each.
		const withoutResult = created.filter((task) => !started.includes(String(task.taskId)));
		for (const id of lossy.lostTaskIds)
			expect(withoutResult.map((task) => task.taskId)).toContain(id);
		const rows = withoutResult.map((task) => {
			sim.backdateTask(String(task.taskId), TEN_MINUTES_MS);
			return {
				json: {
					...task,
					createdAt: new Date(Date.parse(String(task.createdAt)) - TEN_MINUTES_MS).toISOString(),
				},
			};
		});
		const queriesBefore = sim.requestsTo('GET', '/v1/task/get/').length;
		await running().updateWorkflow(SWEEPER_ID, (workflow) => {
			const pending = workflow.nodes.find((node) => node.name === 'Tasks Without a Result');
			if (!pending) throw new Error('the sweeper example has no "Tasks Without a Result" node');
			pending.parameters = { jsCode: `return ${JSON.stringify(rows)};` };
		});
		const sweep = await running().runManualWorkflow(SWEEPER_ID);
		expect(sweep.execution.status).toBe('success');
		const bySweeper = nodeOutput(sweep.execution, 'Record Result');
		expect(nodeOutput(sweep.execution, 'Check Tasks', 1)).toEqual([]);
		expect(nodeOutput(sweep.execution, 'Check Tasks', 2)).toEqual([]);
		expect(nodeOutput(sweep.execution, 'Check Tasks', 3)).toEqual([]);
		expect(sim.requestsTo('GET', '/v1/task/get/').length - queriesBefore).toBe(rows.length);

		// Exactly once and none lost, whichever way each task came.
		const reached = [...byCallback, ...bySweeper];
		expect(reached.map((result) => String(result.taskId)).sort()).toEqual([...taskIds].sort());
		for (const result of reached) {
			expect(result).toMatchObject({ status: 'succeeded', error: null });
			expect(String(result.videoUrl)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/.+\.mp4$/);
		}
		expect(sim.violations).toEqual([]);
		process.stderr.write(
			`[e2e] task trigger, n8n ${line}.x: 20 tasks, 100 callbacks (20 lost on purpose, ${timedOut} given up by the gateway) + 20 stale replays → ${executions.length} executions by callback, ${bySweeper.length} by the sweeper, ${reached.length - new Set(reached.map((result) => result.taskId)).size} duplicates, ${20 - new Set(reached.map((result) => result.taskId)).size} lost\n`,
		);
	});

	test(`a restart forgets no final it heard: ${RESTART_TASKS} tasks, ${4 * RESTART_TASKS} callbacks at 8 in flight, then every final replayed after the restart starts nothing`, async () => {
		// Real callback bodies: RESTART_TASKS Task family S tasks, four callbacks each (queued, running, the
		// final state twice), in the order the simulator sent them.
		const callbacks = await captureTaskCallbacks(sim, RESTART_TASKS);
		expect(callbacks).toHaveLength(4 * RESTART_TASKS);

		const post = async (body: unknown) => {
			const answer = await running().http(
				'POST',
				`/webhook/${TRIGGER_PATH}?secret=${exampleCallbackSecret(sim.apiKey)}`,
				{ body },
			);
			expect(answer.status).toBe(200);
			// Started or not, the answer is the trigger's JSON summary (not n8n's "firstEntryJson").
			return JSON.parse(answer.body) as { started: boolean; taskId: string; dropped?: string };
		};
		const answers = await inFlight(8, callbacks, post);
		const started = answers.filter((answer) => answer.started).map((answer) => answer.taskId);
		expect(started).toHaveLength(RESTART_TASKS);
		expect(new Set(started).size).toBe(RESTART_TASKS);

		n8n = await running().restart();
		await running().waitForWebhook(TRIGGER_PATH);
		const finals = callbacks.filter((body) => callbackStatus(body) === 'succeeded');
		const unique = [...new Map(finals.map((body) => [(body as { id: string }).id, body])).values()];
		expect(unique).toHaveLength(RESTART_TASKS);
		const replayed = await inFlight(8, unique, post);
		const startedAgain = replayed.filter((answer) => answer.started);
		process.stderr.write(
			`[e2e] task trigger restart, n8n ${line}.x: ${RESTART_TASKS} tasks, ${callbacks.length} callbacks at 8 in flight → ${started.length} executions; after a restart ${unique.length} finals replayed → ${startedAgain.length} second executions\n`,
		);
		expect(startedAgain).toEqual([]);
		expect(new Set(replayed.map((answer) => answer.dropped))).toEqual(new Set(['duplicate']));
		// The creates, their callbacks and a restart: minutes on a busy machine.
	}, 420_000);

	test('a wrong secret never starts the workflow', async () => {
		const answer = await running().http(
			'POST',
			`/webhook/${TRIGGER_PATH.replace(/\/.*/, '/guess')}`,
			{
				body: { id: 'x', status: 'succeeded' },
			},
		);
		expect(answer.status).toBe(404);
	});

	test('versions 2 and 3 read the bodies n8n leaves unread (no content type, application/…+json) and refuses other types', async () => {
		const send = async (taskId: string, contentType?: string) => {
			const body = Buffer.from(
				JSON.stringify({ id: taskId, model: 'video-s-1', status: 'queued' }),
			);
			// A Buffer body: fetch adds no content type of its own.
			const answer = await fetch(
				`${running().webhookUrl(TRIGGER_PATH)}?secret=${exampleCallbackSecret(sim.apiKey)}`,
				{
					method: 'POST',
					headers: contentType === undefined ? {} : { 'content-type': contentType },
					body,
				},
			);
			return {
				status: answer.status,
				body: JSON.parse(await answer.text()) as Record<string, unknown>,
			};
		};
		// Queued (Final Events Only): read and recognized, answered, and nothing started.
		expect(await send('untyped-1')).toEqual({
			status: 200,
			body: expect.objectContaining({ taskId: 'untyped-1', started: false, dropped: 'notFinal' }),
		});
		expect(await send('problem-1', 'application/problem+json')).toEqual({
			status: 200,
			body: expect.objectContaining({ taskId: 'problem-1', started: false }),
		});
		expect((await send('text-1', 'text/plain')).status).toBe(415);
	});
});

/**
 * Batch video at scale on n8n's queue mode: real Redis and Postgres, one main process, two
 * workers and an `n8n webhook` process, with a round-robin load balancer in front of the two
 * webhook-handling processes (main and webhook). One workflow creates 200 video tasks across
 * families; Task family S and Family A tasks call back into the Task Callback Trigger of a second
 * workflow (the simulator repeats final callbacks and sends stale ones), the generic tasks are
 * waited for by Wait for Task in a Check Once loop through n8n's Wait node. In the middle a worker
 * is stopped and started again, and the main process is restarted while the loop waits.
 *
 * The balancer loses every callback of every 10th callback task on purpose, and a callback the
 * gateway gives up on (a busy machine) is allowed: the sweeper (Wait for Task, Check Once and
 * Route, behind the same claim) finds the tasks without a result.
 *
 * Asserted: every callback task is recorded exactly once, by its callback or by the sweeper
 * (behind the atomic Postgres claim), no task is created twice, Task family S tasks are polled
 * only by the sweeper and never against the rule, every loop task comes out once. Measured (printed): what the trigger's best-effort memory and n8n's Remove
 * Duplicates let through with two webhook-handling processes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSimulator, type Simulator } from '../simulator';
import { simulatorCredentials } from './examples';
import {
	N8N_LINES,
	allRunsOutput,
	packPackage,
	until,
	type Execution,
	type N8nInstance,
	type PackedPackage,
} from './harness';
import {
	startQueueMode,
	startQueueServices,
	startRoundRobinProxy,
	type QueueModeN8n,
	type QueueServices,
	type RoundRobinProxy,
} from './queueMode';
import {
	BATCH,
	BATCH_SIZE,
	CLAIM_TABLE_SQL,
	CREATE_WORKFLOW_ID,
	POSTGRES_CREDENTIAL,
	REACT_WORKFLOW_ID,
	START_PATH,
	SWEEP_PENDING_NODE,
	SWEEP_WORKFLOW_ID,
	TRIGGER_PATH,
	createWorkflow,
	reactWorkflow,
	sweepWorkflow,
} from './queueWorkflows';

/** The loop's Wait node waits ≥ 65 s; the restart of the main process falls inside that wait. */
const LOOP_TIMEOUT_MS = 300_000;
const SETTLE_TIMEOUT_MS = 120_000;
const CALLBACK_FAMILIES = BATCH.taskS + BATCH.familyA;
/** The balancer loses every callback of every 10th task it hears of: the sweeper's work. */
const LOSE_EVERY_NTH_TASK = 10;
const TEN_MINUTES_MS = 600_000;

let sim: Simulator;
let packDir: string;
let gatewayPackage: PackedPackage;

beforeAll(async () => {
	sim = await startSimulator({ queuedMs: 500, runningMs: 2_000 });
	packDir = mkdtempSync(join(process.env.MG_E2E_RUN_DIR ?? tmpdir(), 'mg-e2e-pack-'));
	gatewayPackage = await packPackage(packDir);
});

afterAll(async () => {
	await sim?.close();
	if (packDir) rmSync(packDir, { recursive: true, force: true });
});

/** Every execution of a workflow, with data (the public API pages by cursor). */
async function allExecutions(n8n: N8nInstance, workflowId: string): Promise<Execution[]> {
	const executions: Execution[] = [];
	let cursor = '';
	do {
		const page = await n8n.publicApi<{ data: Execution[]; nextCursor?: string | null }>(
			'GET',
			`/executions?workflowId=${workflowId}&includeData=true&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
		);
		executions.push(...page.data.map((execution) => ({ ...execution, id: String(execution.id) })));
		cursor = page.nextCursor ?? '';
	} while (cursor);
	return executions;
}

function countBy<T>(values: T[]): Map<T, number> {
	const counts = new Map<T, number>();
	for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
	return counts;
}

describe.each(N8N_LINES)('n8n line %s.x in queue mode', (line) => {
	let services: QueueServices | undefined;
	let proxy: RoundRobinProxy | undefined;
	let cluster: QueueModeN8n | undefined;
	const startedAt = Date.now();

	beforeAll(async () => {
		services = await startQueueServices();
		proxy = await startRoundRobinProxy();
		await services.psql(CLAIM_TABLE_SQL);
		cluster = await startQueueMode({
			line,
			services,
			packages: [gatewayPackage.tarball],
			credentials: [
				...simulatorCredentials(sim),
				{
					...POSTGRES_CREDENTIAL,
					type: 'postgres',
					data: { ...services.postgres, ssl: 'disable', maxConnections: 4 },
				},
			],
			workflows: [createWorkflow(proxy.url), reactWorkflow(), sweepWorkflow()],
			webhookProcess: true,
		});
		const webhook = cluster.webhook;
		if (!webhook) throw new Error('no webhook process');
		proxy.targets = [cluster.main.baseUrl, webhook.baseUrl];
		await cluster.main.activateWorkflow(REACT_WORKFLOW_ID);
		await cluster.main.activateWorkflow(CREATE_WORKFLOW_ID);
		await cluster.main.waitForWebhook(TRIGGER_PATH);
		await cluster.main.waitForWebhook(START_PATH);
		// The webhook process finds webhooks in the database: ask it too.
		await until('the webhook process to know the trigger', 60_000, async () => {
			const answer = await fetch(`${webhook.baseUrl}/webhook/${TRIGGER_PATH}`, {
				method: 'OPTIONS',
				headers: { origin: webhook.baseUrl, 'access-control-request-method': 'POST' },
			});
			return answer.status === 204;
		});
	}, 600_000);

	afterAll(async () => {
		await cluster?.stop();
		await proxy?.close();
		await services?.stop();
	}, 120_000);

	test('200 videos: callbacks through two webhook processes, a Check Once loop across workers, a worker and the main process restarted mid-run', async () => {
		if (!cluster || !proxy || !services) throw new Error('queue mode did not start');
		const n8n = cluster;
		const db = services;
		const balancer = proxy;
		sim.reset();
		proxy.loseEveryNthTask = LOSE_EVERY_NTH_TASK;
		// Creates take 250 ms each: with 2 in flight the batch's callbacks arrive over about 25 s
		// instead of in one burst (the simulator gives each callback 5 s to be answered).
		sim.setOptions({ latencyMs: 250 });
		const scenarioStarted = Date.now();

		// Tasks finish at random times: every 30 ms, tasks created from then on get a new duration.
		const jitter = setInterval(() => {
			sim.setOptions({
				queuedMs: 200 + Math.random() * 800,
				runningMs: 5_000 + Math.random() * 35_000,
			});
		}, 30);
		const start = await n8n.main.http('POST', `/webhook/${START_PATH}`, { body: { batch: 1 } });
		expect(start.status).toBe(200);

		const creates = () => [
			...sim.requestsTo('POST', '/v1/task/create'),
			...sim.requestsTo('POST', '/vendor-a/v1/videos/'),
			...sim.requestsTo('POST', /^\/v1\/videos$/),
		];
		await until('200 creates', 120_000, () => creates().length >= BATCH_SIZE);
		clearInterval(jitter);
		sim.setOptions({ latencyMs: 0 });

		// The batch parks in the Wait node (its first pass found every generic task still running).
		// (Asked of Postgres directly: the main process is busy answering callbacks.)
		let loopId = '';
		await until('the create execution to wait', 120_000, async () => {
			loopId = await db.psql(
				`SELECT id FROM execution_entity WHERE "workflowId" = '${CREATE_WORKFLOW_ID}' AND status = 'waiting'`,
			);
			return loopId !== '';
		});

		// Callbacks are arriving: stop worker 2 (it finishes its running executions, takes no new
		// ones) and start it again.
		const worker = n8n.workers[1];
		await worker.stop();
		const workerDownAt = Date.now();
		await worker.start();
		const workerDownSeconds = (Date.now() - workerDownAt) / 1000;

		// Every callback sent and settled: queued, running, the final state twice (and a stale
		// running after it), each answered, lost on purpose (503), or given up by the gateway after
		// its timeout on a busy machine (n8n's answer to a forwarded one is awaited all the same).
		await until('every callback settled', SETTLE_TIMEOUT_MS, () => {
			const finals = sim.callbacks.filter((callback) =>
				/succeed|completed/.test(JSON.stringify(callback.body)),
			);
			return (
				finals.length >= 2 * CALLBACK_FAMILIES &&
				sim.callbacks.every((callback) => callback.status !== undefined || callback.error) &&
				balancer.inFlight === 0
			);
		});
		expect(proxy.lostTaskIds.size).toBe(CALLBACK_FAMILIES / LOSE_EVERY_NTH_TASK);
		const callbacksNotAnswered = sim.callbacks.filter((callback) => callback.status !== 200).length;

		// Restart the main process while the loop waits: its wait is in Postgres; the new main's
		// wait tracker resumes it and a worker runs the next pass.
		const beforeRestart = await n8n.main.publicApi<Execution>('GET', `/executions/${loopId}`);
		expect(beforeRestart.status).toBe('waiting');
		const restartStarted = Date.now();
		n8n.main = await n8n.main.restart();
		const mainDownSeconds = (Date.now() - restartStarted) / 1000;
		const loop = await n8n.main.waitForExecution(loopId, LOOP_TIMEOUT_MS);
		expect(loop.status).toBe('success');

		// Every execution the trigger said it started, stopped.
		let reactions: Execution[] = [];
		await until('every started reaction stopped', SETTLE_TIMEOUT_MS, async () => {
			reactions = await allExecutions(n8n.main, REACT_WORKFLOW_ID);
			return (
				reactions.length >= balancer.startedAnswers &&
				reactions.every((execution) => !['new', 'running', 'waiting'].includes(execution.status))
			);
		});
		let byCallback = reactions.flatMap((execution) => allRunsOutput(execution, 'Record Result'));
		const createdCallbackTasks = [
			...sim.requestsTo('POST', '/v1/task/create'),
			...sim.requestsTo('POST', '/vendor-a/v1/videos/'),
		];
		expect(createdCallbackTasks).toHaveLength(CALLBACK_FAMILIES);

		// The sweeper, ten minutes on (the gateway's clock and the rows' createdAt moved back alike
		// for Task family S, whose first query the rule allows 10 minutes after creation): every
		// callback task not yet claimed, once, through the same claim.
		const claimedTasks = new Set(
			(await db.psql('SELECT event_key FROM mg_task_events'))
				.split('\n')
				.filter(Boolean)
				.map((key) => key.split(':').slice(0, 2).join(':')),
		);
		const createdTasks = [...allRunsOutput(loop, 'Create S'), ...allRunsOutput(loop, 'Create A')];
		expect(createdTasks).toHaveLength(CALLBACK_FAMILIES);
		const withoutResult = createdTasks.filter(
			(task) => !claimedTasks.has(`${task.family}:${task.taskId}`),
		);
		for (const id of proxy.lostTaskIds)
			expect(withoutResult.map((task) => String(task.taskId))).toContain(id);
		const rows = withoutResult.map((task) => {
			if (task.family !== 'taskS') return { json: task };
			sim.backdateTask(String(task.taskId), TEN_MINUTES_MS);
			const createdAt = Date.parse(String(task.createdAt)) - TEN_MINUTES_MS;
			return { json: { ...task, createdAt: new Date(createdAt).toISOString() } };
		});
		await n8n.main.updateWorkflow(SWEEP_WORKFLOW_ID, (workflow) => {
			const pending = workflow.nodes.find((node) => node.name === SWEEP_PENDING_NODE);
			if (!pending) throw new Error(`the sweeper has no "${SWEEP_PENDING_NODE}" node`);
			pending.parameters = { jsCode: `return ${JSON.stringify(rows)};` };
		});
		const sweep = await n8n.main.runManualWorkflow(SWEEP_WORKFLOW_ID);
		expect(sweep.execution.status).toBe('success');
		const bySweeper = allRunsOutput(sweep.execution, 'Record Result');
		// A callback n8n answered too late for the balancer may still have started a reaction:
		// read them again, all stopped, now that the sweeper's claims are in.
		await until('every reaction stopped after the sweep', SETTLE_TIMEOUT_MS, async () => {
			reactions = await allExecutions(n8n.main, REACT_WORKFLOW_ID);
			return reactions.every(
				(execution) => !['new', 'running', 'waiting'].includes(execution.status),
			);
		});
		// A reaction either succeeded or n8n lost it to the worker's shutdown: the worker can fail a
		// job it just took before any node ran ("Connection terminated"), or close its database
		// connections under a node's running query, and then marks that execution crashed when it
		// starts again (seen on 2.41: crashed in Claim Once). Whether its claim went through or not,
		// the checks below settle it: every task recorded exactly once, by a reaction or by the
		// sweeper, none lost.
		const failedReactions = reactions.filter((execution) => execution.status !== 'success');
		const ranNodes = (execution: Execution) =>
			Object.keys(execution.data?.resultData.runData ?? {}).length > 0;
		const crashedWithWorker = failedReactions.filter(
			(execution) => execution.status === 'crashed' && ranNodes(execution),
		);
		expect(
			failedReactions.filter((execution) => ranNodes(execution) && execution.status !== 'crashed'),
		).toEqual([]);
		byCallback = reactions.flatMap((execution) => allRunsOutput(execution, 'Record Result'));

		// Exactly once per task, for every task, whichever way it came.
		const recorded = [...byCallback, ...bySweeper];
		const recordedPerTask = countBy(recorded.map((task) => `${task.family}:${task.taskId}`));
		expect(recordedPerTask.size).toBe(CALLBACK_FAMILIES);
		expect([...recordedPerTask.values()].filter((count) => count !== 1)).toEqual([]);
		expect(countBy(recorded.map((task) => task.family))).toEqual(
			new Map([
				['taskS', BATCH.taskS],
				['familyA', BATCH.familyA],
			]),
		);
		for (const task of recorded) expect(task.status).toBe('succeeded');
		expect(Number(await services.psql('SELECT count(*) FROM mg_task_events'))).toBe(
			CALLBACK_FAMILIES,
		);

		// No task created twice: one create per prompt.
		const prompts = creates().map(
			(request) => JSON.stringify(request.body).match(/Queue video \d+/)?.[0],
		);
		expect(new Set(prompts).size).toBe(BATCH_SIZE);
		expect(creates()).toHaveLength(BATCH_SIZE);

		// Task family S tasks polled only by the sweeper, once each, and never against the rule.
		expect(sim.requestsTo('GET', '/v1/task/get/')).toHaveLength(
			withoutResult.filter((task) => task.family === 'taskS').length,
		);
		// And no other rule of the spec broken (refused bodies, credentials, repeated creates, ...).
		expect(sim.violations).toEqual([]);

		// The loop: every generic task out exactly once, in a pass after the main restart.
		const polledDone = allRunsOutput(loop, 'Polled Done');
		expect(polledDone).toHaveLength(BATCH.generic);
		expect(new Set(polledDone.map((task) => task.taskId)).size).toBe(BATCH.generic);
		expect(allRunsOutput(loop, 'Polled Failed or Timed Out')).toEqual([]);
		const passes = loop.data?.resultData.runData['Check Once']?.length ?? 0;
		expect(passes).toBeGreaterThanOrEqual(2);
		// The loop's segments (one per pass: before the first wait, after each) ran on workers, not
		// on the main process, each once. (Counted in this cluster's logs only: a shared log file
		// once counted an earlier e2e file's execution of the same id.)
		const segmentsOn = Object.fromEntries(
			n8n.workers.map((w) => [
				w.name,
				w.log().split(`Worker started execution ${loopId} (`).length - 1,
			]),
		);
		const segments = Object.values(segmentsOn).reduce((sum, count) => sum + count, 0);
		expect(segments).toBe(passes);

		// Measured: what the best-effort layers let through with two webhook-handling processes.
		const started = reactions.length;
		const removeDuplicatesPassed = reactions.filter(
			(execution) => allRunsOutput(execution, 'Passed Remove Duplicates').length > 0,
		).length;
		const removeDuplicatesFailed = reactions.filter(
			(execution) => allRunsOutput(execution, 'Remove Duplicates Failed').length > 0,
		).length;
		const finalsSent = sim.callbacks.filter((callback) =>
			/succeed|completed/.test(JSON.stringify(callback.body)),
		).length;
		const heardByTrigger = new Set(
			reactions.flatMap((execution) =>
				allRunsOutput(execution, 'Video Finished').map((task) => task.taskId),
			),
		).size;
		const figures = {
			line: `${line}.x`,
			tasks: BATCH_SIZE,
			callbacksSent: sim.callbacks.length,
			finalCallbacksSent: finalsSent,
			tasksWhoseCallbacksWereLostOnPurpose: balancer.lostTaskIds.size,
			callbacksNotAnswered200: callbacksNotAnswered,
			forwardedTo: Object.fromEntries(balancer.forwarded),
			executionsStartedByTrigger: started,
			reactionsLostByN8nBeforeRunning: failedReactions.length - crashedWithWorker.length,
			reactionsCrashedWithTheWorker: crashedWithWorker.length,
			duplicatesThroughTrigger: started - heardByTrigger,
			passedRemoveDuplicates: removeDuplicatesPassed,
			duplicatesThroughRemoveDuplicates: removeDuplicatesPassed - heardByTrigger,
			removeDuplicatesFailed,
			recordedByCallback: byCallback.length,
			recordedBySweeper: bySweeper.length,
			recordedAfterPostgresClaim: recorded.length,
			duplicatesAfterClaim: recorded.length - CALLBACK_FAMILIES,
			lost: CALLBACK_FAMILIES - recordedPerTask.size,
			loopPasses: passes,
			loopSegments: segments,
			loopSegmentsPerWorker: segmentsOn,
			workerDownSeconds,
			mainDownSeconds,
			scenarioSeconds: (Date.now() - scenarioStarted) / 1000,
			lineSecondsSoFar: (Date.now() - startedAt) / 1000,
		};
		process.stderr.write(`[e2e] queue mode figures ${JSON.stringify(figures)}\n`);
	}, 900_000);
});

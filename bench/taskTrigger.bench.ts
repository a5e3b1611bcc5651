/**
 * Benchmark (not a test): `tsc -p bench/tsconfig.json && node .build/bench/taskTrigger.bench.js`.
 *
 * 1,000 callbacks into the Task Callback Trigger through the in-process webhook harness (n8n-core's
 * real WebhookContext and WorkflowExecute, static data read fresh and written whole per request,
 * as n8n's LiveWebhooks does): 500 tasks, each final event sent twice.
 * - sequential duplicates: the second copy arrives after the first was answered;
 * - concurrent duplicates: both copies are in flight at once (BENCH_CONCURRENCY requests at a
 *   time), which is where last-writer-wins static data lets some through.
 * Prints executions started, duplicates dropped, lost events and callbacks per second.
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

const TASKS = Number(process.env.BENCH_TASKS ?? 500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

interface Tally {
	callbacks: number;
	started: number;
	dropped: number;
	refused: number;
	lost: number;
	perSecond: number;
}

async function run(concurrentDuplicates: boolean): Promise<Tally> {
	const { postCallback, startWebhookHarness } = await import('../test/engine/webhookHarness');
	const harness = await startWebhookHarness({
		parameters: { secret: 'bench-secret', options: { memoryCapacity: 10_000 } },
	});
	const bodies = Array.from({ length: TASKS }, (_, index) => ({
		id: `bench-task-${index}`,
		status: 'succeeded',
		content: { video_url: `https://cdn.example/${index}.mp4` },
	}));
	// Sequential duplicates: every task once, then every task again. Concurrent: the two
	// copies of a task sit next to each other in the queue, so they are in flight together.
	const queue = concurrentDuplicates
		? bodies.flatMap((body) => [body, body])
		: [...bodies, ...bodies];
	const answers: Array<{ status: number; started?: unknown }> = [];
	const startedAt = Date.now();
	let next = 0;
	await Promise.all(
		Array.from({ length: CONCURRENCY }, async () => {
			while (next < queue.length) {
				const body = queue[next++];
				const answer = await postCallback(harness.url, body);
				answers.push({ status: answer.status, started: answer.body.started });
			}
		}),
	);
	const elapsed = (Date.now() - startedAt) / 1000;
	await harness.settled();
	const executedTasks = new Set(harness.executions.map(([item]) => String(item.json.taskId)));
	await harness.close();
	return {
		callbacks: queue.length,
		started: harness.executions.length,
		dropped: answers.filter((answer) => answer.status === 200 && answer.started === false).length,
		refused: answers.filter((answer) => answer.status !== 200).length,
		lost: bodies.filter((body) => !executedTasks.has(body.id)).length,
		perSecond: Math.round(queue.length / elapsed),
	};
}

async function main(): Promise<void> {
	process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'mg-bench-n8n-'));
	process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS ??= 'false';
	for (const concurrent of [false, true]) {
		const tally = await run(concurrent);
		process.stdout.write(
			`${concurrent ? 'concurrent' : 'sequential'} duplicates: ${tally.callbacks} callbacks for ${TASKS} tasks → ` +
				`${tally.started} executions, ${tally.dropped} dropped, ${tally.refused} refused, ${tally.lost} lost, ` +
				`${tally.perSecond} callbacks/s (${CONCURRENCY} in flight)\n`,
		);
	}
	process.exit(0);
}

void main();

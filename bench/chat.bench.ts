/**
 * Benchmark (not a test): `npm run bench`.
 *
 * 1. In real n8n (the 1.x install the end-to-end suite caches under
 *    ~/.cache/n8n-nodes-model-gateway; see realN8n.ts), against the simulator with a fixed added
 *    latency (50 ms): items per second for 1,000 chat items through the Chat node at 16 items
 *    in flight next to n8n's own HTTP Request node (batch size 16, interval 0) sending the same
 *    calls with the same credential, both in every repetition with the order rotated, medians
 *    compared; the Chat node's per-item overhead at 1 item in flight; its efficiency against the
 *    latency bound (16 × 1000 / latency items/s). Without a cached n8n this part is skipped and
 *    says so.
 * 2. The same Chat rows through n8n-core's engine in-process (no n8n server needed).
 * 3. Throughput of the shared SSE parser + chat aggregator on a large stream, in MB/s.
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { IDataObject } from 'n8n-workflow';

import { MAX_CONCURRENCY } from '../nodes/shared/items/items';
import { aggregateEventStream, ChatStreamAggregator } from '../nodes/shared/streams/sse';
import type { Simulator } from '../test/simulator';
import { startSimulator } from '../test/simulator';
import type { RealN8nSettings } from './realN8n';
import { REAL_N8N_VERSION, realN8nUnavailable, runContender, startRealN8n } from './realN8n';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 8);
const CONCURRENCY = 16;
/** Items for the 1-in-flight row, which takes at least items × latency. */
const SINGLE_ITEMS = Number(process.env.BENCH_SINGLE_ITEMS ?? 200);
const SSE_MEGABYTES = Number(process.env.BENCH_SSE_MB ?? 64);
/** Extra environment for the real n8n (e.g. NODE_OPTIONS=--cpu-prof to profile it). */
const N8N_NODE_OPTIONS = process.env.BENCH_N8N_NODE_OPTIONS;

async function benchSseParser(): Promise<string> {
	const chunk = (content: string) =>
		`data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
	const frames = Array.from({ length: 256 }, (_, index) =>
		chunk(`token ${index} — ünïcödé 🌍 `),
	).join('');
	const block = Buffer.from(frames);
	const repeats = Math.ceil((SSE_MEGABYTES * 1024 * 1024) / block.length);
	const tail = Buffer.from('data: [DONE]\n\n');
	const totalBytes = block.length * repeats + tail.length;
	async function* body(): AsyncGenerator<Buffer> {
		// 16 KiB reads, the size a socket typically delivers; boundaries fall mid-line.
		const piece = 16 * 1024;
		for (let repeat = 0; repeat < repeats; repeat++) {
			for (let start = 0; start < block.length; start += piece)
				yield block.subarray(start, start + piece);
		}
		yield tail;
	}
	const started = process.hrtime.bigint();
	const outcome = await aggregateEventStream(body(), new ChatStreamAggregator());
	const seconds = Number(process.hrtime.bigint() - started) / 1e9;
	if ('failure' in outcome) throw outcome.failure;
	const content = String(
		((outcome.result.choices as IDataObject[])[0].message as IDataObject).content,
	);
	return `SSE parser + chat aggregator: ${(totalBytes / 1024 / 1024).toFixed(1)} MB (${(256 * repeats).toLocaleString('en')} events, ${content.length.toLocaleString('en')} characters aggregated) in ${seconds.toFixed(2)} s = ${(totalBytes / 1024 / 1024 / seconds).toFixed(1)} MB/s`;
}

/** The median of some numbers. */
function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const middle = Math.floor(sorted.length / 2);
	return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const fixed = (value: number, digits = 1) => value.toFixed(digits);

function printTable(
	where: string,
	rows: { many: number[]; http?: number[]; single: number; singleItems: number },
): void {
	const many = median(rows.many);
	const http = rows.http ? median(rows.http) : undefined;
	const bound = (CONCURRENCY * 1000) / LATENCY_MS;
	const overheadMs = 1000 / rows.single - LATENCY_MS;
	const list = (rates: number[]) => rates.map((rate) => fixed(rate, 0)).join(', ');
	console.log(`\n${where}`);
	console.log('| what | Model Gateway | n8n HTTP Request node | goal |');
	console.log('|---|---|---|---|');
	console.log(
		`| chat items/s, ${CONCURRENCY} in flight vs batching ${CONCURRENCY} (interval 0), median | ${fixed(many)} | ${http === undefined ? 'not measured' : fixed(http)} | ≥ 1.2× HTTP Request |`,
	);
	if (http !== undefined)
		console.log(`| ratio Model Gateway ÷ HTTP Request | ${fixed(many / http, 2)} | — | ≥ 1.2 |`);
	console.log(
		`| per-item overhead beyond the gateway's latency, 1 in flight (${rows.singleItems} items) | ${fixed(overheadMs, 2)} ms | — | < 2 ms |`,
	);
	console.log(
		`| efficiency vs the latency bound (${CONCURRENCY} × 1000/${LATENCY_MS} = ${fixed(bound, 0)} items/s) | ${fixed(many / bound, 2)} | — | ≥ 0.85 |`,
	);
	console.log(
		`(every repetition, items/s: Model Gateway ${list(rows.many)}${rows.http ? `; HTTP Request ${list(rows.http)}` : ''})`,
	);
}

const settings: RealN8nSettings = {
	items: ITEMS,
	singleItems: Math.min(ITEMS, SINGLE_ITEMS),
	latencyMs: LATENCY_MS,
	repeats: REPEATS,
	concurrency: CONCURRENCY,
};

/** The side-by-side rows in real n8n, or a line saying why they were skipped. */
async function benchRealN8n(simulator: Simulator): Promise<void> {
	const unavailable = realN8nUnavailable();
	if (unavailable) {
		console.log(`Real n8n: skipped (${unavailable}).`);
		return;
	}
	console.log(
		`Real n8n ${REAL_N8N_VERSION}: ${ITEMS} chat items, simulator latency ${LATENCY_MS} ms, ${REPEATS} repetitions (order rotated), time = the node's executionTime in the execution's run data`,
	);
	const real = await startRealN8n(
		simulator,
		settings,
		N8N_NODE_OPTIONS ? { NODE_OPTIONS: N8N_NODE_OPTIONS } : {},
	);
	try {
		const { chat, http, single, max } = real.contenders;
		// n8n's HTTP Request node waits between batches only for an interval above 0: with
		// interval 0 it sends every item at once, so the Chat node's largest setting runs too.
		const contenders = [chat, http, max];
		const rates = contenders.map(() => [] as number[]);
		// One unmeasured run each: n8n loads the node types and warms up on first use.
		for (const contender of contenders) await runContender(real.n8n, simulator, contender);
		for (let repeat = 0; repeat < REPEATS; repeat++) {
			for (let turn = 0; turn < contenders.length; turn++) {
				const index = (turn + repeat) % contenders.length;
				rates[index].push(await runContender(real.n8n, simulator, contenders[index]));
			}
		}
		const singleRate = await runContender(real.n8n, simulator, single);
		const maxRate = median(rates[2]);
		printTable(`Real n8n ${REAL_N8N_VERSION}, node executionTime:`, {
			many: rates[0],
			http: rates[1],
			single: singleRate,
			singleItems: single.items,
		});
		console.log(
			`| chat items/s, ${max.label.replace('Model Gateway Chat, ', '')} (bound ${fixed((MAX_CONCURRENCY * 1000) / LATENCY_MS, 0)}), median | ${fixed(maxRate)} | ${fixed(median(rates[1]))} | ratio ${fixed(maxRate / median(rates[1]), 2)} |`,
		);
		console.log(
			`(every repetition, items/s: ${max.label} ${rates[2].map((rate) => fixed(rate, 0)).join(', ')})`,
		);
	} finally {
		await real.stop();
	}
}

/** The Chat rows through n8n-core's engine in this process. */
async function benchInProcess(simulator: Simulator): Promise<void> {
	// As test/setup-env.ts: n8n-core writes an instance key under N8N_USER_FOLDER.
	process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'mg-bench-n8n-'));
	process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS ??= 'false';
	const { runNode } = await import('../test/engine/harness');
	const credentials = {
		modelGatewayApi: { baseUrl: simulator.baseUrl, apiKey: simulator.apiKey },
	};
	const inputOf = (count: number) =>
		Array.from({ length: count }, (_, row) => ({ json: { question: `Question number ${row}` } }));
	const chat = (concurrency: number, stream = false) => ({
		type: 'modelGatewayChat',
		parameters: {
			model: 'chat-model-1',
			messages: { values: [{ role: 'user', content: '={{ $json.question }}' }] },
			options: { concurrency, ...(stream ? { stream: true } : {}) },
		},
	});
	/** One run over `count` items; returns items per second after checking every answer. */
	const measure = async (label: string, concurrency: number, count: number, stream = false) => {
		simulator.reset();
		const started = process.hrtime.bigint();
		const result = await runNode(chat(concurrency, stream), { credentials, input: inputOf(count) });
		const seconds = Number(process.hrtime.bigint() - started) / 1e9;
		const error = result.error('Node Under Test');
		if (error) throw new Error(`${label}: ${error.message}`);
		const sent = simulator.requestsTo('POST', '/v1/chat/completions').length;
		const correct = result.items.every(
			(item, row) => item.json.content === `Echo: Question number ${row}`,
		);
		if (result.items.length !== count || sent !== count || !correct)
			throw new Error(`${label}: wrong output (${result.items.length} items, ${sent} requests)`);
		return count / seconds;
	};
	const many: number[] = [];
	for (let repeat = 0; repeat < REPEATS; repeat++)
		many.push(await measure('Chat', CONCURRENCY, ITEMS));
	const single = await measure('Chat, 1 in flight', 1, settings.singleItems);
	printTable('In-process engine (n8n-core WorkflowExecute), wall time of the run:', {
		many,
		single,
		singleItems: settings.singleItems,
	});
	const streamed = await measure('Chat, streamed', CONCURRENCY, ITEMS, true);
	console.log(`| chat items/s, ${CONCURRENCY} in flight, streamed | ${fixed(streamed)} | — | — |`);
}

async function main(): Promise<void> {
	// BENCH_RATE_LIMIT_EVERY=N: the simulator answers every Nth request 429 (waited out).
	const simulator = await startSimulator({
		latencyMs: LATENCY_MS,
		rateLimitEvery: Number(process.env.BENCH_RATE_LIMIT_EVERY ?? 0),
	});
	try {
		await benchRealN8n(simulator);
		if (process.env.BENCH_SKIP_IN_PROCESS !== '1') await benchInProcess(simulator);
	} finally {
		await simulator.close();
	}
	console.log('');
	console.log(await benchSseParser());
	// n8n-core keeps process-wide machinery alive after an in-process execution.
	process.exit(0);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

/**
 * Benchmark (not a test): `npm run bench`.
 *
 * 1. Items per second for 1,000 chat items through n8n's real engine against the simulator
 *    with a fixed added latency (50 ms): the Chat node at 16 items in flight next to n8n's own
 *    HTTP Request node (v3, batch size 16, interval 0) sending the same calls, both in every
 *    repetition with the order rotated, medians compared; the Chat node's per-item overhead at
 *    1 item in flight; its efficiency against the latency bound (16 × 1000 / latency items/s).
 * 2. Throughput of the shared SSE parser + chat aggregator on a large stream, in MB/s.
 *
 * n8n-nodes-base is not a dependency of this package. The HTTP Request node is loaded from
 * N8N_NODES_BASE_DIR, or from the real-n8n installs the end-to-end suite caches under
 * ~/.cache/n8n-nodes-model-gateway; without either, that row is skipped and says so.
 */
import { existsSync, mkdtempSync, readdirSync } from 'fs';
import { homedir, tmpdir } from 'os';
import { join } from 'path';
import type { IDataObject, INodeType, INodeTypeBaseDescription } from 'n8n-workflow';

import { aggregateEventStream, ChatStreamAggregator } from '../nodes/shared/sse';
import { packageNodeTypes } from '../test/engine/packageNodes';
import { startSimulator } from '../test/simulator';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 8);
/** Items for the 1-in-flight row, which takes at least items × latency. */
const SINGLE_ITEMS = Number(process.env.BENCH_SINGLE_ITEMS ?? 200);
const SSE_MEGABYTES = Number(process.env.BENCH_SSE_MB ?? 64);

function findNodesBase(): string | undefined {
	const candidates: string[] = [];
	if (process.env.N8N_NODES_BASE_DIR) candidates.push(process.env.N8N_NODES_BASE_DIR);
	const cache = join(homedir(), '.cache', 'n8n-nodes-model-gateway');
	if (existsSync(cache)) {
		for (const install of readdirSync(cache).sort())
			candidates.push(join(cache, install, 'node_modules', 'n8n-nodes-base'));
	}
	return candidates.find((dir) =>
		existsSync(join(dir, 'dist/nodes/HttpRequest/V3/HttpRequestV3.node.js')),
	);
}

/** n8n's HTTP Request node v3, registered so the engine harness gives it the gateway credential. */
function registerHttpRequestNode(nodesBase: string): void {
	// A require: the path is known only at run time.
	const { HttpRequestV3 } = require(
		join(nodesBase, 'dist/nodes/HttpRequest/V3/HttpRequestV3.node.js'),
	) as {
		HttpRequestV3: new (base: INodeTypeBaseDescription) => INodeType;
	};
	const node = new HttpRequestV3({
		displayName: 'HTTP Request',
		name: 'httpRequest',
		group: ['output'],
		description: 'HTTP Request',
		defaultVersion: 4.2,
	});
	node.description = {
		...node.description,
		name: 'benchHttpRequest',
		credentials: [{ name: 'modelGatewayApi', required: false }],
	};
	packageNodeTypes.benchHttpRequest = node;
}

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

async function main(): Promise<void> {
	// As test/setup-env.ts: n8n-core writes an instance key under N8N_USER_FOLDER.
	process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'mg-bench-n8n-'));
	process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS ??= 'false';
	const nodesBase = findNodesBase();
	if (nodesBase) registerHttpRequestNode(nodesBase);
	// After the registration above: the harness builds its node table when it is loaded.
	const { runNode } = await import('../test/engine/harness');

	const simulator = await startSimulator({ latencyMs: LATENCY_MS });
	const credentials = {
		modelGatewayApi: { baseUrl: simulator.baseUrl, apiKey: simulator.apiKey },
		modelGatewayAssetReviewApi: {
			identityUrl: simulator.identityUrl,
			accessToken: simulator.accessToken,
		},
	};
	const inputOf = (count: number) =>
		Array.from({ length: count }, (_, row) => ({ json: { question: `Question number ${row}` } }));

	/** One run of a node over `count` items; returns items per second after checking every answer. */
	const measure = async (
		label: string,
		spec: { type: string; parameters: IDataObject },
		expectContent: (json: IDataObject) => unknown,
		count = ITEMS,
	): Promise<number> => {
		simulator.reset();
		const started = process.hrtime.bigint();
		const result = await runNode(spec, { credentials, input: inputOf(count) });
		const seconds = Number(process.hrtime.bigint() - started) / 1e9;
		const error = result.error('Node Under Test');
		if (error) throw new Error(`${label}: ${error.message}`);
		const sent = simulator.requestsTo('POST', '/v1/chat/completions').length;
		const correct = result.items.every(
			(item, row) => expectContent(item.json) === `Echo: Question number ${row}`,
		);
		if (result.items.length !== count || sent !== count || !correct)
			throw new Error(`${label}: wrong output (${result.items.length} items, ${sent} requests)`);
		return count / seconds;
	};

	console.log(
		`${ITEMS} chat items, simulator latency ${LATENCY_MS} ms, ${REPEATS} repetitions (order rotated), engine: n8n-core WorkflowExecute in-process`,
	);
	const chat = (concurrency: number, stream = false) => ({
		type: 'modelGatewayChat',
		parameters: {
			model: 'chat-model-1',
			messages: { values: [{ role: 'user', content: '={{ $json.question }}' }] },
			options: { concurrency, ...(stream ? { stream: true } : {}) },
		},
	});
	const chatContent = (json: IDataObject) => json.content;
	const http = (batching?: { batchSize: number; batchInterval: number }) => ({
		type: 'benchHttpRequest',
		parameters: {
			method: 'POST',
			url: `${simulator.baseUrl}/v1/chat/completions`,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'modelGatewayApi',
			sendBody: true,
			contentType: 'json',
			specifyBody: 'json',
			jsonBody:
				'={{ JSON.stringify({ model: "chat-model-1", messages: [{ role: "user", content: $json.question }] }) }}',
			options: batching ? { batching: { batch: batching } } : {},
		},
	});
	const httpContent = (json: IDataObject) =>
		((json.choices as IDataObject[])[0].message as IDataObject).content;

	// The side-by-side rows: both nodes in every repetition, which one goes first rotating.
	const contenders: Array<{ label: string; run: () => Promise<number> }> = [
		{
			label: 'Model Gateway Chat, 16 items in flight',
			run: () => measure('Model Gateway Chat', chat(16), chatContent),
		},
	];
	if (nodesBase) {
		contenders.push({
			label: 'n8n HTTP Request node, batch size 16, interval 0',
			run: () => measure('HTTP Request', http({ batchSize: 16, batchInterval: 0 }), httpContent),
		});
	}
	const rates = contenders.map(() => [] as number[]);
	for (let repeat = 0; repeat < REPEATS; repeat++) {
		for (let turn = 0; turn < contenders.length; turn++) {
			const index = (turn + repeat) % contenders.length;
			rates[index].push(await contenders[index].run());
		}
	}
	const medians = rates.map(median);
	contenders.forEach((contender, index) =>
		console.log(
			`${contender.label.padEnd(52)} ${fixed(medians[index]).padStart(8)} items/s median  (${rates[index].map((rate) => fixed(rate, 0)).join(', ')})`,
		),
	);

	const singleItems = Math.min(ITEMS, SINGLE_ITEMS);
	const single = await measure(
		'Model Gateway Chat, 1 in flight',
		chat(1),
		chatContent,
		singleItems,
	);
	const overheadMs = 1000 / single - LATENCY_MS;
	const streamed = await measure('Model Gateway Chat, streamed', chat(16, true), chatContent);
	const bound = (16 * 1000) / LATENCY_MS;

	console.log('');
	console.log('| what | Model Gateway | n8n HTTP Request node | goal |');
	console.log('|---|---|---|---|');
	console.log(
		`| chat items/s, 16 in flight vs batching 16 (interval 0) | ${fixed(medians[0])} (median) | ${nodesBase ? fixed(medians[1]) : 'not measured'} | ≥ 1.2× HTTP Request |`,
	);
	if (nodesBase) {
		console.log(
			`| ratio Model Gateway ÷ HTTP Request | ${fixed(medians[0] / medians[1], 2)} | — | ≥ 1.2 |`,
		);
	}
	console.log(
		`| per-item overhead beyond the gateway's latency, 1 in flight (${singleItems} items) | ${fixed(overheadMs, 2)} ms | — | < 2 ms |`,
	);
	console.log(
		`| efficiency vs the latency bound (16 × 1000/${LATENCY_MS} = ${fixed(bound, 0)} items/s) | ${fixed(medians[0] / bound, 2)} | — | ≥ 0.85 |`,
	);
	console.log(`| chat items/s, 16 in flight, streamed | ${fixed(streamed)} | — | — |`);
	if (nodesBase) console.log(`(HTTP Request node loaded from ${nodesBase})`);
	else
		console.log(
			'n8n HTTP Request node: not measured (n8n-nodes-base not found; set N8N_NODES_BASE_DIR or run the real-n8n e2e setup first)',
		);
	await simulator.close();

	console.log(await benchSseParser());
	// n8n-core keeps process-wide machinery alive after an in-process execution.
	process.exit(0);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

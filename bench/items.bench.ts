/**
 * Benchmark (not a test): `npm run bench`.
 *
 * 1. In real n8n (the installs the end-to-end suite caches under ~/.cache/n8n-nodes-model-gateway;
 *    line 1.x by default, BENCH_N8N_LINES="1 2" for both), against the simulator with a fixed
 *    added latency (50 ms), every contender in every repetition with the order rotated, medians:
 *    - per item at 1 in flight: Chat, Responses and Video Create next to n8n's own floor for a
 *      node that sends one request per item (bench/floor-package: n8n's HTTP helper and nothing
 *      else), n8n's minimum for any node (its No Operation node, which returns its input), and a
 *      plain Node.js client in this process with and without keep-alive;
 *    - items per second at 16 in flight against the latency bound (16 × 1000 / latency) and n8n's
 *      HTTP Request node (batch size 16, interval 0), and Chat at 32.
 *    Without a cached n8n this part is skipped and says so.
 * 2. The Chat rows through n8n-core's engine in-process (no n8n server needed).
 * 3. Throughput of the shared SSE parser + chat aggregator on a large stream, in MB/s.
 */
import { Agent, request as httpRequest } from 'http';
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { IDataObject, INodeType } from 'n8n-workflow';

import { MAX_CONCURRENCY } from '../nodes/shared/items/items';
import { aggregateEventStream, ChatStreamAggregator } from '../nodes/shared/streams/sse';
import type { N8nLine } from '../test/e2e/harness';
import type { Simulator } from '../test/simulator';
import { startSimulator } from '../test/simulator';
import type { Contender, ContenderKind } from './realN8n';
import { FLOOR_OF, N8N_VERSIONS, realN8nUnavailable, runContender, startRealN8n } from './realN8n';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 1000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);
const CONCURRENCY = 16;
/** Items for the 1-in-flight rows, each of which takes at least items × latency. */
const SINGLE_ITEMS = Number(process.env.BENCH_SINGLE_ITEMS ?? 200);
const SINGLE_REPEATS = Number(process.env.BENCH_SINGLE_REPEATS ?? 3);
const SSE_MEGABYTES = Number(process.env.BENCH_SSE_MB ?? 64);
const LINES = (process.env.BENCH_N8N_LINES ?? '1')
	.split(/[\s,]+/)
	.filter((line) => line !== '')
	.map((line) => Number(line) as N8nLine);
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

/**
 * A plain Node.js client in this process sending the same chat requests as the nodes, `items`
 * of them, `concurrency` at a time, with a keep-alive agent or a new connection per request
 * (what n8n's HTTP helper does: it makes a new agent for every request). Returns milliseconds.
 */
async function plainClient(
	simulator: Simulator,
	options: { items: number; concurrency: number; keepAlive: boolean },
): Promise<number> {
	const url = new URL(`${simulator.baseUrl}/v1/chat/completions`);
	const keptAlive = new Agent({ keepAlive: true, maxSockets: options.concurrency });
	const send = (row: number) =>
		new Promise<void>((resolve, reject) => {
			const body = JSON.stringify({
				model: 'chat-model-1',
				messages: [{ role: 'user', content: `Question number ${row}` }],
			});
			const request = httpRequest(
				url,
				{
					method: 'POST',
					agent: options.keepAlive ? keptAlive : new Agent(),
					headers: {
						Authorization: `Bearer ${simulator.apiKey}`,
						'Content-Type': 'application/json',
						Accept: 'application/json',
					},
				},
				(response) => {
					const chunks: Buffer[] = [];
					response.on('data', (chunk: Buffer) => chunks.push(chunk));
					response.on('end', () => {
						const answer = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
							choices: Array<{ message: { content: string } }>;
						};
						if (answer.choices[0].message.content !== `Echo: Question number ${row}`)
							reject(new Error(`plain client: wrong answer for row ${row}`));
						else resolve();
					});
					response.on('error', reject);
				},
			);
			request.on('error', reject);
			request.end(body);
		});
	simulator.reset();
	let next = 0;
	const started = process.hrtime.bigint();
	const worker = async () => {
		while (next < options.items) await send(next++);
	};
	await Promise.all(Array.from({ length: options.concurrency }, worker));
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	keptAlive.destroy();
	return ms;
}

interface Row {
	label: string;
	/** The n8n contender's kind; undefined for the plain clients. */
	kind?: ContenderKind;
	/** Measures once; returns milliseconds for `items`. */
	measure: () => Promise<number>;
	items: number;
	times: number[];
}

/** Every row once per repetition, the order rotated, after one unmeasured warm-up run each. */
async function measureRotated(rows: Row[], repeats: number): Promise<void> {
	for (const row of rows) await row.measure();
	for (let repeat = 0; repeat < repeats; repeat++) {
		for (let turn = 0; turn < rows.length; turn++) {
			const row = rows[(turn + repeat) % rows.length];
			row.times.push(await row.measure());
			process.stderr.write('.');
		}
	}
	process.stderr.write('\n');
}

const CONTENDER_LABELS: Record<ContenderKind, string> = {
	chat: 'Model Gateway Chat',
	responses: 'Model Gateway Responses',
	videoCreate: 'Model Gateway Video, Create (Generic)',
	httpRequest: "n8n's HTTP Request node",
	floorChat: "n8n's floor for Chat: a node that only sends each item through n8n's HTTP helper",
	floorResponses: "n8n's floor for Responses: the same node, the same route",
	floorVideo: "n8n's floor for Video Create: the same node, the same route",
	noOp: "n8n's minimum: its No Operation node, which returns its input",
};

let contenderCount = 0;

function contender(kind: ContenderKind, items: number, concurrency: number): Contender {
	return {
		kind,
		items,
		concurrency,
		label: `${CONTENDER_LABELS[kind]}, ${concurrency} in flight`,
		// 16 characters, as the ids n8n makes.
		workflowId: `benchWorkflow${String(contenderCount++).padStart(3, '0')}`,
	};
}

/** The side-by-side rows in one real n8n line. */
async function benchRealN8n(simulator: Simulator, line: N8nLine): Promise<void> {
	const version = N8N_VERSIONS[line];
	const unavailable = realN8nUnavailable(line);
	if (unavailable) {
		console.log(`Real n8n ${version}: skipped (${unavailable}).`);
		return;
	}
	const singleItems = Math.min(ITEMS, SINGLE_ITEMS);
	const single = (
		['chat', 'floorChat', 'responses', 'floorResponses', 'videoCreate', 'floorVideo'] as const
	).map((kind) => contender(kind, singleItems, 1));
	const noOp = contender('noOp', ITEMS, 1);
	const many = (['chat', 'floorChat', 'responses', 'videoCreate', 'httpRequest'] as const).map(
		(kind) => contender(kind, ITEMS, CONCURRENCY),
	);
	const max = contender('chat', ITEMS, MAX_CONCURRENCY);
	const contenders = [...single, noOp, ...many, max];
	console.log(
		`\nReal n8n ${version}: simulator latency ${LATENCY_MS} ms; node time = its executionTime in the execution's run data; plain clients timed in this process; medians of ${SINGLE_REPEATS} (1 in flight, ${singleItems} items) and ${REPEATS} (${ITEMS} items) rotated repetitions`,
	);
	const real = await startRealN8n(
		simulator,
		line,
		contenders,
		N8N_NODE_OPTIONS ? { NODE_OPTIONS: N8N_NODE_OPTIONS } : {},
	);
	const n8nRow = (entry: Contender): Row => ({
		label: entry.label,
		kind: entry.kind,
		items: entry.items,
		times: [],
		measure: async () => await runContender(real.n8n, simulator, entry),
	});
	const plainRow = (
		label: string,
		items: number,
		concurrency: number,
		keepAlive: boolean,
	): Row => ({
		label,
		items,
		times: [],
		measure: async () => await plainClient(simulator, { items, concurrency, keepAlive }),
	});
	try {
		const keepAliveOne = plainRow('plain Node.js client, keep-alive', singleItems, 1, true);
		const newConnectionOne = plainRow(
			'plain Node.js client, a new connection per request',
			singleItems,
			1,
			false,
		);
		const singleRows = [keepAliveOne, newConnectionOne, ...single.map(n8nRow), n8nRow(noOp)];
		await measureRotated(singleRows, SINGLE_REPEATS);
		const keepAliveMany = plainRow('plain Node.js client, keep-alive', ITEMS, CONCURRENCY, true);
		const manyRows = [keepAliveMany, ...many.map(n8nRow), n8nRow(max)];
		await measureRotated(manyRows, REPEATS);

		const beyond = (row: Row) => median(row.times) / row.items - LATENCY_MS;
		const plain = beyond(keepAliveOne);
		const floorOf = (kind: ContenderKind | undefined) => {
			const floorKind = FLOOR_OF[kind as keyof typeof FLOOR_OF];
			const floorRow = singleRows.find((row) => row.kind === floorKind);
			return floorKind && floorRow ? beyond(floorRow) : undefined;
		};
		console.log(`\nReal n8n ${version}, per item at 1 in flight (${singleItems} items):`);
		console.log(
			"| what | ms per item beyond the gateway's latency | ÷ plain keep-alive client | beyond n8n's floor (ms) |",
		);
		console.log('|---|---|---|---|');
		for (const row of singleRows) {
			if (row.kind === 'noOp') {
				const perItem = median(row.times) / row.items;
				console.log(
					`| ${row.label.replace(', 1 in flight', '')} (${row.items} items, no request) | ${fixed(perItem, 4)} ms per item in all | — | — |`,
				);
				continue;
			}
			const ms = beyond(row);
			const floor = floorOf(row.kind);
			const ours = floor === undefined ? '—' : fixed(ms - floor, 2);
			console.log(`| ${row.label} | ${fixed(ms, 2)} | ${fixed(ms / plain, 2)}× | ${ours} |`);
		}
		const bound = (concurrency: number) => (concurrency * 1000) / LATENCY_MS;
		const rate = (row: Row) => row.items / (median(row.times) / 1000);
		const httpNode = manyRows.find((row) => row.kind === 'httpRequest');
		const httpRate = httpNode ? rate(httpNode) : NaN;
		console.log(`\nReal n8n ${version}, items per second (${ITEMS} items):`);
		console.log(
			"| what | items/s | ÷ latency bound (in flight × 1000 / latency) | ÷ n8n's HTTP Request node |",
		);
		console.log('|---|---|---|---|');
		for (const row of manyRows) {
			const inFlight = row === manyRows[manyRows.length - 1] ? MAX_CONCURRENCY : CONCURRENCY;
			const isHttpNode = row === httpNode;
			console.log(
				`| ${isHttpNode ? `${CONTENDER_LABELS.httpRequest}, batch size ${CONCURRENCY}, interval 0 (sends every item at once)` : row.label} | ${fixed(rate(row))} | ${isHttpNode ? '—' : fixed(rate(row) / bound(inFlight), 2)} | ${isHttpNode ? '—' : `${fixed(rate(row) / httpRate, 2)}×`} |`,
			);
		}
		const list = (row: Row) =>
			`${row.label}: ${row.times.map((ms) => fixed(row.items / (ms / 1000), 0)).join(', ')}`;
		console.log(
			`(every repetition, items/s: ${[...singleRows, ...manyRows].map(list).join('; ')})`,
		);
	} finally {
		await real.stop();
	}
}

/** The benchmark-only floor node (plain JavaScript, see bench/floor-package). */
function floorNodeType(): INodeType {
	// A CommonJS file, loaded as n8n loads it.
	const loaded = require(
		join(__dirname, '..', '..', 'bench', 'floor-package', 'nodes', 'BenchBareRequest.node.js'),
	) as {
		BenchBareRequest: new () => INodeType;
	};
	return new loaded.BenchBareRequest();
}

type RunNode = (typeof import('../test/engine/harness'))['runNode'];

/**
 * Per item in the engine in this process, with a gateway that answers at once (latency 0), 1 in
 * flight: each node next to the floor node on the same route, alternating. What the node costs
 * more than the floor, in wall and CPU time, is this package's own work per item (the simulator's
 * share is the same for both).
 */
async function benchInProcessFloor(runNode: RunNode): Promise<void> {
	const instant = await startSimulator({ latencyMs: 0 });
	try {
		const question = '={{ $json.question }}';
		const floor = (route: string, model: string) => ({
			type: 'benchBareRequest',
			parameters: {
				baseUrl: instant.baseUrl,
				route,
				model,
				apiKey: instant.apiKey,
				concurrency: 1,
			},
		});
		const pairs = [
			{
				label: 'Chat',
				node: {
					type: 'modelGatewayChat',
					parameters: {
						model: 'chat-model-1',
						messages: { values: [{ role: 'user', content: question }] },
					},
				},
				floor: floor('chat', 'chat-model-1'),
			},
			{
				label: 'Responses',
				node: {
					type: 'modelGatewayResponses',
					parameters: { model: 'chat-model-1', input: question },
				},
				floor: floor('responses', 'chat-model-1'),
			},
			{
				label: 'Video, Create',
				node: {
					type: 'modelGatewayVideo',
					parameters: {
						family: 'generic',
						operation: 'create',
						model: 'video-model-1',
						genericPrompt: question,
					},
				},
				floor: floor('video', 'video-model-1'),
			},
		];
		const count = Math.min(ITEMS, 400);
		const credentials = { modelGatewayApi: { baseUrl: instant.baseUrl, apiKey: instant.apiKey } };
		const input = Array.from({ length: count }, (_, row) => ({
			json: { question: `Question number ${row}` },
		}));
		/** One run: wall and CPU milliseconds per item. */
		const measure = async (node: Parameters<RunNode>[0]) => {
			instant.reset();
			const cpu = process.cpuUsage();
			const started = process.hrtime.bigint();
			const result = await runNode(node, { credentials, input });
			const wall = Number(process.hrtime.bigint() - started) / 1e6 / count;
			const used = process.cpuUsage(cpu);
			const error = result.error('Node Under Test');
			if (error || result.items.length !== count)
				throw new Error(`${node.type}: ${error?.message}`);
			return { wall, cpu: (used.user + used.system) / 1000 / count };
		};
		console.log(
			`\nIn-process engine, the gateway answering at once, 1 in flight, ${count} items, medians of ${REPEATS} alternating runs:`,
		);
		console.log(
			'| node | wall ms per item: node / floor | node − floor | CPU ms per item: node / floor | node − floor |',
		);
		console.log('|---|---|---|---|---|');
		for (const pair of pairs) {
			await measure(pair.node);
			await measure(pair.floor);
			const node: Array<{ wall: number; cpu: number }> = [];
			const bare: Array<{ wall: number; cpu: number }> = [];
			for (let repeat = 0; repeat < REPEATS; repeat++) {
				node.push(await measure(pair.node));
				bare.push(await measure(pair.floor));
			}
			const wall = [median(node.map((run) => run.wall)), median(bare.map((run) => run.wall))];
			const cpu = [median(node.map((run) => run.cpu)), median(bare.map((run) => run.cpu))];
			console.log(
				`| ${pair.label} | ${fixed(wall[0], 3)} / ${fixed(wall[1], 3)} | ${fixed(wall[0] - wall[1], 3)} | ${fixed(cpu[0], 3)} / ${fixed(cpu[1], 3)} | ${fixed(cpu[0] - cpu[1], 3)} |`,
			);
		}
	} finally {
		await instant.close();
	}
}

/** The Chat rows through n8n-core's engine in this process. */
async function benchInProcess(simulator: Simulator): Promise<void> {
	// As test/setup-env.ts: n8n-core writes an instance key under N8N_USER_FOLDER.
	process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'mg-bench-n8n-'));
	process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS ??= 'false';
	// The floor node joins the engine's node table before the harness builds it.
	const { packageNodeTypes } = await import('../test/engine/packageNodes');
	packageNodeTypes.benchBareRequest = floorNodeType();
	const { runNode } = await import('../test/engine/harness');
	await benchInProcessFloor(runNode);
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
	for (let repeat = 0; repeat < SINGLE_REPEATS; repeat++)
		many.push(await measure('Chat', CONCURRENCY, ITEMS));
	const singleRate = await measure('Chat, 1 in flight', 1, Math.min(ITEMS, SINGLE_ITEMS));
	const streamed = await measure('Chat, streamed', CONCURRENCY, ITEMS, true);
	console.log('\nIn-process engine (n8n-core WorkflowExecute), wall time of the run, Chat:');
	console.log('| what | figure |');
	console.log('|---|---|');
	console.log(`| items/s, ${CONCURRENCY} in flight, median | ${fixed(median(many))} |`);
	console.log(
		`| ms per item beyond the latency, 1 in flight | ${fixed(1000 / singleRate - LATENCY_MS, 2)} |`,
	);
	console.log(`| items/s, ${CONCURRENCY} in flight, streamed | ${fixed(streamed)} |`);
}

async function main(): Promise<void> {
	// BENCH_RATE_LIMIT_EVERY=N: the simulator answers every Nth request 429 (waited out).
	const simulator = await startSimulator({
		latencyMs: LATENCY_MS,
		rateLimitEvery: Number(process.env.BENCH_RATE_LIMIT_EVERY ?? 0),
	});
	try {
		for (const line of LINES) await benchRealN8n(simulator, line);
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

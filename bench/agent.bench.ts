/**
 * Benchmark (not a test): `npm run bench:agent`.
 *
 * n8n's AI Agent (typeVersion 3.1) on Model Gateway Chat Model (Chat Completions) next to the
 * same agent on n8n's own OpenAI Chat Model (`lmChatOpenAi` 1.3, Responses API off, so both
 * send POST /v1/chat/completions) pointed at the simulator through n8n's `openAiApi` credential
 * (`url` = simulator base URL + /v1). One running n8n 2.41.1, all four workflows imported, the
 * simulator answering every request after a fixed latency (50 ms). Same prompt, same tool (n8n's
 * Think Tool: it runs in n8n and calls nothing, so the tool costs both contenders the same and
 * little). The prompt names the weather, so the simulator's model calls the first tool, then
 * answers with the tool's result: a turn is two model requests and one tool call.
 *
 * Per repetition, the contenders alternate (the order flips every repetition):
 * - a turn: a Webhook-triggered workflow (respond when the last node finishes) runs the agent
 *   once. Timed: the HTTP round trip in this process, the execution's stoppedAt − startedAt and
 *   the AI Agent node's executionTime from the run data, summed over its runs (AI Agent 3.x
 *   runs once per model step, n8n runs the tool in between; read after all turns); n8n's CPU time
 *   per turn (n8n and its task runners, /proc, from before the request until 150 ms after the
 *   answer, when n8n has saved the execution);
 * - a streamed turn: a Chat Trigger (response mode Streaming) runs the agent with streaming on;
 *   the chat message is posted to the production webhook and n8n's answer (JSON lines: begin,
 *   item, end) read as it arrives. Timed: the first streamed text (the first `item` with
 *   content), the first byte of the answer, and the end of the stream; n8n CPU per streamed turn.
 * Medians of BENCH_TURNS (30) turns per contender and kind, after BENCH_WARMUP (3) unmeasured
 * ones; ratio = OpenAI Chat Model ÷ ours (≥ 1.0: ours no slower / no costlier).
 *
 * BENCH_TURNS, BENCH_WARMUP, BENCH_LATENCY_MS (50); BENCH_N8N_NODE_OPTIONS is passed to n8n as
 * NODE_OPTIONS (see taskTrigger.bench.ts on profiling n8n).
 */
import { existsSync, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { EXAMPLE_CREDENTIALS, simulatorCredentials } from '../test/e2e/examples';
import type { Execution, N8nInstance, WorkflowJson, WorkflowNode } from '../test/e2e/harness';
import { N8N_VERSIONS, delay, findInstallation, packPackage, startN8n } from '../test/e2e/harness';
import type { Simulator } from '../test/simulator';
import { startSimulator } from '../test/simulator';
import { cpuTicks, median, settle, ticksToMs } from './n8nCpu';

const TURNS = Number(process.env.BENCH_TURNS ?? 30);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const N8N_NODE_OPTIONS = process.env.BENCH_N8N_NODE_OPTIONS;
const LINE = 2;

const PROMPT = 'What is the weather in Paris?';
/** After the answer: n8n saves the execution; its CPU for that belongs to the turn. */
const QUIET_MS = 150;
const TURN_TIMEOUT_MS = 60_000;
const MODEL_ROUTE = '/v1/chat/completions';

const OPENAI_CREDENTIAL = {
	id: 'mgBenchOpenAi0001',
	name: 'OpenAI (simulator)',
	type: 'openAiApi',
} as const;

interface Contender {
	key: 'ours' | 'openAi';
	label: string;
	/** Workflow ids: at most 16 characters. */
	turnWorkflow: string;
	streamWorkflow: string;
	webhookPath: string;
	chatWebhookId: string;
	model: () => WorkflowNode;
}

const contenders: Contender[] = [
	{
		key: 'ours',
		label: 'Model Gateway Chat Model',
		turnWorkflow: 'benchAgentTurnMg',
		streamWorkflow: 'benchAgentChatMg',
		webhookPath: 'bench-agent-turn-gateway',
		chatWebhookId: '3f0d6a52-8c1e-4b7a-9d21-6e5f4a3b2c10',
		model: () => ({
			id: 'bench-agent-model-mg',
			name: 'Chat Model',
			type: 'n8n-nodes-model-gateway.modelGatewayChatModel',
			typeVersion: 1,
			position: [200, 220],
			parameters: { model: 'gpt-4o-mini', api: 'chatCompletions', options: {} },
			credentials: {
				modelGatewayApi: {
					id: EXAMPLE_CREDENTIALS.gateway.id,
					name: EXAMPLE_CREDENTIALS.gateway.name,
				},
			},
		}),
	},
	{
		key: 'openAi',
		label: "n8n's OpenAI Chat Model",
		turnWorkflow: 'benchAgentTurnOa',
		streamWorkflow: 'benchAgentChatOa',
		webhookPath: 'bench-agent-turn-openai',
		chatWebhookId: '7a2e9c41-0b3d-4f58-8e6a-1c2d3e4f5a60',
		model: () => ({
			id: 'bench-agent-model-oa',
			name: 'Chat Model',
			type: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
			typeVersion: 1.3,
			position: [200, 220],
			parameters: {
				model: { __rl: true, mode: 'id', value: 'gpt-4o-mini' },
				responsesApiEnabled: false,
				options: {},
			},
			credentials: {
				openAiApi: { id: OPENAI_CREDENTIAL.id, name: OPENAI_CREDENTIAL.name },
			},
		}),
	},
];

const AGENT = 'AI Agent';

function agentWorkflow(
	id: string,
	trigger: WorkflowNode,
	agentParameters: WorkflowNode['parameters'],
	model: WorkflowNode,
): WorkflowJson {
	const agent: WorkflowNode = {
		id: `${id}-agent`,
		name: AGENT,
		type: '@n8n/n8n-nodes-langchain.agent',
		typeVersion: 3.1,
		position: [220, 0],
		parameters: agentParameters,
	};
	const tool: WorkflowNode = {
		id: `${id}-tool`,
		name: 'Think',
		type: '@n8n/n8n-nodes-langchain.toolThink',
		typeVersion: 1.1,
		position: [400, 220],
		parameters: {},
	};
	return {
		id,
		name: `bench: ${id}`,
		nodes: [trigger, agent, { ...model, id: `${id}-model` }, tool],
		connections: {
			[trigger.name]: { main: [[{ node: AGENT, type: 'main', index: 0 }]] },
			[model.name]: { ai_languageModel: [[{ node: AGENT, type: 'ai_languageModel', index: 0 }]] },
			[tool.name]: { ai_tool: [[{ node: AGENT, type: 'ai_tool', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

function workflowsOf(contender: Contender): WorkflowJson[] {
	const turn = agentWorkflow(
		contender.turnWorkflow,
		{
			id: `${contender.turnWorkflow}-trigger`,
			name: 'Webhook',
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: `${contender.chatWebhookId.slice(0, -4)}0001`,
			parameters: {
				httpMethod: 'POST',
				path: contender.webhookPath,
				responseMode: 'lastNode',
				options: {},
			},
		},
		{ promptType: 'define', text: PROMPT, options: {} },
		contender.model(),
	);
	const chat = agentWorkflow(
		contender.streamWorkflow,
		{
			id: `${contender.streamWorkflow}-trigger`,
			name: 'When chat message received',
			type: '@n8n/n8n-nodes-langchain.chatTrigger',
			typeVersion: 1.4,
			position: [0, 0],
			webhookId: contender.chatWebhookId,
			parameters: { public: true, mode: 'webhook', options: { responseMode: 'streaming' } },
		},
		{ promptType: 'auto', options: { enableStreaming: true } },
		contender.model(),
	);
	return [turn, chat];
}

const chatPath = (contender: Contender): string => `${contender.chatWebhookId}/chat`;

interface TurnFigures {
	roundTripMs: number;
	cpuMs: number;
}

interface StreamFigures {
	firstTextMs: number;
	firstByteMs: number;
	endMs: number;
	cpuMs: number;
}

/** The model requests of one turn: two, and whether they asked for a stream. */
function checkModelRequests(simulator: Simulator, label: string, stream: boolean): void {
	const requests = simulator.requestsTo('POST', MODEL_ROUTE);
	const streamed = requests.map(
		(request) => (request.body as { stream?: boolean } | undefined)?.stream === true,
	);
	if (requests.length !== 2 || streamed.some((value) => value !== stream))
		throw new Error(
			`${label}: ${requests.length} model request(s), stream ${JSON.stringify(streamed)}; expected 2, stream ${stream}`,
		);
}

async function turn(n8n: N8nInstance, simulator: Simulator, contender: Contender) {
	simulator.reset();
	const ticksBefore = cpuTicks(n8n);
	const sent = process.hrtime.bigint();
	const response = await fetch(n8n.webhookUrl(contender.webhookPath), {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: '{}',
		signal: AbortSignal.timeout(TURN_TIMEOUT_MS),
	});
	const text = await response.text();
	const roundTripMs = Number(process.hrtime.bigint() - sent) / 1e6;
	await delay(QUIET_MS);
	const cpuMs = ticksToMs(cpuTicks(n8n) - ticksBefore);
	const output = response.status === 200 ? (JSON.parse(text) as { output?: unknown }).output : '';
	if (typeof output !== 'string' || !output.includes(`Echo: ${PROMPT} (tool result:`))
		throw new Error(`${contender.label}: turn answered ${response.status}: ${text.slice(0, 300)}`);
	checkModelRequests(simulator, contender.label, false);
	return { roundTripMs, cpuMs } satisfies TurnFigures;
}

interface StreamLine {
	type?: string;
	content?: string;
}

async function streamedTurn(
	n8n: N8nInstance,
	simulator: Simulator,
	contender: Contender,
	sessionId: string,
): Promise<StreamFigures> {
	simulator.reset();
	const ticksBefore = cpuTicks(n8n);
	const sent = process.hrtime.bigint();
	const since = () => Number(process.hrtime.bigint() - sent) / 1e6;
	const response = await fetch(n8n.webhookUrl(chatPath(contender)), {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ action: 'sendMessage', sessionId, chatInput: PROMPT }),
		signal: AbortSignal.timeout(TURN_TIMEOUT_MS),
	});
	if (response.status !== 200 || !response.body)
		throw new Error(`${contender.label}: chat answered ${response.status}`);
	let firstByteMs: number | undefined;
	let firstTextMs: number | undefined;
	let pending = '';
	let text = '';
	const kinds: string[] = [];
	const take = (line: string) => {
		if (line.trim() === '') return;
		const parsed = JSON.parse(line) as StreamLine;
		kinds.push(parsed.type ?? '?');
		if (parsed.type === 'item' && typeof parsed.content === 'string' && parsed.content !== '') {
			firstTextMs ??= since();
			text += parsed.content;
		}
	};
	const decoder = new TextDecoder();
	// Bounded: the stream ends, or the request's timeout aborts it.
	for await (const bytes of response.body) {
		firstByteMs ??= since();
		pending += decoder.decode(bytes, { stream: true });
		const lines = pending.split('\n');
		pending = lines.pop() ?? '';
		for (const line of lines) take(line);
	}
	take(pending + decoder.decode());
	const endMs = since();
	await delay(QUIET_MS);
	const cpuMs = ticksToMs(cpuTicks(n8n) - ticksBefore);
	if (firstTextMs === undefined || firstByteMs === undefined || !text.includes(`Echo: ${PROMPT}`))
		throw new Error(
			`${contender.label}: streamed ${JSON.stringify(kinds)}, text ${JSON.stringify(text.slice(0, 200))}`,
		);
	checkModelRequests(simulator, contender.label, true);
	return { firstTextMs, firstByteMs, endMs, cpuMs };
}

interface ExecutionFigures {
	executionMs: number;
	agentMs: number;
}

/** The newest `count` executions of a workflow: wall time and the AI Agent's executionTime. */
async function executionFigures(
	n8n: N8nInstance,
	workflowId: string,
	count: number,
): Promise<ExecutionFigures[]> {
	const executions = (await n8n.waitForExecutions(workflowId, count + WARMUP)).slice(0, count);
	return executions.map((execution: Execution) => {
		const runs = execution.data?.resultData.runData[AGENT] as
			| Array<{ executionTime?: number }>
			| undefined;
		// AI Agent 3.x runs once per model step: the engine runs the tool between its runs.
		const agentMs = runs?.reduce((sum, run) => sum + (run.executionTime ?? NaN), 0);
		if (execution.status !== 'success' || !execution.stoppedAt || !Number.isFinite(agentMs))
			throw new Error(`execution ${execution.id} of ${workflowId}: ${execution.status}`);
		return {
			executionMs: Date.parse(execution.stoppedAt) - Date.parse(execution.startedAt),
			agentMs: agentMs as number,
		};
	});
}

const fixed = (value: number, digits = 0) => value.toFixed(digits);

async function main(): Promise<void> {
	try {
		findInstallation(LINE);
	} catch (error) {
		console.log(`n8n ${N8N_VERSIONS[LINE]}: skipped (${(error as Error).message})`);
		return;
	}
	const simulator = await startSimulator({ latencyMs: LATENCY_MS });
	const packDir = mkdtempSync(join(tmpdir(), 'mg-bench-pack-'));
	let n8n: N8nInstance | undefined;
	try {
		const packed = await packPackage(packDir);
		n8n = await startN8n({
			line: LINE,
			packages: [packed.tarball],
			credentials: [
				...simulatorCredentials(simulator),
				{
					...OPENAI_CREDENTIAL,
					data: { apiKey: simulator.apiKey, url: `${simulator.baseUrl}/v1` },
				},
			],
			workflows: contenders.flatMap(workflowsOf),
			env: {
				N8N_LOG_LEVEL: 'warn',
				...(N8N_NODE_OPTIONS ? { NODE_OPTIONS: N8N_NODE_OPTIONS } : {}),
			},
		});
		for (const contender of contenders) {
			await n8n.activateWorkflow(contender.turnWorkflow);
			await n8n.activateWorkflow(contender.streamWorkflow);
			await n8n.waitForWebhook(contender.webhookPath);
			await n8n.waitForWebhook(chatPath(contender));
		}

		// Unmeasured: n8n loads the node types, the SDK and LangChain on first use.
		for (let index = 0; index < WARMUP; index++) {
			for (const contender of contenders) {
				await turn(n8n, simulator, contender);
				await streamedTurn(n8n, simulator, contender, `warm-up-${contender.key}-${index}`);
			}
		}
		await settle(n8n);

		const turns = new Map(contenders.map((contender) => [contender, [] as TurnFigures[]]));
		const streams = new Map(contenders.map((contender) => [contender, [] as StreamFigures[]]));
		for (let repeat = 0; repeat < TURNS; repeat++) {
			const order = repeat % 2 === 0 ? contenders : [...contenders].reverse();
			for (const contender of order)
				turns.get(contender)?.push(await turn(n8n, simulator, contender));
			for (const contender of order)
				streams
					.get(contender)
					?.push(await streamedTurn(n8n, simulator, contender, `bench-${contender.key}-${repeat}`));
			if ((repeat + 1) % 10 === 0) console.log(`  ${repeat + 1} of ${TURNS} repetitions`);
		}

		const executions = new Map<Contender, { turn: ExecutionFigures[]; chat: ExecutionFigures[] }>();
		for (const contender of contenders)
			executions.set(contender, {
				turn: await executionFigures(n8n, contender.turnWorkflow, TURNS),
				chat: await executionFigures(n8n, contender.streamWorkflow, TURNS),
			});

		const [ours, openAi] = contenders;
		type Row = [string, (contender: Contender) => number[], number];
		const rows: Row[] = [
			['agent turn: HTTP round trip (ms)', (c) => turns.get(c)?.map((f) => f.roundTripMs) ?? [], 0],
			[
				'agent turn: execution stoppedAt − startedAt (ms)',
				(c) => executions.get(c)?.turn.map((f) => f.executionMs) ?? [],
				0,
			],
			[
				'agent turn: AI Agent node executionTime, its runs summed (ms)',
				(c) => executions.get(c)?.turn.map((f) => f.agentMs) ?? [],
				0,
			],
			['agent turn: n8n CPU (ms)', (c) => turns.get(c)?.map((f) => f.cpuMs) ?? [], 0],
			[
				'streamed turn: first streamed text (ms)',
				(c) => streams.get(c)?.map((f) => f.firstTextMs) ?? [],
				0,
			],
			[
				'streamed turn: first byte of the answer (ms)',
				(c) => streams.get(c)?.map((f) => f.firstByteMs) ?? [],
				0,
			],
			[
				'streamed turn: end of the stream (ms)',
				(c) => streams.get(c)?.map((f) => f.endMs) ?? [],
				0,
			],
			[
				'streamed turn: AI Agent node executionTime, its runs summed (ms)',
				(c) => executions.get(c)?.chat.map((f) => f.agentMs) ?? [],
				0,
			],
			['streamed turn: n8n CPU (ms)', (c) => streams.get(c)?.map((f) => f.cpuMs) ?? [], 0],
		];
		console.log(
			`\nn8n ${N8N_VERSIONS[LINE]}, AI Agent 3.1 + Think Tool, simulator latency ${LATENCY_MS} ms, 2 model requests per turn; medians of ${TURNS} turns per contender (${WARMUP} warm-up turns each left out), order alternated per repetition; ratio = OpenAI Chat Model ÷ ours (≥ 1.0: ours no slower)`,
		);
		console.log(`| figure | ${ours.label} | ${openAi.label} | ratio |`);
		console.log('|---|---|---|---|');
		for (const [name, values] of rows) {
			const mine = median(values(ours));
			const theirs = median(values(openAi));
			console.log(`| ${name} | ${fixed(mine)} | ${fixed(theirs)} | ${fixed(theirs / mine, 2)} |`);
		}
		const mean = (values: number[]) =>
			values.reduce((sum, value) => sum + value, 0) / values.length;
		for (const [name, values] of [rows[3], rows[8]]) {
			console.log(
				`${name}, mean (CPU is read in 10 ms ticks): ours ${fixed(mean(values(ours)), 1)}, OpenAI Chat Model ${fixed(mean(values(openAi)), 1)}`,
			);
		}
	} finally {
		await n8n?.stop();
		await simulator.close();
		if (existsSync(packDir)) rmSync(packDir, { recursive: true, force: true });
	}
}

main()
	.then(() => process.exit(0))
	.catch((error: unknown) => {
		console.error(error);
		process.exit(1);
	});

/**
 * Model Gateway Chat Model inside real n8n 2.x: n8n's AI Agent, chains and Chat Trigger reach
 * the gateway through the package's transport. On n8n 1.x the package still loads, and the node
 * says which n8n it needs when a workflow uses it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSimulator, type Simulator } from '../simulator';
import { simulatorCredentials } from './examples';
import {
	N8N_LINES,
	loadWorkflow,
	nodeOutput,
	packPackage,
	startN8n,
	type Execution,
	type N8nInstance,
	type PackedPackage,
	type WorkflowJson,
} from './harness';

const WORKFLOWS: Record<string, string> = {
	agent: 'chat-model-agent.json',
	agentResponses: 'chat-model-agent-responses.json',
	video: 'chat-model-video.json',
	chain: 'chat-model-chain.json',
	extractor: 'chat-model-extractor.json',
	streaming: 'chat-model-streaming.json',
};

const workflowId = (key: string): string => `chatmodel${key}`.slice(0, 16);

function workflows(): WorkflowJson[] {
	return Object.entries(WORKFLOWS).map(([key, file]) =>
		loadWorkflow(join(__dirname, 'workflows', file), workflowId(key)),
	);
}

let sim: Simulator;
let packDir: string;
let gatewayPackage: PackedPackage;

beforeAll(async () => {
	sim = await startSimulator({ queuedMs: 50, runningMs: 100 });
	packDir = mkdtempSync(join(process.env.MG_E2E_RUN_DIR ?? tmpdir(), 'mg-e2e-pack-'));
	gatewayPackage = await packPackage(packDir);
});

afterAll(async () => {
	await sim?.close();
	if (packDir) rmSync(packDir, { recursive: true, force: true });
});

const modelRequests = () => sim.requestsTo('POST', /^\/v1\/(chat\/completions|responses)$/);

/** Every error text n8n kept for an execution, for checks that the key appears nowhere. */
const everything = (execution: Execution): string => JSON.stringify(execution);

describe.each(N8N_LINES.filter((line) => line === 2))('n8n line %s.x: the AI nodes on the gateway', (line) => {
	let n8n: N8nInstance | undefined;

	beforeAll(async () => {
		n8n = await startN8n({
			line,
			packages: [gatewayPackage.tarball],
			credentials: simulatorCredentials(sim),
			workflows: workflows(),
		});
	});

	afterAll(async () => {
		await n8n?.stop();
	});

	beforeEach(() => sim.reset());

	function running(): N8nInstance {
		if (!n8n) throw new Error('n8n did not start');
		return n8n;
	}

	test('an AI Agent with memory and a tool: the model calls the tool, answers with its result, and remembers the first turn', async () => {
		const first = await running().runManualWorkflow(workflowId('agent'));
		console.log(JSON.stringify(first.execution).slice(0, 6000));
		expect(first.execution.status).toBe('success');
		const [answer] = nodeOutput(first.execution, 'AI Agent');
		expect(String(answer.output)).toContain('Echo: What is the weather in Paris?');
		console.log(JSON.stringify(modelRequests().map((r) => r.body)));
	});
});

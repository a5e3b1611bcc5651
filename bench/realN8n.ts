/**
 * The side-by-side chat comparison in real n8n (the cached 1.x install the end-to-end suite
 * uses): this package packed and installed as a community package, its credential and the
 * workflows imported through n8n's CLI, each workflow run from its manual trigger. A Code
 * node makes the items; the node under test is timed by the `executionTime` n8n records in
 * the execution's run data, so n8n's start-up of the execution and the Code node do not count.
 */
import { existsSync, mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { MAX_CONCURRENCY } from '../nodes/shared/items/items';
import { EXAMPLE_CREDENTIALS, simulatorCredentials } from '../test/e2e/examples';
import type { N8nInstance, WorkflowJson, Execution, JsonObject } from '../test/e2e/harness';
import { N8N_VERSIONS, findInstallation, packPackage, startN8n } from '../test/e2e/harness';
import type { Simulator } from '../test/simulator';

export interface RealN8nSettings {
	items: number;
	singleItems: number;
	latencyMs: number;
	repeats: number;
	concurrency: number;
}

export interface Contender {
	label: string;
	workflowId: string;
	items: number;
	content: (json: JsonObject) => unknown;
}

const NODE_UNDER_TEST = 'Node Under Test';

/** Why the real-n8n part cannot run here, or undefined when it can. */
export function realN8nUnavailable(): string | undefined {
	try {
		findInstallation(1);
	} catch (error) {
		return (error as Error).message;
	}
	return undefined;
}

function workflow(id: string, items: number, node: JsonObject): WorkflowJson {
	const trigger = 'When clicking ‘Execute workflow’';
	const code = 'Make Items';
	return {
		id,
		name: `bench: ${id}`,
		nodes: [
			{
				id: `${id}-1`,
				name: trigger,
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: `${id}-2`,
				name: code,
				type: 'n8n-nodes-base.code',
				typeVersion: 2,
				position: [220, 0],
				parameters: {
					jsCode: `return Array.from({ length: ${items} }, (_, row) => ({ json: { question: 'Question number ' + row } }));`,
				},
			},
			{
				id: `${id}-3`,
				name: NODE_UNDER_TEST,
				position: [440, 0],
				credentials: {
					modelGatewayApi: {
						id: EXAMPLE_CREDENTIALS.gateway.id,
						name: EXAMPLE_CREDENTIALS.gateway.name,
					},
				},
				...node,
			},
		],
		connections: {
			[trigger]: { main: [[{ node: code, type: 'main', index: 0 }]] },
			[code]: { main: [[{ node: NODE_UNDER_TEST, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	} as WorkflowJson;
}

function chatNode(concurrency: number): JsonObject {
	return {
		type: 'n8n-nodes-model-gateway.modelGatewayChat',
		typeVersion: 1,
		parameters: {
			model: 'chat-model-1',
			messages: { values: [{ role: 'user', content: '={{ $json.question }}' }] },
			options: { concurrency },
		},
	};
}

function httpRequestNode(url: string, batchSize: number): JsonObject {
	return {
		type: 'n8n-nodes-base.httpRequest',
		typeVersion: 4.2,
		parameters: {
			method: 'POST',
			url,
			authentication: 'predefinedCredentialType',
			nodeCredentialType: 'modelGatewayApi',
			sendBody: true,
			specifyBody: 'json',
			jsonBody:
				'={{ JSON.stringify({ model: "chat-model-1", messages: [{ role: "user", content: $json.question }] }) }}',
			options: { batching: { batch: { batchSize, batchInterval: 0 } } },
		},
	};
}

const chatContent = (json: JsonObject) => json.content;
const httpContent = (json: JsonObject) => {
	const [choice] = json.choices as JsonObject[];
	return (choice.message as JsonObject).content;
};

export interface RealN8nRun {
	n8n: N8nInstance;
	contenders: { chat: Contender; http: Contender; single: Contender; max: Contender };
	stop(): Promise<void>;
}

/** Packs the (built) package, starts n8n 1.x with it and imports the benchmark workflows. */
export async function startRealN8n(
	simulator: Simulator,
	settings: RealN8nSettings,
	env: Record<string, string> = {},
): Promise<RealN8nRun> {
	const packDir = mkdtempSync(join(tmpdir(), 'mg-bench-pack-'));
	const packed = await packPackage(packDir);
	const url = `${simulator.baseUrl}/v1/chat/completions`;
	const contenders = {
		chat: {
			label: `Model Gateway Chat, ${settings.concurrency} items in flight`,
			workflowId: 'benchChatMany001',
			items: settings.items,
			content: chatContent,
		},
		http: {
			label: `n8n HTTP Request node, batch size ${settings.concurrency}, interval 0`,
			workflowId: 'benchHttpMany001',
			items: settings.items,
			content: httpContent,
		},
		max: {
			label: `Model Gateway Chat, ${MAX_CONCURRENCY} items in flight`,
			workflowId: 'benchChatMax0001',
			items: settings.items,
			content: chatContent,
		},
		single: {
			label: 'Model Gateway Chat, 1 item in flight',
			workflowId: 'benchChatOne0001',
			items: settings.singleItems,
			content: chatContent,
		},
	};
	const n8n = await startN8n({
		line: 1,
		packages: [packed.tarball],
		credentials: simulatorCredentials(simulator),
		workflows: [
			workflow(contenders.chat.workflowId, settings.items, chatNode(settings.concurrency)),
			workflow(
				contenders.http.workflowId,
				settings.items,
				httpRequestNode(url, settings.concurrency),
			),
			workflow(contenders.single.workflowId, settings.singleItems, chatNode(1)),
			workflow(contenders.max.workflowId, settings.items, chatNode(MAX_CONCURRENCY)),
		],
		env: { N8N_LOG_LEVEL: 'warn', ...env },
	});
	return {
		n8n,
		contenders,
		stop: async () => {
			await n8n.stop();
			if (existsSync(packDir)) rmSync(packDir, { recursive: true, force: true });
		},
	};
}

/** Runs one contender's workflow once; returns the node's items per second after checking every answer. */
export async function runContender(
	n8n: N8nInstance,
	simulator: Simulator,
	contender: Contender,
): Promise<number> {
	simulator.reset();
	const { execution } = await n8n.runManualWorkflow(contender.workflowId);
	const run = nodeRun(execution);
	const items = run.data?.main?.[0] ?? [];
	const sent = simulator.requestsTo('POST', '/v1/chat/completions').length;
	const correct = items.every(
		(item, row) => contender.content(item.json) === `Echo: Question number ${row}`,
	);
	if (run.error || items.length !== contender.items || sent !== contender.items || !correct) {
		throw new Error(
			`${contender.label}: wrong output (${run.error?.message ?? 'no error'}; ${items.length} items, ${sent} requests)`,
		);
	}
	return contender.items / (run.executionTime / 1000);
}

function nodeRun(execution: Execution) {
	const runs = execution.data?.resultData.runData[NODE_UNDER_TEST];
	const run = runs?.[runs.length - 1] as
		| (NonNullable<typeof runs>[number] & { executionTime: number })
		| undefined;
	if (!run) {
		throw new Error(
			`execution ${execution.id} (${execution.status}) has no run of "${NODE_UNDER_TEST}": ${execution.data?.resultData.error?.message ?? ''}`,
		);
	}
	return run;
}

export const REAL_N8N_VERSION = N8N_VERSIONS[1];

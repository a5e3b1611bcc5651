/**
 * The per-item nodes side by side in real n8n (a cached install of the end-to-end suite): this
 * package and a benchmark-only floor package (bench/floor-package) packed and installed as
 * community packages, the credential and the workflows imported through n8n's CLI, each
 * workflow run from its manual trigger. A Code node makes the items; the node under test is
 * timed by the `executionTime` n8n records in the execution's run data, so n8n's start-up of the
 * execution and the Code node do not count.
 */
import { existsSync, mkdtempSync, rmSync } from 'fs';
import { join } from 'path';
import { tmpdir } from 'os';

import { EXAMPLE_CREDENTIALS, simulatorCredentials } from '../test/e2e/examples';
import type {
	Execution,
	JsonObject,
	N8nInstance,
	N8nLine,
	WorkflowJson,
} from '../test/e2e/harness';
import { N8N_VERSIONS, findInstallation, packPackage, startN8n } from '../test/e2e/harness';
import type { Simulator } from '../test/simulator';

/** What a contender's workflow does per item; each kind has its own check of the answer. */
export type ContenderKind =
	| 'chat'
	| 'responses'
	| 'videoCreate'
	| 'httpRequest'
	| 'floorChat'
	| 'floorResponses'
	| 'floorVideo'
	| 'noOp';

/** Each floor contender's route in the floor package, and the node of ours it stands next to. */
export const FLOOR_OF: Record<'chat' | 'responses' | 'videoCreate', ContenderKind> = {
	chat: 'floorChat',
	responses: 'floorResponses',
	videoCreate: 'floorVideo',
};
const FLOOR_ROUTE: Partial<Record<ContenderKind, string>> = {
	floorChat: 'chat',
	floorResponses: 'responses',
	floorVideo: 'video',
};

export interface Contender {
	label: string;
	kind: ContenderKind;
	workflowId: string;
	items: number;
	/** Items in flight (for n8n's HTTP Request node: its batch size, interval 0). */
	concurrency: number;
}

/** The gateway route each kind calls once per item, or undefined for one that calls nothing. */
const ROUTE: Record<ContenderKind, string | undefined> = {
	chat: '/v1/chat/completions',
	responses: '/v1/responses',
	videoCreate: '/v1/videos',
	httpRequest: '/v1/chat/completions',
	floorChat: '/v1/chat/completions',
	floorResponses: '/v1/responses',
	floorVideo: '/v1/videos',
	noOp: undefined,
};

const NODE_UNDER_TEST = 'Node Under Test';
const FLOOR_PACKAGE_DIR = join(__dirname, '..', '..', 'bench', 'floor-package');

/** Why the real-n8n part cannot run on a line here, or undefined when it can. */
export function realN8nUnavailable(line: N8nLine): string | undefined {
	try {
		findInstallation(line);
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

/** The node under test of a contender, as workflow JSON. */
function nodeOf(contender: Contender, simulator: Simulator): JsonObject {
	const { concurrency } = contender;
	const ours = (name: string, parameters: JsonObject): JsonObject => ({
		type: `n8n-nodes-model-gateway.${name}`,
		typeVersion: 1,
		parameters,
	});
	switch (contender.kind) {
		case 'chat':
			return ours('modelGatewayChat', {
				model: 'chat-model-1',
				messages: { values: [{ role: 'user', content: '={{ $json.question }}' }] },
				options: { concurrency },
			});
		case 'responses':
			return ours('modelGatewayResponses', {
				model: 'chat-model-1',
				input: '={{ $json.question }}',
				options: { concurrency },
			});
		case 'videoCreate':
			return ours('modelGatewayVideo', {
				family: 'generic',
				operation: 'create',
				model: 'video-model-1',
				genericPrompt: '={{ $json.question }}',
				options: { concurrency },
			});
		case 'httpRequest':
			return {
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				parameters: {
					method: 'POST',
					url: `${simulator.baseUrl}/v1/chat/completions`,
					authentication: 'predefinedCredentialType',
					nodeCredentialType: 'modelGatewayApi',
					sendBody: true,
					specifyBody: 'json',
					jsonBody:
						'={{ JSON.stringify({ model: "chat-model-1", messages: [{ role: "user", content: $json.question }] }) }}',
					options: { batching: { batch: { batchSize: concurrency, batchInterval: 0 } } },
				},
			};
		case 'floorChat':
		case 'floorResponses':
		case 'floorVideo':
			return {
				type: 'n8n-nodes-bench-floor.benchBareRequest',
				typeVersion: 1,
				parameters: {
					baseUrl: simulator.baseUrl,
					route: FLOOR_ROUTE[contender.kind] as string,
					apiKey: simulator.apiKey,
					model: contender.kind === 'floorVideo' ? 'video-model-1' : 'chat-model-1',
					concurrency,
				},
			};
		case 'noOp':
			return { type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {} };
	}
}

/** Whether an output item is the right answer for its row. */
function answered(kind: ContenderKind, json: JsonObject, row: number): boolean {
	const echo = `Echo: Question number ${row}`;
	switch (kind) {
		case 'chat':
		case 'floorChat':
			return json.content === echo;
		case 'responses':
		case 'floorResponses':
			return json.outputText === echo;
		case 'videoCreate':
			return typeof json.taskId === 'string' && json.taskId !== '' && json.family === 'generic';
		case 'floorVideo':
			return typeof json.taskId === 'string' && json.taskId !== '';
		case 'httpRequest': {
			const [choice] = json.choices as JsonObject[];
			return (choice.message as JsonObject).content === echo;
		}
		case 'noOp':
			return json.question === `Question number ${row}`;
	}
}

export interface RealN8nRun {
	n8n: N8nInstance;
	stop(): Promise<void>;
}

/** Packs the (built) package and the floor package, starts n8n with them and imports the workflows. */
export async function startRealN8n(
	simulator: Simulator,
	line: N8nLine,
	contenders: Contender[],
	env: Record<string, string> = {},
): Promise<RealN8nRun> {
	const packDir = mkdtempSync(join(tmpdir(), 'mg-bench-pack-'));
	const packed = await packPackage(packDir);
	const floor = await packPackage(packDir, FLOOR_PACKAGE_DIR);
	const n8n = await startN8n({
		line,
		packages: [packed.tarball, floor.tarball],
		credentials: simulatorCredentials(simulator),
		workflows: contenders.map((contender) =>
			workflow(contender.workflowId, contender.items, nodeOf(contender, simulator)),
		),
		env: { N8N_LOG_LEVEL: 'warn', ...env },
	});
	return {
		n8n,
		stop: async () => {
			await n8n.stop();
			if (existsSync(packDir)) rmSync(packDir, { recursive: true, force: true });
		},
	};
}

/**
 * Runs one contender's workflow once and checks every answer; returns the node's executionTime
 * in milliseconds.
 */
export async function runContender(
	n8n: N8nInstance,
	simulator: Simulator,
	contender: Contender,
): Promise<number> {
	simulator.reset();
	const { execution } = await n8n.runManualWorkflow(contender.workflowId);
	const run = nodeRun(execution);
	const items = run.data?.main?.[0] ?? [];
	const route = ROUTE[contender.kind];
	const sent = route === undefined ? 0 : simulator.requestsTo('POST', route).length;
	const correct = items.every((item, row) => answered(contender.kind, item.json, row));
	const expectedRequests = route === undefined ? 0 : contender.items;
	if (run.error || items.length !== contender.items || sent !== expectedRequests || !correct) {
		throw new Error(
			`${contender.label}: wrong output (${run.error?.message ?? 'no error'}; ${items.length} items, ${sent} requests)`,
		);
	}
	return run.executionTime;
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

export { N8N_VERSIONS };

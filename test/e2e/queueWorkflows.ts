/**
 * The workflows of the queue-mode scenario (test/e2e/queueMode.e2e.test.ts).
 *
 * Create: a production webhook starts a batch of video tasks across families (Items in Flight
 * 4). Task family S and Family A tasks carry `callback_url` = the React workflow's trigger; the
 * generic tasks are waited for by Wait for Task in a Check Once loop through n8n's Wait node.
 *
 * React: Task Callback Trigger → a Postgres claim (INSERT … ON CONFLICT DO NOTHING, the
 * exactly-once step) → Filter → Record Result. A second branch runs n8n's Remove Duplicates v2
 * (items processed in previous executions) only to measure what it lets through.
 *
 * Sweep: the tasks whose callback never came (lost on purpose by the balancer, or given up by
 * the gateway) → Wait for Task (Check Once and Route) → the same claim → Record Result.
 */
import type { JsonObject, WorkflowJson, WorkflowNode } from './harness';
import { EXAMPLE_CREDENTIALS } from './examples';

// n8n saves static data (the trigger's duplicate memory) only for ids of at most 16 characters.
export const CREATE_WORKFLOW_ID = 'mgQueueCreate001';
export const REACT_WORKFLOW_ID = 'mgQueueReact0001';
export const SWEEP_WORKFLOW_ID = 'mgQueueSweep0001';
/** The node of the sweeper whose code the test replaces with the tasks still without a result. */
export const SWEEP_PENDING_NODE = 'Tasks Without a Result';
export const START_PATH = 'mg-queue-batch';
const TRIGGER_WEBHOOK_ID = '4a0f6c2e-9b1d-4e7a-8c3f-5d2b1e0a9c71';
const TRIGGER_SECRET = 'queue-e2e-7c1f9a3b5d20';
export const TRIGGER_PATH = `${TRIGGER_WEBHOOK_ID}/${TRIGGER_SECRET}`;

export const POSTGRES_CREDENTIAL = { id: 'mgQueuePostgres1', name: 'Queue Postgres' } as const;
/** Where the claim step records each event it let through; the test creates it. */
export const CLAIM_TABLE_SQL =
	'CREATE TABLE IF NOT EXISTS mg_task_events (event_key text PRIMARY KEY, execution_id text NOT NULL, claimed_at timestamptz NOT NULL DEFAULT now())';

export const BATCH = { taskS: 70, familyA: 70, generic: 60 } as const;
export const BATCH_SIZE = BATCH.taskS + BATCH.familyA + BATCH.generic;

const gateway = {
	modelGatewayApi: { id: EXAMPLE_CREDENTIALS.gateway.id, name: EXAMPLE_CREDENTIALS.gateway.name },
};
// Items in Flight: 2 creates at a time (each S and A create is answered by a callback at once).
const CONCURRENCY = { concurrency: 2 };

let position = 0;
function node(
	name: string,
	type: string,
	typeVersion: number,
	parameters: JsonObject,
	extra: JsonObject = {},
): WorkflowNode {
	position += 220;
	return { name, type, typeVersion, position: [position, 0], parameters, ...extra };
}

function connect(pairs: Array<[from: string, output: number, to: string]>): JsonObject {
	const connections: Record<string, { main: Array<Array<JsonObject>> }> = {};
	for (const [from, output, to] of pairs) {
		const main = (connections[from] ??= { main: [] }).main;
		while (main.length <= output) main.push([]);
		main[output].push({ node: to, type: 'main', index: 0 });
	}
	return connections as unknown as JsonObject;
}

/**
 * The exactly-once step: the database decides atomically which execution claims an event
 * (family:taskId:status), whichever way it came (a callback or the sweeper); a Filter lets only
 * the claiming execution go on.
 */
function claimOnce(): WorkflowNode[] {
	return [
		node(
			'Claim Once',
			'n8n-nodes-base.postgres',
			2.5,
			{
				operation: 'executeQuery',
				query:
					'WITH claim AS (INSERT INTO mg_task_events (event_key, execution_id) VALUES ($1, $2) ON CONFLICT (event_key) DO NOTHING RETURNING 1) SELECT count(*) = 1 AS claimed FROM claim',
				options: {
					queryReplacement:
						"={{ [$json.family + ':' + $json.taskId + ':' + $json.status, $execution.id] }}",
				},
			},
			{ credentials: { postgres: POSTGRES_CREDENTIAL } },
		),
		node('First Claim Only', 'n8n-nodes-base.filter', 2.2, {
			conditions: {
				options: { caseSensitive: true, leftValue: '', typeValidation: 'strict', version: 2 },
				conditions: [
					{
						id: 'b3c1f0e2-7a4d-4c59-9e1b-2f6d8a0c5e13',
						leftValue: '={{ $json.claimed }}',
						rightValue: '',
						operator: { type: 'boolean', operation: 'true', singleValue: true },
					},
				],
				combinator: 'and',
			},
			options: {},
		}),
	];
}

/** The task's fields, as the node `source` put them out, recorded once claimed. */
function recordResult(source: string): WorkflowNode {
	return node('Record Result', 'n8n-nodes-base.set', 3.4, {
		mode: 'manual',
		assignments: {
			assignments: ['family', 'taskId', 'status', 'videoUrl'].map((name, index) => ({
				id: `5e0c7a1d-2b3f-4c6e-9a8d-1f0b2c3d4e5${index}`,
				name,
				value: `={{ $('${source}').item.json.${name} }}`,
				type: 'string',
			})),
		},
		includeOtherFields: false,
		options: {},
	});
}

/** `callbackBase`: the URL the simulator calls back on (a load balancer or n8n itself). */
export function createWorkflow(callbackBase: string): WorkflowJson {
	const callbackUrl = `${callbackBase}/webhook/${TRIGGER_PATH}`;
	const rows = `const plan = ${JSON.stringify(BATCH)};
const rows = [];
for (const [family, count] of Object.entries(plan))
	for (let index = 1; index <= count; index++)
		rows.push({ json: { family, row: rows.length + 1, prompt: \`Queue video \${rows.length + 1} (\${family})\` } });
return rows;`;
	return {
		id: CREATE_WORKFLOW_ID,
		name: 'Queue mode: create 200 videos',
		nodes: [
			node(
				'Start Batch',
				'n8n-nodes-base.webhook',
				2,
				{ httpMethod: 'POST', path: START_PATH, responseMode: 'onReceived', options: {} },
				{ webhookId: '0d5e7c1a-3f2b-4b9e-a6d1-8c4f2e9b7a30' },
			),
			node('Tasks', 'n8n-nodes-base.code', 2, { jsCode: rows }),
			node('By Family', 'n8n-nodes-base.switch', 3, {
				mode: 'expression',
				numberOutputs: 3,
				output: '={{ ({ taskS: 0, familyA: 1 })[$json.family] ?? 2 }}',
			}),
			node(
				'Create S',
				'n8n-nodes-model-gateway.modelGatewayVideo',
				1,
				{
					family: 'taskS',
					operation: 'create',
					model: 'seedance-video-1',
					taskSContent: { items: [{ type: 'text', text: '={{ $json.prompt }}' }] },
					taskSOptions: { callback_url: callbackUrl },
					options: CONCURRENCY,
				},
				{ credentials: gateway },
			),
			node(
				'Create A',
				'n8n-nodes-model-gateway.modelGatewayVideo',
				1,
				{
					family: 'familyA',
					operation: 'create',
					model: 'kling-video-2',
					familyAEndpoint: 'omni-video',
					familyAPrompt: '={{ $json.prompt }}',
					familyAOptions: {
						mode: 'std',
						duration: 5,
						aspect_ratio: '16:9',
						callback_url: callbackUrl,
					},
					options: CONCURRENCY,
				},
				{ credentials: gateway },
			),
			node(
				'Create Generic',
				'n8n-nodes-model-gateway.modelGatewayVideo',
				1,
				{
					family: 'generic',
					operation: 'create',
					model: 'video-model-1',
					genericPrompt: '={{ $json.prompt }}',
					genericOptions: { duration: 6, size: '768p' },
					options: CONCURRENCY,
				},
				{ credentials: gateway },
			),
			node(
				'Check Once',
				'n8n-nodes-model-gateway.modelGatewayWaitForTask',
				1,
				{ mode: 'checkOnce', options: CONCURRENCY },
				{ credentials: gateway },
			),
			node('Wait Until Next Check', 'n8n-nodes-base.wait', 1.1, {
				amount: '={{ $json.nextCheckInSeconds }}',
				unit: 'seconds',
			}),
			node('Polled Done', 'n8n-nodes-base.noOp', 1, {}),
			node('Polled Failed or Timed Out', 'n8n-nodes-base.noOp', 1, {}),
		],
		connections: connect([
			['Start Batch', 0, 'Tasks'],
			['Tasks', 0, 'By Family'],
			['By Family', 0, 'Create S'],
			['By Family', 1, 'Create A'],
			['By Family', 2, 'Create Generic'],
			['Create Generic', 0, 'Check Once'],
			['Check Once', 0, 'Polled Done'],
			['Check Once', 1, 'Polled Failed or Timed Out'],
			['Check Once', 2, 'Polled Failed or Timed Out'],
			['Check Once', 3, 'Wait Until Next Check'],
			['Wait Until Next Check', 0, 'Check Once'],
		]),
		settings: { executionOrder: 'v1' },
	};
}

export function reactWorkflow(): WorkflowJson {
	return {
		id: REACT_WORKFLOW_ID,
		name: 'Queue mode: react to each finished video once',
		nodes: [
			node(
				'Video Finished',
				'n8n-nodes-model-gateway.modelGatewayTaskTrigger',
				2,
				{ secret: TRIGGER_SECRET, events: 'final' },
				{ webhookId: TRIGGER_WEBHOOK_ID },
			),
			...claimOnce(),
			recordResult('Video Finished'),
			// Measured only: concurrent executions make it fail (a unique-key error while it records
			// the key), so its error goes to an output and the execution still succeeds.
			node(
				'Remove Duplicates',
				'n8n-nodes-base.removeDuplicates',
				2,
				{
					operation: 'removeItemsSeenInPreviousExecutions',
					logic: 'removeItemsWithAlreadySeenKeyValues',
					dedupeValue: '={{ $json.family }}:{{ $json.taskId }}:{{ $json.status }}',
					options: {},
				},
				{ onError: 'continueErrorOutput' },
			),
			node('Passed Remove Duplicates', 'n8n-nodes-base.noOp', 1, {}),
			node('Remove Duplicates Failed', 'n8n-nodes-base.noOp', 1, {}),
		],
		connections: connect([
			['Video Finished', 0, 'Claim Once'],
			['Video Finished', 0, 'Remove Duplicates'],
			['Claim Once', 0, 'First Claim Only'],
			['First Claim Only', 0, 'Record Result'],
			['Remove Duplicates', 0, 'Passed Remove Duplicates'],
			['Remove Duplicates', 1, 'Remove Duplicates Failed'],
		]),
		settings: { executionOrder: 'v1' },
	};
}

/**
 * The sweeper for callbacks that never came (examples/task-callback-sweeper.json's shape):
 * the tasks still without a result → Wait for Task (Check Once and Route) → the same claim as
 * the react workflow, so a task that arrives both ways is recorded once.
 */
export function sweepWorkflow(): WorkflowJson {
	return {
		id: SWEEP_WORKFLOW_ID,
		name: 'Queue mode: sweep tasks whose callback never came',
		nodes: [
			node('Sweep Now', 'n8n-nodes-base.manualTrigger', 1, {}),
			node(SWEEP_PENDING_NODE, 'n8n-nodes-base.code', 2, { jsCode: 'return [];' }),
			node(
				'Check Tasks',
				'n8n-nodes-model-gateway.modelGatewayWaitForTask',
				1,
				{ mode: 'checkOnce', options: CONCURRENCY },
				{ credentials: gateway },
			),
			...claimOnce(),
			recordResult('Check Tasks'),
		],
		connections: connect([
			['Sweep Now', 0, SWEEP_PENDING_NODE],
			[SWEEP_PENDING_NODE, 0, 'Check Tasks'],
			['Check Tasks', 0, 'Claim Once'],
			['Claim Once', 0, 'First Claim Only'],
			['First Claim Only', 0, 'Record Result'],
		]),
		settings: { executionOrder: 'v1' },
	};
}

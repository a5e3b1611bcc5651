import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Fault } from '../simulator';
import type { RunResult } from './harness';
import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';
import { videoNode } from './videoNode';

/**
 * Issue 39 beyond the text APIs: every answer the transport hands on must carry what a success
 * of its endpoint carries. An HTTP 200 error body (no task id, no task record, no review
 * result) was, for a video create, an error that printed the whole body with the API key in
 * it; for a task query, a task with status `unknown` (Wait for Task kept polling at its regular
 * pace); for asset review, a finished review of nothing. Each now fails with the gateway's own
 * message, its code and the X-Trace-ID, the secret redacted, the request sent once.
 */

// Tasks stay running for an hour: every successful check finds them unfinished.
const gateway = useSimulator({ queuedMs: 0, runningMs: 3_600_000 });

const NODE = 'Node Under Test';
const TRACE_ID = 'trace-issue-39-tasks';
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

/** The gateway's error inside HTTP 200, echoing the caller's secret. */
const errorBody = (secret: string) => ({
	error: {
		message: `The video upstream is overloaded (request made with ${secret})`,
		type: 'server_error',
		code: 'upstream_overloaded',
	},
});
const REDACTED_MESSAGE = 'The video upstream is overloaded (request made with ***)';

const answer200 = (method: 'GET' | 'POST', path: string, body: unknown): Fault => ({
	method,
	path,
	kind: 'status',
	status: 200,
	body,
});

interface Family {
	family: string;
	createPath: string;
	create: IDataObject;
	/** What a create answer without its task id lacks. */
	createLacks: string;
	queryPath: string;
	/** Get Status of a task defined by hand. */
	reference: IDataObject;
	/** What a query answer without a task record lacks. */
	queryLacks: string;
}

/** Generic video, Family B and C: created each their own way, queried as generic video tasks. */
const videoRecordFamily = (family: string, createPath: string, prompt: IDataObject): Family => ({
	family,
	createPath,
	create: { model: `${family}-1`, ...prompt },
	createLacks: 'the create answer has no "id" or "task_id"',
	queryPath: '/v1/videos/',
	reference: { taskSource: 'manual', taskId: `${family}-task-1` },
	queryLacks: 'the task record has no "id", "task_id", "status" or "state"',
});

const families: Family[] = [
	{
		family: 'taskS',
		createPath: '/v1/task/create',
		create: { model: 's-1', taskSContent: { items: [{ type: 'text', text: 'a fox' }] } },
		createLacks: 'the create answer has no "id"',
		queryPath: '/v1/task/get/',
		// Created an hour ago: the first query of Task family S is allowed after 10 minutes.
		reference: { taskSource: 'manual', taskId: 'cgt-1', createdAt: ago(3_600_000) },
		queryLacks: 'the task record has no "id" or "status"',
	},
	{
		family: 'familyA',
		createPath: '/vendor-a/v1/videos/omni-video',
		create: { model: 'a-1', familyAPrompt: 'a fox', familyAOptions: { aspect_ratio: '16:9' } },
		createLacks: 'the create answer has no "task_id"',
		queryPath: '/vendor-a/v1/videos/omni-video/',
		reference: { taskSource: 'manual', taskId: 'a-1' },
		queryLacks: 'the task record has no "task_id" or "task_status"',
	},
	videoRecordFamily('generic', '/v1/videos', { genericPrompt: 'a fox' }),
	videoRecordFamily('familyB', '/vendor-b/v1/video/generations', { familyBPrompt: 'a fox' }),
	videoRecordFamily('familyC', '/vendor-c/ent/v2/reference2video', { familyCPrompt: 'a fox' }),
	{
		family: 'longRunning',
		createPath: '/v1beta/models/veo-x:predictLongRunning',
		create: { model: 'veo-x', longRunningInstances: { instances: [{ prompt: 'a fox' }] } },
		createLacks: 'the create answer has no "name"',
		queryPath: '/v1/models/veo-x/operations/',
		reference: { taskSource: 'manual', taskId: 'models/veo-x/operations/op-1' },
		queryLacks: 'the task record has no "name" or "done"',
	},
];

const withTrace = (parameters: IDataObject) => ({ ...parameters, options: { traceId: TRACE_ID } });

/** The node failed with `message`, the description naming the request, `code` and the trace id. */
function expectFailure(
	result: RunResult & { items: unknown[] },
	request: string,
	code: string,
	message: string,
): void {
	const error = result.error(NODE);
	expect(result.items).toEqual([]);
	expect(error?.name).toBe('NodeApiError');
	expect(error?.message).toBe(message);
	expect(error?.description).toBe(
		`${request} answered HTTP 200 with error code ${code} (X-Trace-ID ${TRACE_ID})`,
	);
}

describe.each(families)('Video, $family', (family) => {
	it('a normal create still starts its task', async () => {
		const result = await runNode(videoNode(family.family, 'create', withTrace(family.create)), {
			credentials: gateway.credentials(),
		});
		expect(result.error(NODE)).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ family: family.family, traceId: TRACE_ID });
		expect(result.items[0].json.taskId).toEqual(expect.any(String));
	});

	it("a create answered with an error body fails with the gateway's message and the trace id, key redacted, sent once", async () => {
		const key = gateway.simulator.apiKey;
		gateway.simulator.injectFault(answer200('POST', family.createPath, errorBody(key)));
		const result = await runNode(videoNode(family.family, 'create', withTrace(family.create)), {
			credentials: gateway.credentials(),
		});
		expectFailure(result, `POST ${family.createPath}`, 'upstream_overloaded', REDACTED_MESSAGE);
		expect(JSON.stringify(result.run.data)).not.toContain(key);
		const requests = gateway.simulator.requestsTo('POST', family.createPath);
		expect(requests).toHaveLength(1);
		expect(requests[0].headers['x-trace-id']).toBe(TRACE_ID);
	});

	it('a create answered without a task id fails, naming what is missing', async () => {
		gateway.simulator.injectFault(answer200('POST', family.createPath, { created: 1 }));
		const result = await runNode(videoNode(family.family, 'create', withTrace(family.create)), {
			credentials: gateway.credentials(),
		});
		expectFailure(
			result,
			`POST ${family.createPath}`,
			'NO_ANSWER',
			`The gateway answered without a task: ${family.createLacks}`,
		);
	});

	it("Get Status answered with an error body fails with the gateway's message and the trace id, key redacted", async () => {
		const key = gateway.simulator.apiKey;
		gateway.simulator.injectFault(answer200('GET', family.queryPath, errorBody(key)));
		const result = await runNode(
			videoNode(family.family, 'getStatus', withTrace(family.reference)),
			{ credentials: gateway.credentials() },
		);
		const [query] = gateway.simulator.requestsTo('GET', family.queryPath);
		expectFailure(result, `GET ${query.path}`, 'upstream_overloaded', REDACTED_MESSAGE);
		expect(JSON.stringify(result.run.data)).not.toContain(key);
	});

	it('Get Status answered without a task record fails, naming what is missing', async () => {
		gateway.simulator.injectFault(answer200('GET', family.queryPath, {}));
		const result = await runNode(
			// Another task: this process queries one Task family S task at most once a minute.
			videoNode(
				family.family,
				'getStatus',
				withTrace({ ...family.reference, taskId: `${String(family.reference.taskId)}-2` }),
			),
			{ credentials: gateway.credentials() },
		);
		const [query] = gateway.simulator.requestsTo('GET', family.queryPath);
		expectFailure(
			result,
			`GET ${query.path}`,
			'NO_ANSWER',
			`The gateway answered without a task: ${family.queryLacks}`,
		);
	});
});

describe('Wait for Task: a query answered with an error body inside HTTP 200', () => {
	function stillRunning(result: RunResult): { task: IDataObject; gapSeconds: number } {
		const runs = result.run.data.resultData.runData[NODE];
		const outputs: INodeExecutionData[][] = (runs?.[runs.length - 1]?.data?.main ?? []).map(
			(output) => output ?? [],
		);
		expect(outputs.map((output) => output.length)).toEqual([0, 0, 0, 1]);
		const [task] = outputs[3][0].json.pendingTasks as IDataObject[];
		const gapMs = Date.parse(String(task.nextCheckAt)) - Date.parse(String(task.lastCheckedAt));
		return { task, gapSeconds: Math.round(gapMs / 1000) };
	}

	it('is a failed check (the next one backs off), not a task that is still running', async () => {
		const created = await runNode(
			videoNode('generic', 'create', { model: 'g-1', genericPrompt: 'a fox' }),
			{
				credentials: gateway.credentials(),
				input: [{ json: {} }],
			},
		);
		const { raw: _raw, ...task }: IDataObject = {
			...created.items[0].json,
			createdAt: ago(60_000),
		};
		gateway.simulator.injectFault(answer200('GET', '/v1/videos/', errorBody('no key here')));
		const result = await runNode(
			{ type: 'modelGatewayWaitForTask', parameters: { mode: 'checkOnce', maxWaitMinutes: 60 } },
			{ credentials: gateway.credentials(), input: [{ json: task }] },
		);
		expect(result.error(NODE)).toBeUndefined();
		const { task: pending, gapSeconds } = stillRunning(result);
		expect(pending).toMatchObject({ taskId: task.taskId, polls: 1 });
		// Twice the regular 10 s, as after any failed check; an unknown status kept the 10 s.
		expect(gapSeconds).toBe(20);
	});
});

describe('Asset Review: an answer inside HTTP 200 that is no review result', () => {
	const REVIEW_PATH = '/api/overseas/asset/upload/sync';
	const reviewNode = {
		type: 'modelGatewayAssetReview',
		parameters: {
			urlSource: 'list',
			assetUrls: { values: [{ url: 'https://cdn.example/a.png' }] },
		},
	};
	/** The identity host takes no X-Trace-ID: the description names the request only. */
	const description = (code: string) =>
		`POST ${REVIEW_PATH} answered HTTP 200 with error code ${code}`;

	it('a normal review still arrives', async () => {
		const result = await runNode(reviewNode, { credentials: gateway.credentials() });
		expect(result.error(NODE)).toBeUndefined();
		expect(result.items[0].json).toMatchObject({ finished: true, assetCount: 1, passedCount: 1 });
	});

	it("an error body fails with the service's message, the token redacted, sent once", async () => {
		const token = gateway.simulator.accessToken;
		gateway.simulator.injectFault(answer200('POST', REVIEW_PATH, errorBody(token)));
		const result = await runNode(reviewNode, { credentials: gateway.credentials() });
		const error = result.error(NODE);
		expect(result.items).toEqual([]);
		expect(error?.message).toBe(REDACTED_MESSAGE);
		expect(error?.description).toBe(description('upstream_overloaded'));
		expect(JSON.stringify(result.run.data)).not.toContain(token);
		expect(gateway.simulator.requestsTo('POST', REVIEW_PATH)).toHaveLength(1);
	});

	it('an answer without any review field fails, naming what is missing', async () => {
		gateway.simulator.injectFault(answer200('POST', REVIEW_PATH, { hello: 'world' }));
		const result = await runNode(reviewNode, { credentials: gateway.credentials() });
		expect(result.items).toEqual([]);
		expect(result.error(NODE)?.message).toBe(
			'The identity host answered with something that is not an asset review result',
		);
		expect(result.error(NODE)?.description).toBe(description('NO_ANSWER'));
	});
});

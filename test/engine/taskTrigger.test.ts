import type { Simulator } from '../simulator';
import type { IDataObject } from 'n8n-workflow';

import { deriveCallbackSecret } from '../../nodes/shared/callbacks/callbackSecret';
import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';
import { videoNode } from './videoNode';
import { postCallback, startWebhookHarness, type WebhookHarness } from './webhookHarness';

const SECRET = 'test-secret-0123';

const taskSRecord = (status: string, extra: IDataObject = {}) => ({
	id: 'cgt-2026-s-1',
	model: 'video-s-1',
	status,
	created_at: 1795000000,
	updated_at: 1795000060,
	...extra,
});
const S_SUCCEEDED = taskSRecord('succeeded', {
	content: {
		video_url: 'https://cdn.example/s1.mp4',
		last_frame_url: 'https://cdn.example/s1.png',
	},
});
const familyARecord = (status: string) => ({
	task_id: 'a-task-7',
	task_status: status,
	task_status_msg: '',
	task_info: { external_task_id: 'row-7' },
	created_at: 1795000000000,
	updated_at: 1795000060000,
	task_result: {
		videos: status === 'succeed' ? [{ id: 'v0', url: 'https://cdn.example/a7.mp4' }] : [],
		images: null,
	},
});
const ASSET_REVIEW_RESULT = {
	code: 200,
	task_id: 'review-9',
	track_id: 'track-9',
	status: 'completed',
	message: '',
	error_message: '',
	result: {
		review_batch_id: 'batch-9',
		items: [
			{ asset_id: 'a1', source_url: 'https://img.example/ok.png', submit_review_status: 1 },
			{
				asset_id: 'a2',
				source_url: 'https://img.example/bad.png',
				submit_review_status: 2,
				error_code: 'CONTENT_VIOLATION',
				error_message: 'violence',
			},
		],
	},
};

let harness: WebhookHarness | undefined;
afterEach(async () => {
	await harness?.close();
	harness = undefined;
});

async function start(
	parameters: IDataObject = {},
	credentials?: IDataObject,
	typeVersion?: number,
) {
	harness = await startWebhookHarness({
		parameters: { secretLocation: 'path', secret: SECRET, ...parameters },
		credentials: credentials as never,
		typeVersion,
	});
	return harness;
}

async function post(body: unknown, headers?: Record<string, string>) {
	const result = await postCallback(harness!.url, body, headers);
	await harness!.settled();
	return result;
}

describe('payloads of each family start one execution with the normalized task', () => {
	test.each([
		['Task family S, bare', S_SUCCEEDED],
		['Task family S, enveloped', { code: 'success', message: '', data: S_SUCCEEDED }],
	])('%s', async (_name, body) => {
		await start();
		const answer = await post(body, { 'x-trace-id': 'trace-s-1', 'user-agent': 'gateway/1' });

		expect(answer).toEqual({
			status: 200,
			body: {
				received: true,
				family: 'taskS',
				taskId: 'cgt-2026-s-1',
				status: 'succeeded',
				started: true,
			},
		});
		expect(harness!.executions).toHaveLength(1);
		const [item] = harness!.executions[0];
		expect(item.json).toMatchObject({
			family: 'taskS',
			taskId: 'cgt-2026-s-1',
			model: 'video-s-1',
			status: 'succeeded',
			rawStatus: 'succeeded',
			done: true,
			videoUrl: 'https://cdn.example/s1.mp4',
			lastFrameUrl: 'https://cdn.example/s1.png',
			error: null,
			traceId: 'trace-s-1',
			confirmed: false,
			body,
		});
		expect(item.json.headers).toEqual({
			'content-type': 'application/json',
			'content-length': String(JSON.stringify(body).length),
			'user-agent': 'gateway/1',
			'x-trace-id': 'trace-s-1',
		});
		expect(typeof item.json.receivedAt).toBe('string');
		expect(item.json.query).toEqual({});
	});

	test.each([
		['Family A, bare', familyARecord('succeed')],
		['Family A, enveloped', { code: 0, message: '', data: familyARecord('succeed') }],
	])('%s', async (_name, body) => {
		await start();
		await post(body);

		expect(harness!.executions).toHaveLength(1);
		expect(harness!.executions[0][0].json).toMatchObject({
			family: 'familyA',
			taskId: 'a-task-7',
			status: 'succeeded',
			rawStatus: 'succeed',
			done: true,
			videoUrl: 'https://cdn.example/a7.mp4',
			body,
		});
	});

	test('asset review result', async () => {
		await start();
		await post(ASSET_REVIEW_RESULT);

		expect(harness!.executions[0][0].json).toMatchObject({
			family: 'assetReview',
			taskId: 'review-9',
			status: 'succeeded',
			rawStatus: 'completed',
			done: true,
			code: 200,
			trackId: 'track-9',
			reviewBatchId: 'batch-9',
			error: null,
			items: [
				{ assetId: 'a1', passed: true, submitReviewStatus: 1, errorCode: null },
				{
					assetId: 'a2',
					passed: false,
					submitReviewStatus: 2,
					errorCode: 'CONTENT_VIOLATION',
					errorMessage: 'violence',
				},
			],
		});
	});

	test('Family C and long-running records are read tolerantly', async () => {
		await start();
		await post({ id: 'c-1', state: 'success', creations: [{ url: 'https://cdn.example/c1.mp4' }] });
		await post({ name: 'models/veo/operations/op-1', done: false });
		await post({
			name: 'models/veo/operations/op-2',
			done: true,
			error: { code: 3, message: 'blocked' },
		});

		expect(harness!.executions.map(([item]) => [item.json.family, item.json.status])).toEqual([
			['familyC', 'succeeded'],
			['longRunning', 'failed'],
		]);
	});

	test('Detect From Payload reads a generic video record as one, not as a Task family S record', async () => {
		await start();
		const answer = await post({
			id: 'video_2',
			object: 'video',
			model: 'g-video',
			status: 'completed',
			progress: 100,
			video_url: 'https://cdn.example.com/video_2.mp4',
		});

		expect(answer.body).toMatchObject({ started: true, family: 'generic', status: 'succeeded' });
		expect(harness!.executions[0][0].json).toMatchObject({
			family: 'generic',
			taskId: 'video_2',
			status: 'succeeded',
			videoUrl: 'https://cdn.example.com/video_2.mp4',
		});
	});

	test('a forced family reads a record (a generic video record)', async () => {
		await start({ family: 'generic' });
		await post({ id: 'video_1', object: 'video', status: 'completed', progress: 100 });

		expect(harness!.executions[0][0].json).toMatchObject({
			family: 'generic',
			taskId: 'video_1',
			status: 'succeeded',
		});
	});
});

describe('secret', () => {
	test('the production URL carries the secret in its path', async () => {
		await start();
		expect(harness!.url).toMatch(new RegExp(`/webhook/[0-9a-f-]{36}/${SECRET}$`));
	});

	test('a wrong secret in the path does not reach the workflow (n8n answers 404)', async () => {
		await start();
		const answer = await postCallback(harness!.url.replace(SECRET, 'guess'), S_SUCCEEDED);
		expect(answer.status).toBe(404);
		expect(harness!.executions).toHaveLength(0);
	});

	test('query mode: missing secret → 401, wrong → 403, right (query or header) → started', async () => {
		await start({ secretLocation: 'query' });
		expect(harness!.url).toMatch(/\/callback$/);

		expect(await post(S_SUCCEEDED)).toEqual({
			status: 401,
			body: { received: false, reason: 'The callback secret is missing' },
		});
		expect(await postCallback(`${harness!.url}?secret=nope`, S_SUCCEEDED)).toEqual({
			status: 403,
			body: { received: false, reason: 'The callback secret is wrong' },
		});
		expect(harness!.executions).toHaveLength(0);
		expect(harness!.warnings.map((warning) => warning.message)).toEqual([
			'Model Gateway callback refused (401): The callback secret is missing',
			'Model Gateway callback refused (403): The callback secret is wrong',
		]);

		expect(
			(
				await postCallback(
					`${harness!.url}?secret=${SECRET}&row=17&row=18&batch=b%201`,
					S_SUCCEEDED,
				)
			).status,
		).toBe(200);
		expect(
			(await postCallback(harness!.url, familyARecord('succeed'), { 'x-callback-secret': SECRET }))
				.status,
		).toBe(200);
		await harness!.settled();
		expect(harness!.executions).toHaveLength(2);
		// What the URL carried reaches the workflow, the secret does not.
		expect(harness!.executions.map(([item]) => item.json.query)).toEqual([
			{ row: ['17', '18'], batch: 'b 1' },
			{},
		]);
	});

	test('up to version 2, the default secret is the node id, so every trigger has its own URL', async () => {
		harness = await startWebhookHarness({ parameters: {}, nodeId: 'node-id-42', typeVersion: 2 });
		expect(harness.url).toMatch(/\/node-id-42$/);
		expect((await post(S_SUCCEEDED)).status).toBe(200);
		expect(harness.executions).toHaveLength(1);
	});
});

describe('events, duplicates and order', () => {
	test('final events only (default): queued and running are answered, not started', async () => {
		await start();
		expect((await post(taskSRecord('queued'))).body).toEqual({
			received: true,
			family: 'taskS',
			taskId: 'cgt-2026-s-1',
			status: 'queued',
			started: false,
			dropped: 'notFinal',
		});
		await post(taskSRecord('running'));
		await post(S_SUCCEEDED);
		expect(harness!.executions.map(([item]) => item.json.status)).toEqual(['succeeded']);
	});

	test('final events only: unfinished events are not remembered, so the saved memory holds finals', async () => {
		await start();
		await post(taskSRecord('queued'));
		expect((await post(taskSRecord('queued'))).body.dropped).toBe('notFinal');
		await post(taskSRecord('running'));
		await post(S_SUCCEEDED);
		expect(harness!.savedStaticData()).toEqual({
			'node:Task Callback': {
				callbackMemory: { format: 2, tasks: ['["taskS:cgt-2026-s-1","succeeded"]'] },
			},
		});
		const late = await post(taskSRecord('running', { updated_at: 1795000030 }));
		expect([late.body.started, late.body.dropped]).toEqual([false, 'stale']);
		expect(harness!.executions.map(([item]) => item.json.status)).toEqual(['succeeded']);
	});

	test('every status change: each status once, in order', async () => {
		await start({ events: 'all' });
		await post(taskSRecord('queued'));
		await post(taskSRecord('running'));
		await post(S_SUCCEEDED);
		expect(harness!.executions.map(([item]) => item.json.status)).toEqual([
			'queued',
			'running',
			'succeeded',
		]);
	});

	test('duplicate final callbacks start exactly one execution', async () => {
		await start();
		const answers = [];
		for (let copy = 0; copy < 3; copy++) answers.push(await post(S_SUCCEEDED));

		expect(
			answers.map((answer) => [answer.status, answer.body.started, answer.body.dropped]),
		).toEqual([
			[200, true, undefined],
			[200, false, 'duplicate'],
			[200, false, 'duplicate'],
		]);
		expect(harness!.executions).toHaveLength(1);
		expect(harness!.savedStaticData()).toEqual({
			'node:Task Callback': {
				callbackMemory: { format: 2, tasks: ['["taskS:cgt-2026-s-1","succeeded"]'] },
			},
		});
	});

	test('ten copies of a final callback arriving together start exactly one execution', async () => {
		await start();
		// All ten read the same stored static data before any writes it back, as in n8n: only
		// the memory this process keeps can tell them apart.
		const answers = await Promise.all(Array.from({ length: 10 }, () => post(S_SUCCEEDED)));

		expect(answers.filter((answer) => answer.body.started === true)).toHaveLength(1);
		expect(answers.filter((answer) => answer.body.dropped === 'duplicate')).toHaveLength(9);
		await harness!.settled();
		expect(harness!.executions).toHaveLength(1);
	});

	test('a stale running after succeeded is dropped, even with every status change', async () => {
		await start({ events: 'all' });
		await post(taskSRecord('running'));
		await post(S_SUCCEEDED);
		const stale = await post(taskSRecord('running', { updated_at: 1795000030 }));
		const staleQueued = await post(taskSRecord('queued'));

		expect([stale.body.dropped, staleQueued.body.dropped]).toEqual(['duplicate', 'stale']);
		expect(harness!.executions.map(([item]) => item.json.status)).toEqual(['running', 'succeeded']);
	});

	test('the memory is bounded: the least recently heard-of task is forgotten first', async () => {
		await start({ options: { memoryCapacity: 10 } });
		for (let index = 0; index < 12; index++)
			await post(taskSRecord('succeeded', { id: `t${index}` }));
		const saved = (harness!.savedStaticData()['node:Task Callback'] as IDataObject)
			.callbackMemory as { tasks: string[] };
		expect(saved.tasks.map((task) => (JSON.parse(task) as string[])[0])).toEqual(
			Array.from({ length: 10 }, (_, index) => `taskS:t${index + 2}`),
		);
		// t0 was forgotten, so its late duplicate starts again: the documented cost of the bound.
		await post(taskSRecord('succeeded', { id: 't0' }));
		expect(harness!.executions).toHaveLength(13);
	});
});

// Version 1: n8n reads every body; version 2: n8n reads only the types it parses, the trigger the rest.
describe.each([1, 2])(
	'bad input is refused with a short reason, logged, and starts nothing (version %i)',
	(typeVersion) => {
		test.each([
			[
				'text',
				'text/plain',
				'not json at all',
				415,
				'The callback body is text/plain; this trigger accepts JSON (application/json)',
			],
			[
				'a form, even one that names a task',
				'application/x-www-form-urlencoded',
				'id=t1&status=succeeded',
				415,
				'The callback body is application/x-www-form-urlencoded; this trigger accepts JSON (application/json)',
			],
			[
				'empty body',
				'application/json',
				'',
				400,
				'The callback body is empty: a JSON object was expected',
			],
			['a JSON array', 'application/json', '[1,2]', 400, 'The callback body is not a JSON object'],
			[
				'an unknown shape',
				'application/json',
				'{"hello":"world"}',
				422,
				'The callback body is not a task record or asset review result this trigger knows',
			],
		])('%s', async (_name, contentType, text, status, reason) => {
			await start({}, undefined, typeVersion);
			const answer = await post(text, { 'content-type': contentType });
			expect(answer).toEqual({ status, body: { received: false, reason } });
			expect(harness!.executions).toHaveLength(0);
			expect(harness!.warnings).toHaveLength(1);
			expect(harness!.warnings[0].message).toBe(
				`Model Gateway callback refused (${status}): ${reason}`,
			);
		});

		test('JSON in a body without a content type is still read', async () => {
			await start({}, undefined, typeVersion);
			expect((await post(JSON.stringify(S_SUCCEEDED), { 'content-type': '' })).status).toBe(200);
			expect(harness!.executions).toHaveLength(1);
		});

		test('JSON declared as application/problem+json is read', async () => {
			await start({}, undefined, typeVersion);
			const answer = await post(JSON.stringify(S_SUCCEEDED), {
				'content-type': 'application/problem+json',
			});
			expect(answer.status).toBe(200);
			expect(harness!.executions[0][0].json).toMatchObject({
				taskId: 'cgt-2026-s-1',
				body: S_SUCCEEDED,
			});
		});

		test('an oversized body without a content type → 413', async () => {
			await start({ options: { maxBodyKb: 1 } }, undefined, typeVersion);
			const body = JSON.stringify(taskSRecord('succeeded', { padding: 'x'.repeat(2000) }));
			const answer = await post(body, { 'content-type': '' });
			expect(answer.status).toBe(413);
			expect(answer.body.reason).toMatch(/more than the 1024 bytes this trigger accepts/);
			expect(harness!.executions).toHaveLength(0);
		});

		test('an oversized body → 413', async () => {
			await start({ options: { maxBodyKb: 1 } }, undefined, typeVersion);
			const body = taskSRecord('succeeded', { padding: 'x'.repeat(2000) });
			const answer = await post(body);
			expect(answer.status).toBe(413);
			expect(answer.body.reason).toMatch(
				/^The callback body has \d+ bytes, more than the 1024 bytes/,
			);
			expect(harness!.executions).toHaveLength(0);
		});

		test('broken JSON sent as application/json is refused by n8n itself (422)', async () => {
			await start({}, undefined, typeVersion);
			expect((await post('{"id":', { 'content-type': 'application/json' })).status).toBe(422);
			expect(harness!.warnings).toHaveLength(0);
		});
	},
);

/** Waits (without a timer) until the simulator has sent `count` callbacks and each was answered. */
async function allCallbacksAnswered(simulator: Simulator, count: number) {
	const callbacks = simulator.callbacks;
	while (callbacks.length < count || callbacks.some((callback) => callback.status === undefined)) {
		await new Promise((resolve) => setImmediate(resolve));
	}
	return callbacks;
}

describe('confirm with the gateway', () => {
	const gateway = useSimulator({ queuedMs: 60_000, runningMs: 60_000 });

	async function createSTask(): Promise<string> {
		const response = await fetch(`${gateway.simulator.baseUrl}/v1/task/create`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${gateway.simulator.apiKey}`,
				'content-type': 'application/json',
			},
			body: JSON.stringify({ model: 'video-s-1', content: [{ type: 'text', text: 'a cat' }] }),
		});
		return ((await response.json()) as { id: string }).id;
	}

	async function createFamilyATask(): Promise<string> {
		const response = await fetch(`${gateway.simulator.baseUrl}/vendor-a/v1/videos/omni-video`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${gateway.simulator.apiKey}`,
				'content-type': 'application/json',
			},
			body: JSON.stringify({ model_name: 'a-video', prompt: 'a cat', aspect_ratio: '16:9' }),
		});
		return ((await response.json()) as { data: { task_id: string } }).data.task_id;
	}
	const forgedFamilyA = (taskId: string) => ({
		...familyARecord('succeed'),
		task_id: taskId,
		task_result: { videos: [{ id: 'v0', url: 'https://evil.example/x.mp4' }], images: null },
	});

	test('a forged "succeeded" for a task still queued is corrected and starts nothing', async () => {
		const taskId = await createFamilyATask();
		await start({ confirmWithGateway: true, events: 'final' }, gateway.credentials());

		const answer = await post(forgedFamilyA(taskId));

		expect(answer.body).toEqual({
			received: true,
			family: 'familyA',
			taskId,
			status: 'queued',
			started: false,
			dropped: 'notFinal',
		});
		expect(harness!.executions).toHaveLength(0);
		expect(
			gateway.simulator.requestsTo('GET', `/vendor-a/v1/videos/omni-video/${taskId}`),
		).toHaveLength(1);
	});

	test('with every status change, the authoritative record is emitted, not the body', async () => {
		const taskId = await createFamilyATask();
		await start({ confirmWithGateway: true, events: 'all' }, gateway.credentials());

		await post(forgedFamilyA(taskId));

		expect(harness!.executions[0][0].json).toMatchObject({
			taskId,
			status: 'queued',
			videoUrl: null,
			confirmed: true,
		});
		const [query] = gateway.simulator.requestsTo('GET', `/vendor-a/v1/videos/omni-video/${taskId}`);
		expect(query.headers.authorization).toBe(`Bearer ${gateway.simulator.apiKey}`);
	});

	test('a Task family S callback is never queried (its rule forbids it once a callback came): emitted unconfirmed, with the reason', async () => {
		const taskId = await createSTask();
		await start({ confirmWithGateway: true, events: 'all' }, gateway.credentials());

		const answers = [
			await post(taskSRecord('queued', { id: taskId })),
			await post(taskSRecord('running', { id: taskId })),
			...(await Promise.all([1, 2, 3].map(() => post(taskSRecord('succeeded', { id: taskId }))))),
		];

		expect(answers.map((answer) => answer.body.started)).toEqual([true, true, true, false, false]);
		expect(harness!.executions.map(([item]) => item.json.status)).toEqual([
			'queued',
			'running',
			'succeeded',
		]);
		for (const [item] of harness!.executions) {
			expect(item.json).toMatchObject({
				confirmed: false,
				unconfirmedReason:
					'Task Family S tasks may be queried only while no callback has arrived, so this one was not queried',
			});
		}
		expect(gateway.simulator.requestsTo('GET', '/v1/task/get/')).toHaveLength(0);
	});

	test('a genuine Task family S final callback starts once, unqueried, and breaks no polling rule', async () => {
		gateway.simulator.setOptions({ queuedMs: 0, runningMs: 0 });
		await start({ confirmWithGateway: true }, gateway.credentials());
		const response = await fetch(`${gateway.simulator.baseUrl}/v1/task/create`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${gateway.simulator.apiKey}`,
				'content-type': 'application/json',
			},
			body: JSON.stringify({
				model: 'video-s-1',
				content: [{ type: 'text', text: 'a cat' }],
				callback_url: harness!.url,
			}),
		});
		const taskId = ((await response.json()) as { id: string }).id;
		await allCallbacksAnswered(gateway.simulator, 5);
		await harness!.settled();

		expect(harness!.executions.map(([item]) => [item.json.taskId, item.json.status])).toEqual([
			[taskId, 'succeeded'],
		]);
		expect(harness!.executions[0][0].json.confirmed).toBe(false);
		expect(gateway.simulator.requestsTo('GET', `/v1/task/get/${taskId}`)).toHaveLength(0);
	});

	test('a callback about a task the gateway does not know is rejected with 403', async () => {
		gateway.expectViolations('unknown-id');
		await start({ confirmWithGateway: true }, gateway.credentials());
		const answer = await post(forgedFamilyA('forged-id'));
		expect(answer.status).toBe(403);
		expect(answer.body.reason).toMatch(/^The gateway does not know task forged-id/);
		expect(harness!.executions).toHaveLength(0);
	});

	test('a duplicate or non-final claim is dropped without a gateway query', async () => {
		const taskId = await createSTask();
		await start({ confirmWithGateway: true }, gateway.credentials());
		await post(taskSRecord('running', { id: taskId }));
		expect(gateway.simulator.requestsTo('GET', '/v1/task/get/')).toHaveLength(0);
	});

	test('the gateway unreachable → 502, so the gateway can retry', async () => {
		await start({ confirmWithGateway: true }, gateway.credentials());
		const taskId = await createFamilyATask();
		gateway.simulator.injectFault({ kind: 'status', path: '/vendor-a/v1/videos/', status: 503 });
		const answer = await post(forgedFamilyA(taskId));
		expect(answer.status).toBe(502);
		expect(harness!.executions).toHaveLength(0);
	});

	test('an error body inside HTTP 200 confirms nothing either → 502 with its message (issue 39)', async () => {
		await start({ confirmWithGateway: true }, gateway.credentials());
		const taskId = await createFamilyATask();
		gateway.simulator.injectFault({
			kind: 'status',
			path: '/vendor-a/v1/videos/',
			status: 200,
			body: { error: { message: 'upstream overloaded', type: 'server_error' } },
		});
		const answer = await post(forgedFamilyA(taskId));
		expect(answer.status).toBe(502);
		expect(JSON.stringify(answer.body)).toContain('upstream overloaded');
		expect(harness!.executions).toHaveLength(0);
	});
});

describe('callbacks the simulator sends over HTTP', () => {
	const gateway = useSimulator({ queuedMs: 20, runningMs: 40 });

	test('a Task family S create with callback_url: one execution for its final state', async () => {
		await start();
		const response = await fetch(`${gateway.simulator.baseUrl}/v1/task/create`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${gateway.simulator.apiKey}`,
				'content-type': 'application/json',
			},
			body: JSON.stringify({
				model: 'video-s-1',
				content: [{ type: 'text', text: 'a dog' }],
				callback_url: harness!.url,
			}),
		});
		const { id } = (await response.json()) as { id: string };
		// queued, running, succeeded twice, then a stale running.
		const callbacks = await allCallbacksAnswered(gateway.simulator, 5);
		await harness!.settled();

		expect(callbacks.map((callback) => callback.status)).toEqual([200, 200, 200, 200, 200]);
		expect(harness!.executions).toHaveLength(1);
		expect(harness!.executions[0][0].json).toMatchObject({ taskId: id, status: 'succeeded' });
	});
});

describe('a secret made from the credential (version 3’s default)', () => {
	const gateway = useSimulator({ queuedMs: 0, runningMs: 0 });

	test('nothing typed: the URL ends in /callback, and only the secret made from the API key is let in', async () => {
		harness = await startWebhookHarness({
			parameters: {},
			credentials: gateway.credentials() as never,
			nodeId: 'node-id-43',
		});
		expect(harness.url).toMatch(/\/callback$/);
		const made = deriveCallbackSecret(gateway.simulator.apiKey);
		expect(made).toMatch(/^[A-Za-z0-9_-]{32}$/);
		expect(made).not.toBe(deriveCallbackSecret(`${gateway.simulator.apiKey}x`));
		for (const [url, status] of [
			[harness.url, 401],
			[`${harness.url}?secret=node-id-43`, 403],
			[`${harness.url}?secret=${made.slice(0, 31)}`, 403],
			[`${harness.url}?secret=${made}&row=3`, 200],
		] as const) {
			expect((await postCallback(url, S_SUCCEEDED)).status).toBe(status);
		}
		await harness.settled();
		expect(harness.executions.map(([item]) => item.json.query)).toEqual([{ row: '3' }]);
		expect(JSON.stringify(harness.executions)).not.toContain(made);
	});

	test('a Video create with Add Callback Secret calls back into it; the secret is in no output', async () => {
		harness = await startWebhookHarness({
			parameters: {},
			credentials: gateway.credentials() as never,
		});
		const created = await runNode(
			videoNode('taskS', 'create', {
				model: 'video-s-1',
				taskSContent: { items: [{ type: 'text', text: 'a cat' }] },
				taskSOptions: { callback_url: `${harness.url}?row=7` },
				options: { addCallbackSecret: true },
			}),
			{ credentials: gateway.credentials(), instanceBaseUrl: `${harness.baseUrl}/` },
		);
		expect(created.error('Node Under Test')).toBeUndefined();
		await allCallbacksAnswered(gateway.simulator, 1);
		await harness.settled();
		const made = deriveCallbackSecret(gateway.simulator.apiKey);
		const [create] = gateway.simulator.requestsTo('POST', '/v1/task/create');
		expect((create.body as IDataObject).callback_url).toBe(`${harness.url}?row=7&secret=${made}`);
		expect(harness.executions.map(([item]) => [item.json.status, item.json.query])).toEqual([
			['succeeded', { row: '7' }],
		]);
		expect(JSON.stringify(created.run.data)).not.toContain(made);
		expect(JSON.stringify(harness.executions)).not.toContain(made);
	});
});

import { TASK_FAMILIES } from '../../nodes/shared/tasks';
import { UNKNOWN_STATUS_WORD } from '../simulator';
import { PNG_FILE } from '../simulator/files';
import { TASK_S_FIRST_QUERY_AFTER_MS } from '../simulator/tasks';
import { runChain, runNode } from './harness';
import { useSimulator } from './simulatorFixture';
import { createThenGet, videoNode } from './videoNode';

/** Binary input, unknown statuses, business errors, task references, in-flight states, no double billing. */

const gateway = useSimulator({ queuedMs: 0, runningMs: 0 });
const png = { data: PNG_FILE.bytes, mimeType: 'image/png', fileName: 'frame.png' };

describe('Model Gateway Video: images from n8n binary data', () => {
	it('sends Family A first and last frames from binary properties as Base64', async () => {
		const result = await runNode(
			videoNode('familyA', 'create', {
				model: 'a-video',
				familyAEndpoint: 'image2video',
				familyAPrompt: 'animate',
				familyAFrameSource: 'binary',
				familyAImageBinaryProperty: 'data',
				familyAImageTailBinaryProperty: 'tail',
			}),
			{
				credentials: gateway.credentials(),
				input: [{ json: {}, binary: { data: png, tail: { ...png, fileName: 'tail.png' } } }],
			},
		);
		expect(result.error('Node Under Test')).toBeUndefined();
		const [request] = gateway.simulator.requestsTo('POST', '/vendor-a/v1/videos/image2video');
		expect(request.body).toMatchObject({
			image: PNG_FILE.bytes.toString('base64'),
			image_tail: PNG_FILE.bytes.toString('base64'),
		});
		expect(result.items[0].json).toMatchObject({ family: 'familyA', endpoint: 'image2video' });
	});

	it('sends long-running image and lastFrame from binary properties', async () => {
		const result = await runNode(
			videoNode('longRunning', 'create', {
				model: 'veo-x',
				longRunningInstances: {
					instances: [
						{ prompt: 'from frames', imageBinaryProperty: 'data', lastFrameBinaryProperty: 'data' },
					],
				},
			}),
			{ credentials: gateway.credentials(), input: [{ json: {}, binary: { data: png } }] },
		);
		expect(result.error('Node Under Test')).toBeUndefined();
		const [request] = gateway.simulator.requestsTo(
			'POST',
			'/v1beta/models/veo-x:predictLongRunning',
		);
		const inline = { bytesBase64Encoded: PNG_FILE.bytes.toString('base64'), mimeType: 'image/png' };
		expect(request.body).toEqual({
			instances: [{ prompt: 'from frames', image: inline, lastFrame: inline }],
		});
	});

	it('names a missing binary property and sends nothing', async () => {
		const result = await runNode(
			videoNode('familyA', 'create', {
				model: 'a',
				familyAEndpoint: 'image2video',
				familyAPrompt: 'x',
				familyAFrameSource: 'binary',
				familyAImageBinaryProperty: 'photo',
			}),
			{ credentials: gateway.credentials(), input: [{ json: {}, binary: { data: png } }] },
		);
		expect(result.error('Node Under Test')?.message).toBe(
			"The item has no binary field 'photo' [item 0]",
		);
		expect(gateway.simulator.requests).toHaveLength(0);
	});
});

describe('Model Gateway Video: status values nobody listed', () => {
	const creates: Array<[string, object]> = [
		['taskS', { model: 's', taskSContent: { items: [{ type: 'text', text: 'UNKNOWN_STATUS' }] } }],
		[
			'familyA',
			{ model: 'a', familyAPrompt: 'UNKNOWN_STATUS', familyAOptions: { aspect_ratio: '16:9' } },
		],
		['generic', { model: 'g', genericPrompt: 'UNKNOWN_STATUS' }],
		['familyB', { model: 'b', familyBPrompt: 'UNKNOWN_STATUS' }],
		['familyC', { model: 'c', familyCPrompt: 'UNKNOWN_STATUS' }],
		[
			'longRunning',
			{ model: 'veo', longRunningInstances: { instances: [{ prompt: 'UNKNOWN_STATUS' }] } },
		],
	];
	it.each(creates)(
		'%s: an unknown value becomes "unknown", not terminal, no crash',
		async (family, parameters) => {
			// A Task family S task may be queried only 10 minutes after creation.
			gateway.simulator.setOptions({ taskAgeMs: TASK_S_FIRST_QUERY_AFTER_MS });
			const result = await runChain(createThenGet(family, parameters as never), {
				credentials: gateway.credentials(),
			});
			expect(result.error('Create')).toBeUndefined();
			expect(result.error('Get Status')).toBeUndefined();
			const queried = result.output('Get Status')[0].json;
			expect(queried).toMatchObject({
				family,
				status: 'unknown',
				rawStatus: UNKNOWN_STATUS_WORD,
				done: false,
				error: null,
				videoUrl: null,
			});
		},
	);
});

describe('Model Gateway Video: business errors inside HTTP 200', () => {
	it('Task family S: a code other than success fails the item with the gateway message, sent once', async () => {
		const result = await runNode(
			videoNode('taskS', 'create', {
				model: 's',
				taskSContent: { items: [{ type: 'text', text: 'BUSINESS_ERROR' }] },
			}),
			{ credentials: gateway.credentials() },
		);
		const error = result.error('Node Under Test');
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('quota exceeded');
		expect(gateway.simulator.requestsTo('POST', '/v1/task/create')).toHaveLength(1);
	});

	it('Family A: a non-zero code becomes an error item under Continue On Fail', async () => {
		const result = await runNode(
			{
				...videoNode('familyA', 'create', {
					model: 'a',
					familyAPrompt: '={{ $json.prompt }}',
					familyAOptions: { aspect_ratio: '16:9' },
				}),
				continueOnFail: true,
			},
			{
				credentials: gateway.credentials(),
				input: [{ json: { prompt: 'BUSINESS_ERROR' } }, { json: { prompt: 'fine' } }],
			},
		);
		expect(result.items[0].json.error).toBe('concurrency limit');
		expect(result.items[0].json.errorDescription).toMatch(/error code 1303/);
		expect(result.items[1].json).toMatchObject({ family: 'familyA', status: 'queued' });
		expect(gateway.simulator.requestsTo('POST', '/vendor-a/v1/videos/omni-video')).toHaveLength(2);
	});

	it('Family A: an unknown task on query (code 1203) is an error, not a task', async () => {
		gateway.expectViolations('unknown-id');
		const result = await runNode(
			videoNode('familyA', 'getStatus', {
				taskSource: 'manual',
				taskId: 'nope',
				taskEndpoint: 'text2video',
			}),
			{ credentials: gateway.credentials() },
		);
		expect(result.error('Node Under Test')?.message).toBe('task not found');
		expect(gateway.simulator.requestsTo('GET', '/vendor-a/v1/videos/text2video/nope')).toHaveLength(
			1,
		);
	});
});

describe('Model Gateway Video: never billed twice', () => {
	it('does not repeat a create after a 503, nor after a dropped connection', async () => {
		const sim = gateway.simulator;
		sim.injectFault({
			method: 'POST',
			path: '/v1/videos',
			kind: 'status',
			status: 503,
			times: 5,
			body: { error: { message: 'overloaded' } },
		});
		const first = await runNode(
			videoNode('generic', 'create', { model: 'g', genericPrompt: 'x' }),
			{ credentials: gateway.credentials() },
		);
		expect(first.error('Node Under Test')?.message).toBe('overloaded');
		expect(sim.requestsTo('POST', '/v1/videos')).toHaveLength(1);
		sim.reset();
		sim.injectFault({ method: 'POST', path: '/v1/videos', kind: 'drop' });
		const second = await runNode(
			videoNode('generic', 'create', { model: 'g', genericPrompt: 'x' }),
			{ credentials: gateway.credentials() },
		);
		expect(second.error('Node Under Test')?.description).toMatch(/not sent again/);
		expect(sim.requestsTo('POST', '/v1/videos')).toHaveLength(1);
	});

	it('repeats a status query after a 503 (reads are safe)', async () => {
		const sim = gateway.simulator;
		const created = await runNode(
			videoNode('generic', 'create', { model: 'g', genericPrompt: 'x' }),
			{ credentials: gateway.credentials() },
		);
		const taskId = created.items[0].json.taskId as string;
		sim.injectFault({
			method: 'GET',
			path: `/v1/videos/${taskId}`,
			kind: 'status',
			status: 503,
			headers: { 'retry-after-ms': '10' },
		});
		const result = await runNode(videoNode('generic', 'getStatus', {}), {
			credentials: gateway.credentials(),
			input: [{ json: created.items[0].json }],
		});
		expect(result.items[0].json).toMatchObject({ status: 'succeeded', taskId });
		expect(sim.requestsTo('GET', `/v1/videos/${taskId}`)).toHaveLength(2);
	});
});

describe('Model Gateway Video: task references and trace IDs', () => {
	it('queries a task given by parameters, for every family that needs more than an ID', async () => {
		const sim = gateway.simulator;
		const created = await runNode(
			videoNode('longRunning', 'create', {
				model: 'veo-x',
				longRunningInstances: { instances: [{ prompt: 'x' }] },
			}),
			{ credentials: gateway.credentials() },
		);
		const operationName = (created.items[0].json.raw as { name: string }).name;
		const byName = await runNode(
			videoNode('longRunning', 'getStatus', { taskSource: 'manual', taskId: operationName }),
			{ credentials: gateway.credentials() },
		);
		expect(byName.items[0].json).toMatchObject({
			family: 'longRunning',
			model: 'veo-x',
			status: 'succeeded',
			taskId: created.items[0].json.taskId,
		});
		const byId = await runNode(
			videoNode('longRunning', 'getStatus', {
				taskSource: 'manual',
				taskId: created.items[0].json.taskId as string,
				taskModel: 'veo-x',
			}),
			{ credentials: gateway.credentials() },
		);
		expect(byId.items[0].json.status).toBe('succeeded');

		const a = await runNode(
			videoNode('familyA', 'create', {
				model: 'a',
				familyAEndpoint: 'image2video',
				familyAPrompt: 'x',
				familyAImage: 'https://example.com/f.png',
			}),
			{ credentials: gateway.credentials() },
		);
		const aId = a.items[0].json.taskId as string;
		const aQuery = await runNode(
			videoNode('familyA', 'getStatus', {
				taskSource: 'manual',
				taskId: aId,
				taskEndpoint: 'image2video',
			}),
			{ credentials: gateway.credentials(), input: [{ json: { unrelated: true } }] },
		);
		expect(aQuery.items[0].json).toMatchObject({
			family: 'familyA',
			endpoint: 'image2video',
			taskId: aId,
			status: 'succeeded',
		});
		expect(sim.requestsTo('GET', `/vendor-a/v1/videos/image2video/${aId}`)).toHaveLength(1);
	});

	it('fails clearly, sending nothing, when the input item has no taskId', async () => {
		const result = await runNode(videoNode('generic', 'getStatus', {}), {
			credentials: gateway.credentials(),
			input: [{ json: { hello: 'world' } }],
		});
		expect(result.error('Node Under Test')?.message).toBe(
			'Item 0: "taskId": a task ID is required',
		);
		expect(gateway.simulator.requests).toHaveLength(0);
	});

	it('sends the given X-Trace-ID on create and query and reports it', async () => {
		const result = await runChain(
			[
				videoNode(
					'generic',
					'create',
					{ model: 'g', genericPrompt: 'x', options: { traceId: 'case-1' } },
					{ name: 'Create' },
				),
				videoNode(
					'generic',
					'getStatus',
					{ options: { traceId: 'case-2' } },
					{ name: 'Get Status' },
				),
			],
			{ credentials: gateway.credentials() },
		);
		expect(gateway.simulator.requests.map((request) => request.headers['x-trace-id'])).toEqual([
			'case-1',
			'case-2',
		]);
		expect(result.output('Create')[0].json.traceId).toBe('case-1');
		expect(result.output('Get Status')[0].json.traceId).toBe('case-2');
	});

	it('keeps order and pairing with several items in flight', async () => {
		const result = await runNode(
			videoNode('generic', 'create', {
				model: 'g',
				genericPrompt: '={{ "clip " + $json.n }}',
				options: { concurrency: 4 },
			}),
			{ credentials: gateway.credentials(), input: [1, 2, 3, 4, 5].map((n) => ({ json: { n } })) },
		);
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3, 4].map((item) => ({ item })),
		);
		const prompts = gateway.simulator
			.requestsTo('POST', '/v1/videos')
			.map((request) => (request.body as { prompt: string }).prompt);
		expect(prompts.sort()).toEqual(['clip 1', 'clip 2', 'clip 3', 'clip 4', 'clip 5']);
		const ids = new Set(result.items.map((item) => item.json.taskId));
		expect(ids.size).toBe(5);
	});
});

describe('Model Gateway Video: video bytes go to the chosen binary property', () => {
	it('uses "Put Video in Field"', async () => {
		const result = await runChain(
			[
				videoNode(
					'longRunning',
					'create',
					{ model: 'veo', longRunningInstances: { instances: [{ prompt: 'x' }] } },
					{ name: 'Create' },
				),
				videoNode(
					'longRunning',
					'getStatus',
					{ options: { binaryPropertyName: 'video' } },
					{ name: 'Get Status' },
				),
			],
			{ credentials: gateway.credentials() },
		);
		const [item] = result.output('Get Status');
		expect(Object.keys(item.binary ?? {})).toEqual(['video']);
		expect(item.binary?.video.fileName).toBe(`${item.json.taskId as string}.mp4`);
	});
});

describe('Model Gateway Video: tasks still in flight', () => {
	afterEach(() => gateway.simulator.setOptions({ queuedMs: 0, runningMs: 0 }));

	it('reports queued, then running, with progress, and done false', async () => {
		const sim = gateway.simulator;
		sim.setOptions({ queuedMs: 60_000, runningMs: 60_000 });
		const queued = await runChain(createThenGet('generic', { model: 'g', genericPrompt: 'x' }), {
			credentials: gateway.credentials(),
		});
		expect(queued.output('Create')[0].json).toMatchObject({
			status: 'queued',
			rawStatus: 'queued',
			progress: 0,
			done: false,
		});
		expect(queued.output('Get Status')[0].json).toMatchObject({
			status: 'queued',
			done: false,
			videoUrl: null,
		});
		const waiting = await runChain(
			createThenGet('familyB', { model: 'b-UPSTREAM_CASE', familyBPrompt: 'x' }),
			{ credentials: gateway.credentials() },
		);
		expect(waiting.output('Create')[0].json).toMatchObject({
			status: 'queued',
			rawStatus: 'WAITING',
			done: false,
		});
		sim.setOptions({ queuedMs: 0, runningMs: 60_000 });
		const processing = await runChain(
			createThenGet('familyB', { model: 'b-UPSTREAM_CASE', familyBPrompt: 'x' }),
			{ credentials: gateway.credentials() },
		);
		expect(processing.output('Get Status')[0].json).toMatchObject({
			status: 'running',
			rawStatus: 'PROCESSING',
			done: false,
		});
		const running = await runChain(
			createThenGet('familyA', {
				model: 'a',
				familyAPrompt: 'x',
				familyAOptions: { aspect_ratio: '16:9' },
			}),
			{ credentials: gateway.credentials() },
		);
		expect(running.output('Get Status')[0].json).toMatchObject({
			status: 'running',
			rawStatus: 'processing',
			done: false,
		});
		const operation = await runChain(
			createThenGet('longRunning', {
				model: 'veo',
				longRunningInstances: { instances: [{ prompt: 'x' }] },
			}),
			{ credentials: gateway.credentials() },
		);
		expect(operation.output('Get Status')[0].json).toMatchObject({
			status: 'running',
			rawStatus: 'done=false',
			done: false,
		});
		expect(operation.output('Get Status')[0].binary).toBeUndefined();
	});
});

describe('Model Gateway Video: Get Status keeps the Task family S polling rule', () => {
	it('refuses to query an S task before 10 minutes after its creation, says when, and sends nothing', async () => {
		const result = await runChain(
			[
				videoNode(
					'taskS',
					'create',
					{ model: 's', taskSContent: { items: [{ type: 'text', text: 'a fox' }] } },
					{ name: 'Create' },
				),
				videoNode('taskS', 'getStatus', {}, { name: 'Get Status' }),
			],
			{ credentials: gateway.credentials() },
		);
		const created = result.output('Create')[0].json;
		const allowedAt = new Date(Date.parse(String(created.createdAt)) + 600_000).toISOString();
		const error = result.error('Get Status');
		expect(error?.message).toBe(
			`Item 0: this ${TASK_FAMILIES.taskS.displayName} task may be queried from ${allowedAt}`,
		);
		expect(error?.description).toBe(
			`${TASK_FAMILIES.taskS.pollPolicy.guidance} Use Model Gateway Wait for Task, which keeps this rule for you, or start a workflow from the task's callback with Model Gateway Task Callback Trigger. Nothing was sent to the gateway.`,
		);
		expect(gateway.simulator.requestsTo('GET', '/v1/task/get/')).toHaveLength(0);
	});
});

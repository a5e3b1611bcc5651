import { MP4_FILE } from '../simulator/files';
import { TASK_S_FIRST_QUERY_AFTER_MS } from '../simulator/tasks';
import { binaryBytes, runChain } from './harness';
import { useSimulator } from './simulatorFixture';
import { createThenGet } from './videoNode';

/** Every family: create, then query (through the item, no configuration), succeeded and failed. */

// queuedMs/runningMs 0: a task is finished by the time it is queried, without sleeping.
// taskAgeMs: tasks count as created 10 minutes ago, so querying a Task family S task keeps
// to the spec's polling rule (first query only 10 minutes after creation).
const gateway = useSimulator({ queuedMs: 0, runningMs: 0, taskAgeMs: TASK_S_FIRST_QUERY_AFTER_MS });

async function chain(family: string, createParameters: object) {
	const result = await runChain(createThenGet(family, createParameters as never), {
		credentials: gateway.credentials(),
	});
	expect(result.error('Create')).toBeUndefined();
	expect(result.error('Get Status')).toBeUndefined();
	return { created: result.output('Create')[0], queried: result.output('Get Status')[0] };
}

const TASK_FIELDS = [
	'family',
	'taskId',
	'model',
	'status',
	'rawStatus',
	'done',
	'progress',
	'videoUrl',
	'videoUrls',
	'lastFrameUrl',
	'error',
	'createdAt',
	'traceId',
	'usage',
	'cost',
	'raw',
];

describe('Model Gateway Video: Task family S', () => {
	const content = (text: string) => ({
		taskSContent: {
			items: [
				{ type: 'text', text },
				{ type: 'image_url', url: 'https://example.com/first.png', role: 'first_frame' },
				{ type: 'audio_url', url: 'https://example.com/voice.mp3', role: 'reference_audio' },
			],
		},
	});

	it('creates with content items and options, then reads the finished record', async () => {
		const sim = gateway.simulator;
		const { created, queried } = await chain('taskS', {
			model: 'seed-video-1',
			...content('A fox in the snow'),
			taskSOptions: {
				ratio: '16:9',
				duration: 5,
				generate_audio: true,
				watermark: false,
				resolution: '720p',
				seed: 42,
				callback_url: 'http://127.0.0.1:9/hook',
			},
		});
		const [request] = sim.requestsTo('POST', '/v1/task/create');
		expect(request.body).toEqual({
			model: 'seed-video-1',
			content: [
				{ type: 'text', text: 'A fox in the snow' },
				{
					type: 'image_url',
					image_url: { url: 'https://example.com/first.png' },
					role: 'first_frame',
				},
				{
					type: 'audio_url',
					audio_url: { url: 'https://example.com/voice.mp3' },
					role: 'reference_audio',
				},
			],
			ratio: '16:9',
			duration: 5,
			generate_audio: true,
			watermark: false,
			resolution: '720p',
			seed: 42,
			callback_url: 'http://127.0.0.1:9/hook',
		});
		expect(Object.keys(created.json).sort()).toEqual([...TASK_FIELDS].sort());
		expect(created.json).toMatchObject({
			family: 'taskS',
			status: 'queued',
			done: false,
			model: 'seed-video-1',
			traceId: request.headers['x-trace-id'],
		});
		const taskId = created.json.taskId as string;
		expect(sim.requestsTo('GET', `/v1/task/get/${taskId}`)).toHaveLength(1);
		expect(queried.json).toMatchObject({
			family: 'taskS',
			taskId,
			status: 'succeeded',
			rawStatus: 'succeeded',
			done: true,
			videoUrl: `${sim.baseUrl}/files/${taskId}.mp4`,
			lastFrameUrl: `${sim.baseUrl}/files/${taskId}-last.png`,
			error: null,
		});
		expect(queried.json.videoUrls).toEqual([queried.json.videoUrl]);
		expect(Date.parse(queried.json.createdAt as string)).not.toBeNaN();
		// Usage and money as the record reports them (money strings as numbers and as written); none
		// at creation.
		expect(created.json).toMatchObject({ usage: null, cost: null });
		const record = (queried.json.raw as { data: { cost: Record<string, string> } }).data;
		const { usage } = (queried.json.raw as { data: { usage: Record<string, number> } }).data;
		expect(usage.total_tokens).toBeGreaterThan(0);
		expect(queried.json.usage).toEqual({
			inputTokens: null,
			outputTokens: usage.completion_tokens,
			totalTokens: usage.total_tokens,
		});
		expect(Number(record.cost.total_cost)).toBeGreaterThan(0);
		expect(queried.json.cost).toEqual({
			currency: record.cost.currency,
			input: Number(record.cost.input_cost),
			output: Number(record.cost.output_cost),
			total: Number(record.cost.total_cost),
			inputExact: record.cost.input_cost,
			outputExact: record.cost.output_cost,
			totalExact: record.cost.total_cost,
			precision: Math.max(
				...[record.cost.input_cost, record.cost.output_cost, record.cost.total_cost].map(
					(amount) => amount.split('.')[1]?.length ?? 0,
				),
			),
		});
	});

	it('reports a failed task with its error', async () => {
		const { created, queried } = await chain('taskS', {
			model: 'seed-video-1',
			...content('please FAIL'),
		});
		expect(queried.json).toMatchObject({
			status: 'failed',
			rawStatus: 'failed',
			done: true,
			videoUrl: null,
		});
		expect(queried.json.error).toMatchObject({
			code: 'GenerationFailed',
			message: `video generation failed for task ${created.json.taskId as string}`,
		});
	});
});

describe('Model Gateway Video: Family A', () => {
	it('creates an omni-video task with every field and queries it under its endpoint', async () => {
		const sim = gateway.simulator;
		const { created, queried } = await chain('familyA', {
			model: 'a-video-2',
			familyAEndpoint: 'omni-video',
			familyAPrompt: 'A lighthouse at dusk',
			familyAImageList: {
				images: [
					{ image_url: 'https://example.com/1.png' },
					{ image_url: 'https://example.com/2.png' },
				],
			},
			familyAOptions: {
				sound: 'on',
				mode: 'pro',
				duration: 10,
				aspect_ratio: '9:16',
				cfg_scale: 0.7,
				negative_prompt: 'blur',
				videoList: '[{"video_url":"https://example.com/ref.mp4","refer_type":"base"}]',
				elementList: '[{"element_id":"e1"}]',
				watermarkInfo: '{"enabled":true}',
				callback_url: 'http://127.0.0.1:9/a',
				external_task_id: 'order-77',
			},
		});
		const [request] = sim.requestsTo('POST', '/vendor-a/v1/videos/omni-video');
		expect(request.body).toEqual({
			model_name: 'a-video-2',
			prompt: 'A lighthouse at dusk',
			image_list: [
				{ image_url: 'https://example.com/1.png' },
				{ image_url: 'https://example.com/2.png' },
			],
			video_list: [{ video_url: 'https://example.com/ref.mp4', refer_type: 'base' }],
			element_list: [{ element_id: 'e1' }],
			sound: 'on',
			mode: 'pro',
			duration: 10,
			aspect_ratio: '9:16',
			cfg_scale: 0.7,
			negative_prompt: 'blur',
			watermark_info: { enabled: true },
			callback_url: 'http://127.0.0.1:9/a',
			external_task_id: 'order-77',
		});
		expect(created.json).toMatchObject({
			family: 'familyA',
			endpoint: 'omni-video',
			status: 'queued',
			done: false,
		});
		const taskId = created.json.taskId as string;
		expect(sim.requestsTo('GET', `/vendor-a/v1/videos/omni-video/${taskId}`)).toHaveLength(1);
		expect(queried.json).toMatchObject({
			family: 'familyA',
			endpoint: 'omni-video',
			taskId,
			status: 'succeeded',
			rawStatus: 'succeed',
			done: true,
			error: null,
			// Family A reports neither: nothing is made up.
			usage: null,
			cost: null,
		});
		expect(queried.json.videoUrl).toContain(`/files/${taskId}.mp4`);
	});

	it('creates an image2video task with multi-shot, masks and camera control', async () => {
		const sim = gateway.simulator;
		const { queried } = await chain('familyA', {
			model: 'a-video-2',
			familyAEndpoint: 'image2video',
			familyAFrameSource: 'url',
			familyAImage: 'https://example.com/first.png',
			familyAImageTail: 'https://example.com/last.png',
			familyAOptions: {
				multi_shot: 'customize',
				shot_type: 'customize',
				multiPrompt: {
					shots: [
						{ index: 1, prompt: 'wide shot', duration: '3' },
						{ index: 2, prompt: 'close up', duration: '2' },
					],
				},
				voiceList: '[{"voice_id":"v1"}]',
				static_mask: 'https://example.com/mask.png',
				dynamicMasks: '[{"mask":"https://example.com/m.png","trajectories":[{"x":1,"y":2}]}]',
				cameraControl: '{"type":"simple","config":{"zoom":5}}',
			},
		});
		const [request] = sim.requestsTo('POST', '/vendor-a/v1/videos/image2video');
		expect(request.body).toEqual({
			model_name: 'a-video-2',
			image: 'https://example.com/first.png',
			image_tail: 'https://example.com/last.png',
			multi_shot: 'customize',
			shot_type: 'customize',
			multi_prompt: [
				{ index: 1, prompt: 'wide shot', duration: '3' },
				{ index: 2, prompt: 'close up', duration: '2' },
			],
			voice_list: [{ voice_id: 'v1' }],
			static_mask: 'https://example.com/mask.png',
			dynamic_masks: [{ mask: 'https://example.com/m.png', trajectories: [{ x: 1, y: 2 }] }],
			camera_control: { type: 'simple', config: { zoom: 5 } },
		});
		expect(queried.json).toMatchObject({ endpoint: 'image2video', status: 'succeeded' });
		expect(sim.requestsTo('GET', '/vendor-a/v1/videos/image2video/')).toHaveLength(1);
	});

	it('reports a failed task with task_status_msg as the error', async () => {
		const { queried } = await chain('familyA', {
			model: 'a-video-2',
			familyAPrompt: 'FAIL now',
			familyAOptions: { aspect_ratio: '16:9' },
		});
		expect(queried.json).toMatchObject({
			status: 'failed',
			rawStatus: 'failed',
			done: true,
			videoUrls: [],
		});
		expect((queried.json.error as { message: string }).message).toBe(
			`video generation failed for task ${queried.json.taskId as string}`,
		);
	});
});

describe('Model Gateway Video: generic video', () => {
	it('creates with duration, size and metadata flags and reads the completed task', async () => {
		const sim = gateway.simulator;
		const result = await runChain(
			[
				{
					name: 'Create',
					type: 'modelGatewayVideo',
					parameters: {
						family: 'generic',
						operation: 'create',
						model: 'gen-video-1',
						genericPrompt: 'Waves',
						genericOptions: {
							duration: 10,
							size: '1080p',
							prompt_optimizer: false,
							aigc_watermark: true,
						},
					},
				},
				{
					name: 'Get Status',
					type: 'modelGatewayVideo',
					parameters: { family: 'taskS', operation: 'getStatus' },
				},
			],
			{ credentials: gateway.credentials() },
		);
		const [request] = sim.requestsTo('POST', '/v1/videos');
		expect(request.body).toEqual({
			model: 'gen-video-1',
			prompt: 'Waves',
			duration: 10,
			size: '1080p',
			metadata: { prompt_optimizer: false, aigc_watermark: true },
		});
		const created = result.output('Create')[0].json;
		expect(created).toMatchObject({
			family: 'generic',
			taskId: expect.stringMatching(/^video_/),
			model: 'gen-video-1',
		});
		const queried = result.output('Get Status')[0].json;
		expect(sim.requestsTo('GET', `/v1/videos/${created.taskId as string}`)).toHaveLength(1);
		expect(queried).toMatchObject({
			family: 'generic',
			status: 'succeeded',
			rawStatus: 'completed',
			progress: 100,
			done: true,
			error: null,
		});
		expect(queried.videoUrl).toBe(`${sim.baseUrl}/files/${queried.taskId as string}.mp4`);
		expect(queried).not.toHaveProperty('endpoint');
	});

	it('reports a failed task with the error object', async () => {
		const { queried } = await chain('generic', { model: 'gen-video-1', genericPrompt: 'FAIL' });
		expect(queried.json).toMatchObject({
			status: 'failed',
			rawStatus: 'failed',
			done: true,
			error: { code: 'generation_failed' },
		});
	});
});

describe('Model Gateway Video: Family B', () => {
	it('sends PascalCase fields with OutputConfig and queries through GET /v1/videos/{id}', async () => {
		const sim = gateway.simulator;
		const { created, queried } = await chain('familyB', {
			model: 'b-video',
			familyBPrompt: 'A city at night',
			familyBOptions: {
				ModelVersion: '2.0',
				fileInfos: '[{"Type":"Url","Url":"https://example.com/ref.png"}]',
				LastFrameUrl: 'https://example.com/last.png',
				NegativePrompt: 'rain',
				outputDuration: 8,
				outputResolution: '1080p',
				outputConfig: '{"AspectRatio":"16:9"}',
				SceneType: 'text2video',
				Seed: 7,
				TasksPriority: 1,
				extInfo: '{"trace":"x"}',
			},
		});
		const [request] = sim.requestsTo('POST', '/vendor-b/v1/video/generations');
		expect(request.body).toEqual({
			ModelName: 'b-video',
			ModelVersion: '2.0',
			Prompt: 'A city at night',
			FileInfos: [{ Type: 'Url', Url: 'https://example.com/ref.png' }],
			LastFrameUrl: 'https://example.com/last.png',
			NegativePrompt: 'rain',
			OutputConfig: { AspectRatio: '16:9', Duration: 8, Resolution: '1080p' },
			SceneType: 'text2video',
			Seed: 7,
			TasksPriority: 1,
			ExtInfo: { trace: 'x' },
		});
		expect(created.json).toMatchObject({ family: 'familyB', model: 'b-video' });
		expect(sim.requestsTo('GET', `/v1/videos/${created.json.taskId as string}`)).toHaveLength(1);
		expect(queried.json).toMatchObject({ family: 'familyB', status: 'succeeded', done: true });
	});

	it('maps the upstream words WAITING/PROCESSING/FINISH, and FINISH with an error is a failure', async () => {
		const succeeded = await chain('familyB', { model: 'b-UPSTREAM_CASE', familyBPrompt: 'ok' });
		expect(succeeded.queried.json).toMatchObject({
			status: 'succeeded',
			rawStatus: 'FINISH',
			done: true,
			error: null,
		});
		const failed = await chain('familyB', { model: 'b-UPSTREAM_CASE', familyBPrompt: 'FAIL' });
		expect(failed.queried.json).toMatchObject({
			status: 'failed',
			rawStatus: 'FINISH',
			done: true,
			videoUrl: null,
			error: { code: 'generation_failed' },
		});
	});
});

describe('Model Gateway Video: Family C', () => {
	it('creates with subjects/payload/params passed unchanged and queries through GET /v1/videos/{id}', async () => {
		const sim = gateway.simulator;
		const { created, queried } = await chain('familyC', {
			model: 'c-video',
			familyCPrompt: 'Two friends talking',
			familyCOptions: {
				images: 'https://example.com/a.png, https://example.com/b.png',
				videos: 'https://example.com/v.mp4',
				subjects: '[{"id":"s1","images":["https://example.com/s.png"]}]',
				payload: '{"x":1}',
				params: '{"y":[2]}',
				duration: '5',
				bgm: true,
				off_peak: true,
				resolution: '1080p',
				seed: 3,
			},
		});
		const [request] = sim.requestsTo('POST', '/vendor-c/ent/v2/reference2video');
		expect(request.body).toEqual({
			model: 'c-video',
			prompt: 'Two friends talking',
			images: ['https://example.com/a.png', 'https://example.com/b.png'],
			videos: ['https://example.com/v.mp4'],
			subjects: [{ id: 's1', images: ['https://example.com/s.png'] }],
			payload: { x: 1 },
			params: { y: [2] },
			duration: '5',
			bgm: true,
			off_peak: true,
			resolution: '1080p',
			seed: 3,
		});
		expect(created.json).toMatchObject({
			family: 'familyC',
			status: 'queued',
			rawStatus: 'created',
			done: false,
		});
		expect(sim.requestsTo('GET', `/v1/videos/${created.json.taskId as string}`)).toHaveLength(1);
		expect(queried.json).toMatchObject({
			family: 'familyC',
			status: 'succeeded',
			rawStatus: 'success',
			done: true,
		});
		expect(queried.json.videoUrl).toBe(
			`${gateway.simulator.baseUrl}/files/${queried.json.taskId as string}.mp4`,
		);
	});

	it('reports a failed task', async () => {
		const { queried } = await chain('familyC', { model: 'c-video', familyCPrompt: 'FAIL' });
		expect(queried.json).toMatchObject({ status: 'failed', rawStatus: 'failed', done: true });
	});
});

describe('Model Gateway Video: long-running operations', () => {
	it('creates an operation and turns the returned video bytes into binary data', async () => {
		const sim = gateway.simulator;
		const result = await runChain(
			[
				{
					name: 'Create',
					type: 'modelGatewayVideo',
					parameters: {
						family: 'longRunning',
						operation: 'create',
						model: 'veo-x',
						longRunningInstances: { instances: [{ prompt: 'A paper boat' }] },
						longRunningParameters: {
							sampleCount: 2,
							durationSeconds: 8,
							aspectRatio: '16:9',
							generateAudio: true,
						},
					},
				},
				{
					name: 'Get Status',
					type: 'modelGatewayVideo',
					parameters: { family: 'generic', operation: 'getStatus' },
				},
			],
			{ credentials: gateway.credentials() },
		);
		const [request] = sim.requestsTo('POST', '/v1beta/models/veo-x:predictLongRunning');
		expect(request.body).toEqual({
			instances: [{ prompt: 'A paper boat' }],
			parameters: { sampleCount: 2, durationSeconds: 8, aspectRatio: '16:9', generateAudio: true },
		});
		const created = result.output('Create')[0].json;
		expect(created).toMatchObject({
			family: 'longRunning',
			model: 'veo-x',
			status: 'queued',
			done: false,
		});
		expect(
			sim.requestsTo('GET', `/v1/models/veo-x/operations/${created.taskId as string}`),
		).toHaveLength(1);
		const [item] = result.output('Get Status');
		expect(item.json).toMatchObject({
			family: 'longRunning',
			status: 'succeeded',
			rawStatus: 'done=true',
			done: true,
			error: null,
			videoUrl: null,
		});
		expect(await binaryBytes(item, 'data')).toEqual(MP4_FILE.bytes);
		expect(await binaryBytes(item, 'data_1')).toEqual(MP4_FILE.bytes);
		expect(item.binary?.data.mimeType).toBe('video/mp4');
		expect(JSON.stringify(item.json.raw)).not.toContain(MP4_FILE.bytes.toString('base64'));
		expect(JSON.stringify(item.json).length).toBeLessThan(3000);
	});

	it('a failed operation carries its error; a done operation without videos is failed with a clear message', async () => {
		const failed = await chain('longRunning', {
			model: 'veo-x',
			longRunningInstances: { instances: [{ prompt: 'FAIL' }] },
		});
		expect(failed.queried.json).toMatchObject({
			status: 'failed',
			done: true,
			error: { code: '3' },
		});
		expect(failed.queried.binary).toBeUndefined();
		const filtered = await chain('longRunning', {
			model: 'veo-x',
			longRunningInstances: { instances: [{ prompt: 'SAFETY first' }] },
		});
		expect(filtered.queried.json).toMatchObject({
			status: 'failed',
			done: true,
			error: { code: 'no_videos', message: expect.stringMatching(/without any video.*safety/i) },
		});
	});
});

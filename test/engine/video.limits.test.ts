import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';
import { videoNode } from './videoNode';

/** Every limit of the spec's Limits table (and required fields) is enforced before sending. */

const gateway = useSimulator({ queuedMs: 0, runningMs: 0 });

const omni = (options: object, extra: object = {}) =>
	videoNode('familyA', 'create', {
		model: 'a-video',
		familyAEndpoint: 'omni-video',
		familyAPrompt: 'p',
		// The spec: aspect_ratio is normally required on omni-video (no first frame here).
		familyAOptions: { aspect_ratio: '16:9', ...options },
		...extra,
	});
const image2video = (options: object, extra: object = {}) =>
	videoNode('familyA', 'create', {
		model: 'a-video',
		familyAEndpoint: 'image2video',
		familyAPrompt: 'p',
		familyAImage: 'https://example.com/f.png',
		familyAOptions: options,
		...extra,
	});
const generic = (options: object, prompt = 'waves') =>
	videoNode('generic', 'create', { model: 'g', genericPrompt: prompt, genericOptions: options });
const list = (length: number) =>
	JSON.stringify(Array.from({ length }, (_, index) => ({ id: `x${index}` })));
const videoList = (length: number) =>
	JSON.stringify(
		Array.from({ length }, (_, index) => ({
			video_url: `https://example.com/${index}.mp4`,
			refer_type: 'feature',
		})),
	);
const elementList = (length: number) =>
	JSON.stringify(Array.from({ length }, (_, index) => ({ element_id: `e${index}` })));
const images = (length: number) => ({
	images: Array.from({ length }, (_, index) => ({ image_url: `https://example.com/${index}.png` })),
});

const cases: Array<[string, ReturnType<typeof videoNode>, string]> = [
	[
		'Family A omni-video image_list > 7',
		omni({}, { familyAImageList: images(8) }),
		'"image_list": must have at most 7 entries',
	],
	[
		'Family A omni-video video_list > 1',
		omni({ videoList: videoList(2) }),
		'"video_list": must have at most 1 entries',
	],
	[
		'Family A omni-video element_list > 3',
		omni({ elementList: elementList(4) }),
		'"element_list": must have at most 3 entries',
	],
	[
		'Family A image2video element_list > 3',
		image2video({ elementList: elementList(4) }),
		'"element_list": must have at most 3 entries',
	],
	[
		'Family A image2video voice_list > 2',
		image2video({ voiceList: list(3) }),
		'"voice_list": must have at most 2 entries',
	],
	[
		'Family A image2video element_list with voice_list',
		image2video({ elementList: elementList(1), voiceList: list(1) }),
		'"voice_list": cannot be used together with element_list (they are mutually exclusive)',
	],
	[
		'Family A image2video without image and image_tail',
		image2video({}, { familyAImage: '' }),
		'"image": at least one of image (first frame) and image_tail (last frame) is required',
	],
	[
		'Family A create under a query-only endpoint',
		omni({}, { familyAEndpoint: 'text2video' }),
		'"Endpoint": must be one of omni-video, image2video',
	],
	[
		'Family A cfg_scale > 1',
		omni({ cfg_scale: 1.5 }),
		'"cfg_scale": must be between 0 and 1 (got a larger value)',
	],
	[
		'Family A cfg_scale < 0',
		image2video({ cfg_scale: -0.1 }),
		'"cfg_scale": must be between 0 and 1 (got a smaller value)',
	],
	['Family A sound not on/off', omni({ sound: 'loud' }), '"sound": must be "on" or "off"'],
	['Family A mode not std/pro', omni({ mode: 'ultra' }), '"mode": must be "std" or "pro"'],
	[
		'Family A prompt missing without custom multi-shot',
		omni({}, { familyAPrompt: '' }),
		'"prompt": is required unless custom multi-shot prompts are given',
	],
	['generic duration not 6/10', generic({ duration: 7 }), '"duration": must be 6 or 10 seconds'],
	['generic size not 768p/1080p', generic({ size: '720p' }), '"size": must be "768p" or "1080p"'],
	// An expression that yields nothing gets past n8n's own required-parameter check.
	[
		'generic prompt missing',
		generic({}, '={{ "" }}'),
		'"prompt": prompt is required and must not be empty',
	],
	[
		'generic model missing',
		videoNode('generic', 'create', { model: '={{ " " }}', genericPrompt: 'x' }),
		'"model": model is required and must not be empty',
	],
	[
		'generic metadata that is not an object',
		videoNode('generic', 'create', {
			model: 'g',
			genericPrompt: 'x',
			genericOptions: { aigc_watermark: true },
			options: { additionalBodyFields: '{"metadata": "yes"}' },
		}),
		'"metadata": must be a JSON object',
	],
	[
		'Task family S without content',
		videoNode('taskS', 'create', { model: 's', taskSContent: { items: [] } }),
		'"content": must contain at least 1 content item',
	],
	[
		'Task family S ratio not w:h',
		videoNode('taskS', 'create', {
			model: 's',
			taskSContent: { items: [{ type: 'text', text: 'x' }] },
			taskSOptions: { ratio: 'wide' },
		}),
		'"ratio": must be an aspect ratio in the form <w>:<h>, like 16:9',
	],
	[
		'Task family S media item without URL',
		videoNode('taskS', 'create', {
			model: 's',
			taskSContent: { items: [{ type: 'image_url', url: '' }] },
		}),
		'"content[0].image_url.url": must not be empty: give an http or https URL',
	],
	[
		'Family B field in snake_case (the spec: PascalCase)',
		videoNode('familyB', 'create', {
			model: 'b',
			familyBPrompt: 'x',
			options: { additionalBodyFields: '{"output_config": {"Duration": 5}}' },
		}),
		'"output_config": is not a Family B API field: write it "OutputConfig" (Family B field names are PascalCase)',
	],
	[
		'Family A omni-video shots without Multi-Shot on',
		videoNode('familyA', 'create', {
			model: 'a',
			familyAPrompt: 'x',
			familyAOptions: {
				aspect_ratio: '16:9',
				multi_shot: 'false',
				multiPrompt: { shots: [{ index: 1, prompt: 'a', duration: '5' }] },
			},
		}),
		'"multi_shot": must be true (On) for custom shots (Shot Type "customize" or Multi-Shot Prompts)',
	],
	[
		'Family B FileInfos not a list',
		videoNode('familyB', 'create', {
			model: 'b',
			familyBPrompt: 'x',
			familyBOptions: { fileInfos: '{"a":1}' },
		}),
		'"FileInfos": must be a JSON array of objects',
	],
	[
		'Family C subjects not valid JSON',
		videoNode('familyC', 'create', {
			model: 'c',
			familyCPrompt: 'x',
			familyCOptions: { subjects: '[{oops' },
		}),
		'"subjects": must be a JSON array of objects',
	],
	[
		'long-running sampleCount < 1',
		videoNode('longRunning', 'create', {
			model: 'veo',
			longRunningInstances: { instances: [{ prompt: 'x' }] },
			longRunningParameters: { sampleCount: 0 },
		}),
		'"parameters.sampleCount": must be at least 1',
	],
	[
		'additional body fields overriding a limit',
		videoNode('generic', 'create', {
			model: 'g',
			genericPrompt: 'x',
			options: { additionalBodyFields: '{"duration": 8}' },
		}),
		'"duration": must be 6 or 10 seconds',
	],
];

describe('Model Gateway Video: limits are enforced before anything is sent', () => {
	it.each(cases)('%s', async (_name, node, message) => {
		const result = await runNode(node, {
			credentials: gateway.credentials(),
			input: [{ json: {} }, { json: {} }],
		});
		const error = result.error('Node Under Test');
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe(`Item 0: ${message}`);
		expect(gateway.simulator.requests).toHaveLength(0);
	});

	it('accepts the limits themselves (7 images, 1 video, 3 elements, cfg_scale 0 and 1)', async () => {
		const result = await runNode(
			omni(
				{ videoList: videoList(1), elementList: elementList(3), cfg_scale: '={{ $json.cfg }}' },
				{ familyAImageList: images(7) },
			),
			{ credentials: gateway.credentials(), input: [{ json: { cfg: 0 } }, { json: { cfg: 1 } }] },
		);
		expect(result.error('Node Under Test')).toBeUndefined();
		const requests = gateway.simulator.requestsTo('POST', '/vendor-a/v1/videos/omni-video');
		const bodies = requests.map(
			(request) =>
				request.body as {
					image_list: unknown[];
					video_list: unknown[];
					element_list: unknown[];
					cfg_scale: number;
				},
		);
		expect(bodies.map((body) => body.cfg_scale)).toEqual([0, 1]);
		expect(
			bodies.map((body) => [
				body.image_list.length,
				body.video_list.length,
				body.element_list.length,
			]),
		).toEqual([
			[7, 1, 3],
			[7, 1, 3],
		]);
		expect(requests.map((request) => request.status)).toEqual([200, 200]);
	});

	it('names the failing item under Continue On Fail and still sends the valid ones', async () => {
		const result = await runNode(
			{
				...videoNode('generic', 'create', {
					model: 'g',
					genericPrompt: '={{ $json.prompt }}',
					genericOptions: { duration: '={{ $json.duration }}' },
				}),
				continueOnFail: true,
			},
			{
				credentials: gateway.credentials(),
				input: [{ json: { prompt: 'ok', duration: 6 } }, { json: { prompt: 'bad', duration: 8 } }],
			},
		);
		expect(result.items).toHaveLength(2);
		expect(result.items[0].json).toMatchObject({ family: 'generic', status: 'queued' });
		expect(result.items[1].json.error).toBe('Item 1: "duration": must be 6 or 10 seconds');
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		expect(gateway.simulator.requestsTo('POST', '/v1/videos')).toHaveLength(1);
	});

	it('rejects additional body fields that are not a JSON object', async () => {
		const result = await runNode(
			videoNode('generic', 'create', {
				model: 'g',
				genericPrompt: 'x',
				options: { additionalBodyFields: '[1,2]' },
			}),
			{ credentials: gateway.credentials() },
		);
		expect(result.error('Node Under Test')?.message).toBe(
			'Item 0: "Additional Body Fields": must be a JSON object, and is [1,2]',
		);
		expect(gateway.simulator.requests).toHaveLength(0);
	});
});

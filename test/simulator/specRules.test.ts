import { PNG_FILE } from './files';
import { startSimulator, type Simulator } from './index';

/**
 * Bodies the spec forbids are refused and recorded as `invalid-body` (each leniency the
 * simulator once had), and bodies the spec allows are accepted (each over-strict rule it once
 * had). README: "Behaviour per endpoint", "Create checks".
 */

let sim: Simulator;

beforeAll(async () => {
	sim = await startSimulator({ queuedMs: 20, runningMs: 20 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

async function post(host: 'base' | 'identity', path: string, body: unknown): Promise<number> {
	const response = await fetch(`${host === 'base' ? sim.baseUrl : sim.identityUrl}${path}`, {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			...(host === 'base'
				? { authorization: `Bearer ${sim.apiKey}` }
				: { 'x-access-token': sim.accessToken }),
		},
		body: JSON.stringify(body),
	});
	const answer = (await response.json()) as { code?: unknown };
	// Family A refuses inside HTTP 200 with code 1201.
	return response.status === 200 && answer.code === 1201 ? 1201 : response.status;
}

const REVIEW = '/api/overseas/asset/upload/sync';
const OMNI = '/vendor-a/v1/videos/omni-video';
const I2V = '/vendor-a/v1/videos/image2video';
const omni = { model_name: 'a', prompt: 'p', aspect_ratio: '16:9' };
const shot = { index: 1, prompt: 'a shot', duration: '5' };
const customShots = { ...omni, multi_shot: true, shot_type: 'customize' };
const familyC = { model: 'c', prompt: 'p' };
const taskS = (url: string) => ({
	model: 's',
	content: [
		{ type: 'text', text: 'p' },
		{ type: 'image_url', image_url: { url } },
	],
});
const longRunning = (instance: object, parameters: object = {}) => ({
	instances: [instance],
	parameters,
});
const LONG_RUNNING = '/v1beta/models/veo:predictLongRunning';
const image = (bytes: string) => ({ bytesBase64Encoded: bytes, mimeType: 'image/png' });
const PNG_BASE64 = PNG_FILE.bytes.toString('base64');
const chat = (message: object) => ({ model: 'm', messages: [message] });

describe('refused and recorded as invalid-body', () => {
	it.each<[string, 'base' | 'identity', string, unknown, number]>([
		['asset review: images null', 'identity', REVIEW, { images: null }, 400],
		[
			'asset review: group_source "" without group_id',
			'identity',
			REVIEW,
			{ images: ['https://x.test/a.png'], group_source: '' },
			400,
		],
		[
			'image edit: bbox_list of strings',
			'base',
			'/v1/images/edits',
			{ model: 'm', prompt: 'p', image: ['https://x.test/a.png'], bbox_list: ['x'] },
			400,
		],
		[
			'Family A: a shot index that is not an integer',
			'base',
			OMNI,
			{ ...customShots, multi_prompt: [{ ...shot, index: 'one' }] },
			1201,
		],
		[
			'Family A: a shot prompt that is not a string',
			'base',
			OMNI,
			{ ...customShots, multi_prompt: [{ ...shot, prompt: 5 }] },
			1201,
		],
		[
			'Family A: a shot duration that is a number (the spec: a string)',
			'base',
			OMNI,
			{ ...customShots, multi_prompt: [{ ...shot, duration: 7 }] },
			1201,
		],
		[
			'Family A omni-video: custom shots without multi_shot',
			'base',
			OMNI,
			{ ...omni, shot_type: 'customize', multi_prompt: [shot] },
			1201,
		],
		[
			'Family A omni-video: element_list with voice_list',
			'base',
			OMNI,
			{ ...omni, element_list: [{ element_id: 'e1' }], voice_list: [{ voice_id: 'v1' }] },
			1201,
		],
		[
			'Family A image2video: element_list with voice_list',
			'base',
			I2V,
			{
				model_name: 'a',
				prompt: 'p',
				image: 'https://x.test/a.png',
				element_list: [{ element_id: 'e1' }],
				voice_list: [{ voice_id: 'v1' }],
			},
			1201,
		],
		[
			'Family B: snake_case output_config',
			'base',
			'/vendor-b/v1/video/generations',
			{ ModelName: 'b', Prompt: 'p', output_config: { Duration: 5 } },
			400,
		],
		[
			'Family B: snake_case seed',
			'base',
			'/vendor-b/v1/video/generations',
			{ ModelName: 'b', Prompt: 'p', seed: 1 },
			400,
		],
		[
			'Family C: images that are not URLs',
			'base',
			'/vendor-c/ent/v2/reference2video',
			{ ...familyC, images: ['not a url'] },
			400,
		],
		[
			'Family C: init_image that is not a URL',
			'base',
			'/vendor-c/ent/v2/reference2video',
			{ ...familyC, init_image: 'frame.png' },
			400,
		],
		[
			'Family C: videos that are not URLs',
			'base',
			'/vendor-c/ent/v2/reference2video',
			{ ...familyC, videos: ['ftp://x.test/v.mp4'] },
			400,
		],
		[
			'Family C: duration "abc"',
			'base',
			'/vendor-c/ent/v2/reference2video',
			{ ...familyC, duration: 'abc' },
			400,
		],
		[
			'long-running: bytesBase64Encoded that is not Base64',
			'base',
			LONG_RUNNING,
			longRunning({ prompt: 'p', image: image('not base64 at all!') }),
			400,
		],
		[
			'Task family S: a media URL that is not a URL',
			'base',
			'/v1/task/create',
			taskS('not a url'),
			400,
		],
		[
			'chat: name 123',
			'base',
			'/v1/chat/completions',
			chat({ role: 'user', content: 'x', name: 123 }),
			400,
		],
		['responses: input [{}]', 'base', '/v1/responses', { model: 'm', input: [{}] }, 400],
		[
			'responses: stream_options without stream (upstream)',
			'base',
			'/v1/responses',
			{ model: 'm', input: 'x', stream_options: { include_usage: true } },
			400,
		],
	])('%s', async (_name, host, path, body, status) => {
		expect(await post(host, path, body)).toBe(status);
		expect(sim.violations.map(({ rule, request }) => [rule, request])).toEqual([
			['invalid-body', `POST ${path}`],
		]);
	});
});

describe('accepted (rules the spec does not state)', () => {
	it.each<[string, string, unknown]>([
		['Family B without Prompt or FileInfos', '/vendor-b/v1/video/generations', { ModelName: 'b' }],
		['long-running: an instance without a prompt or an image', LONG_RUNNING, longRunning({})],
		['long-running: sampleCount 8', LONG_RUNNING, longRunning({ prompt: 'p' }, { sampleCount: 8 })],
		[
			'long-running: a real Base64 image',
			LONG_RUNNING,
			longRunning({ prompt: 'p', image: image(PNG_BASE64) }),
		],
		[
			'Task family S: duration 0.5',
			'/v1/task/create',
			{ ...taskS('https://x.test/a.png'), duration: 0.5 },
		],
		[
			'responses: truncation another strategy',
			'/v1/responses',
			{ model: 'm', input: 'x', truncation: 'custom' },
		],
		['responses: max_tool_calls 0', '/v1/responses', { model: 'm', input: 'x', max_tool_calls: 0 }],
		[
			'responses: a typed input item without a role',
			'/v1/responses',
			{ model: 'm', input: [{ type: 'function_call_output', call_id: 'c', output: 'ok' }] },
		],
		['Family A: custom shots with multi_shot', OMNI, { ...customShots, multi_prompt: [shot] }],
		['Family C: duration "5"', '/vendor-c/ent/v2/reference2video', { ...familyC, duration: '5' }],
		[
			'chat: name as a string',
			'/v1/chat/completions',
			chat({ role: 'user', content: 'x', name: 'ann' }),
		],
	])('%s', async (_name, path, body) => {
		expect(await post('base', path, body)).toBe(200);
		expect(sim.violations).toEqual([]);
	});
});

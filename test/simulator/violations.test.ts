import { startSimulator, VIOLATION_RULES, type Simulator } from './index';

/**
 * Every kind of spec violation the simulator records (README, "Spec violations"), and the
 * requests that keep to the spec and record nothing.
 */

let sim: Simulator;

beforeAll(async () => {
	sim = await startSimulator({ queuedMs: 20, runningMs: 20 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

async function send(
	method: string,
	url: string,
	body?: unknown,
	headers: Record<string, string> = {},
	signal?: AbortSignal,
): Promise<number> {
	const response = await fetch(url, {
		method,
		headers: { 'content-type': 'application/json', ...headers },
		body: body === undefined ? undefined : JSON.stringify(body),
		signal,
	});
	await response.arrayBuffer();
	return response.status;
}

/** Waits (bounded) until the simulator's state shows `done`. */
async function until(done: () => boolean): Promise<void> {
	for (let round = 0; round < 200 && !done(); round++)
		await new Promise((resolve) => setTimeout(resolve, 10));
	expect(done()).toBe(true);
}

const key = () => ({ authorization: `Bearer ${sim.apiKey}` });
const token = () => ({ 'x-access-token': sim.accessToken });
const rules = () => sim.violations.map((violation) => violation.rule);
const CHAT = { model: 'm', messages: [{ role: 'user', content: 'hello' }] };

describe('recorded violations', () => {
	it('names nine kinds', () => {
		expect(VIOLATION_RULES).toHaveLength(9);
	});

	it('a missing or wrong credential, on both hosts', async () => {
		await send('POST', `${sim.baseUrl}/v1/chat/completions`, CHAT);
		await send('POST', `${sim.baseUrl}/v1/chat/completions`, CHAT, {
			authorization: 'Bearer wrong',
		});
		await send('POST', `${sim.identityUrl}/api/overseas/asset/upload/sync`, { images: [] });
		await send(
			'POST',
			`${sim.identityUrl}/api/overseas/asset/upload/sync`,
			{ images: [] },
			{
				'x-access-token': 'wrong',
			},
		);
		expect(sim.violations.map(({ rule, request }) => [rule, request])).toEqual([
			['missing-credential', 'POST /v1/chat/completions'],
			['wrong-credential', 'POST /v1/chat/completions'],
			['missing-credential', 'POST /api/overseas/asset/upload/sync'],
			['wrong-credential', 'POST /api/overseas/asset/upload/sync'],
		]);
	});

	it.each([
		['chat', '/v1/chat/completions', { model: 'm', messages: [] }, 400],
		['responses', '/v1/responses', { model: 'm', input: 5 }, 400],
		['image edit', '/v1/images/edits', { model: 'm', prompt: 'p', image: [] }, 400],
		['Task family S', '/v1/task/create', { model: 'm' }, 400],
		['Family A (HTTP 200, code 1201)', '/vendor-a/v1/videos/omni-video', { prompt: 'p' }, 200],
		['generic video', '/v1/videos', { prompt: 'p' }, 400],
		['Family B', '/vendor-b/v1/video/generations', {}, 400],
		['Family C', '/vendor-c/ent/v2/reference2video', {}, 400],
		['long-running', '/v1beta/models/veo:predictLongRunning', { instances: 'x' }, 400],
	])('a body %s refuses', async (_name, path, body, status) => {
		expect(await send('POST', `${sim.baseUrl}${path}`, body, key())).toBe(status);
		expect(sim.violations.map(({ rule, request }) => [rule, request])).toEqual([
			['invalid-body', `POST ${path}`],
		]);
	});

	it('a body the asset review refuses', async () => {
		expect(
			await send(
				'POST',
				`${sim.identityUrl}/api/overseas/asset/upload/sync`,
				{ images: [] },
				token(),
			),
		).toBe(400);
		expect(rules()).toEqual(['invalid-body']);
	});

	it.each([
		['Task family S', '/v1/task/get/cgt-unknown', 404],
		['Family A (HTTP 200, code 1203)', '/vendor-a/v1/videos/omni-video/123', 200],
		['generic, B and C', '/v1/videos/video_unknown', 404],
		['long-running', '/v1/models/veo/operations/unknown', 404],
	])('an unknown id: %s', async (_name, path, status) => {
		expect(await send('GET', `${sim.baseUrl}${path}`, undefined, key())).toBe(status);
		expect(sim.violations.map(({ rule, request }) => [rule, request])).toEqual([
			['unknown-id', `GET ${path}`],
		]);
	});

	it('an unknown route, on both hosts', async () => {
		expect(await send('GET', `${sim.baseUrl}/v1/models`, undefined, key())).toBe(404);
		expect(await send('GET', `${sim.identityUrl}/api/unknown`, undefined, token())).toBe(404);
		expect(rules()).toEqual(['unknown-route', 'unknown-route']);
	});

	it('a create repeated after a 5xx, a dropped connection or a timeout', async () => {
		const chat = `${sim.baseUrl}/v1/chat/completions`;
		sim.injectFault({ method: 'POST', path: '/v1/chat/completions', kind: 'status', status: 502 });
		expect(await send('POST', chat, CHAT, key())).toBe(502);
		expect(await send('POST', chat, CHAT, key())).toBe(200);

		const edit = { model: 'm', prompt: 'p', image: ['https://x.test/a.png'] };
		sim.injectFault({ method: 'POST', path: '/v1/images/edits', kind: 'drop' });
		await expect(send('POST', `${sim.baseUrl}/v1/images/edits`, edit, key())).rejects.toThrow();
		expect(await send('POST', `${sim.baseUrl}/v1/images/edits`, edit, key())).toBe(200);

		const video = { model: 'g', prompt: 'a cat' };
		sim.injectFault({ method: 'POST', path: '/v1/videos', kind: 'delay', ms: 300 });
		await expect(
			send('POST', `${sim.baseUrl}/v1/videos`, video, key(), AbortSignal.timeout(50)),
		).rejects.toThrow();
		// The simulator notices the abandoned request by the time it answers it.
		await until(() => sim.requestsTo('POST', '/v1/videos')[0]?.status !== undefined);
		expect(await send('POST', `${sim.baseUrl}/v1/videos`, video, key())).toBe(200);

		expect(sim.violations.map(({ rule, request }) => [rule, request])).toEqual([
			['create-repeated-after-ambiguous-failure', 'POST /v1/chat/completions'],
			['create-repeated-after-ambiguous-failure', 'POST /v1/images/edits'],
			['create-repeated-after-ambiguous-failure', 'POST /v1/videos'],
		]);
	});

	it('records nothing for a create repeated after a 429 or a 4xx, another body, or a repeated read', async () => {
		const chat = `${sim.baseUrl}/v1/chat/completions`;
		sim.injectFault({ method: 'POST', path: '/v1/chat/completions', kind: 'status', status: 429 });
		expect(await send('POST', chat, CHAT, key())).toBe(429);
		expect(await send('POST', chat, CHAT, key())).toBe(200);
		sim.injectFault({ method: 'POST', path: '/v1/chat/completions', kind: 'status', status: 400 });
		expect(await send('POST', chat, { ...CHAT, n: 1 }, key())).toBe(400);
		expect(await send('POST', chat, { ...CHAT, n: 1 }, key())).toBe(200);
		sim.injectFault({ method: 'POST', path: '/v1/chat/completions', kind: 'status', status: 500 });
		expect(await send('POST', chat, { ...CHAT, n: 2 }, key())).toBe(500);
		expect(await send('POST', chat, { ...CHAT, n: 3 }, key())).toBe(200);
		const created = await fetch(`${sim.baseUrl}/v1/videos`, {
			method: 'POST',
			headers: { 'content-type': 'application/json', ...key() },
			body: JSON.stringify({ model: 'g', prompt: 'a cat' }),
		});
		const { id } = (await created.json()) as { id: string };
		sim.injectFault({ method: 'GET', path: '/v1/videos/', kind: 'status', status: 503 });
		expect(await send('GET', `${sim.baseUrl}/v1/videos/${id}`, undefined, key())).toBe(503);
		expect(await send('GET', `${sim.baseUrl}/v1/videos/${id}`, undefined, key())).toBe(200);
		expect(sim.violations).toEqual([]);
	});

	it('reset() forgets the ambiguous creates', async () => {
		sim.injectFault({ method: 'POST', path: '/v1/chat/completions', kind: 'status', status: 500 });
		await send('POST', `${sim.baseUrl}/v1/chat/completions`, CHAT, key());
		sim.reset();
		await send('POST', `${sim.baseUrl}/v1/chat/completions`, CHAT, key());
		expect(sim.violations).toEqual([]);
	});
});

import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';

import { closedPortUrl } from '../simulator';
import { runNode } from './harness';
import { startRateLimitingGateway } from './rateLimitingGateway';
import { useSimulator } from './simulatorFixture';

const gateway = useSimulator();
const FAST_RETRIES = { maxRetries: 3, baseDelayMs: 20, maxDelayMs: 5_000 };

function probe(request: object, retryPolicy: object = FAST_RETRIES) {
	return {
		type: 'test.transportProbe',
		parameters: { request: JSON.stringify(request), retryPolicy: JSON.stringify(retryPolicy) },
	};
}

const TASK_PATH = '/vendor-a/v1/videos/omni-video/no-such-task';

/**
 * Every HTTP request this process starts towards `host` ('127.0.0.1:<port>') while `action`
 * runs, as 'METHOD /path': counts attempts that never reach a server (refused connections).
 */
async function requestsStartedTo<T>(
	host: string,
	action: () => Promise<T>,
): Promise<{ result: T; attempts: string[] }> {
	const attempts: string[] = [];
	const onStart = (message: unknown): void => {
		const { request } = message as { request: ClientRequest };
		if (request.getHeader('host') === host) attempts.push(`${request.method} ${request.path}`);
	};
	subscribe('http.client.request.start', onStart);
	try {
		return { result: await action(), attempts };
	} finally {
		unsubscribe('http.client.request.start', onStart);
	}
}

describe('transport: reads are retried safely', () => {
	it('repeats a GET after 429 and waits as long as Retry-After (seconds) says', async () => {
		gateway.expectViolations('unknown-id'); // the probe reads a task the gateway does not know
		const sim = gateway.simulator;
		sim.injectFault({
			method: 'GET',
			path: TASK_PATH,
			kind: 'status',
			status: 429,
			headers: { 'Retry-After': '1' },
			body: { error: { message: 'slow down' } },
		});
		const result = await runNode(probe({ method: 'GET', path: TASK_PATH, kind: 'read' }), {
			credentials: gateway.credentials(),
		});
		expect(result.error('Node Under Test')).toBeUndefined();
		const attempts = sim.requestsTo('GET', TASK_PATH);
		expect(attempts).toHaveLength(2);
		expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(950);
		expect(result.items[0].json.body).toMatchObject({ code: 1203 });
	});

	it('honours retry-after-ms and gives up after the retry budget with the gateway message', async () => {
		const sim = gateway.simulator;
		sim.injectFault({
			method: 'GET',
			path: TASK_PATH,
			kind: 'status',
			status: 503,
			times: 10,
			headers: { 'retry-after-ms': '30' },
			body: { error: { message: 'gateway overloaded' } },
		});
		const result = await runNode(probe({ method: 'GET', path: TASK_PATH, kind: 'read' }), {
			credentials: gateway.credentials(),
		});
		expect(sim.requestsTo('GET', TASK_PATH)).toHaveLength(4);
		const error = result.error('Node Under Test');
		expect(error?.message).toBe('gateway overloaded');
		expect(error).toMatchObject({ httpCode: '503' });
	});

	it('retries a GET after a dropped connection', async () => {
		gateway.expectViolations('unknown-id'); // the probe reads a task the gateway does not know
		const sim = gateway.simulator;
		sim.injectFault({ method: 'GET', path: TASK_PATH, kind: 'drop' });
		const result = await runNode(probe({ method: 'GET', path: TASK_PATH, kind: 'read' }), {
			credentials: gateway.credentials(),
		});
		expect(result.error('Node Under Test')).toBeUndefined();
		expect(sim.requestsTo('GET', TASK_PATH)).toHaveLength(2);
	});

	it('does not wait for a Retry-After longer than the policy allows', async () => {
		const sim = gateway.simulator;
		sim.injectFault({
			method: 'GET',
			path: TASK_PATH,
			kind: 'status',
			status: 429,
			headers: { 'Retry-After': '3600' },
			body: { error: { message: 'come back in an hour' } },
		});
		const result = await runNode(probe({ method: 'GET', path: TASK_PATH, kind: 'read' }), {
			credentials: gateway.credentials(),
		});
		expect(sim.requestsTo('GET', TASK_PATH)).toHaveLength(1);
		expect(result.error('Node Under Test')?.message).toBe('come back in an hour');
	});
});

describe('transport: creates are never sent twice', () => {
	const create = {
		method: 'POST',
		path: '/v1/videos',
		kind: 'create',
		body: { model: 'video-1', prompt: 'a cat' },
	};

	it('does not repeat a POST after a 500', async () => {
		const sim = gateway.simulator;
		sim.injectFault({
			method: 'POST',
			path: '/v1/videos',
			kind: 'status',
			status: 500,
			body: { error: { message: 'internal upstream failure' } },
		});
		const result = await runNode(probe(create), { credentials: gateway.credentials() });
		expect(sim.requestsTo('POST', '/v1/videos')).toHaveLength(1);
		expect(result.error('Node Under Test')?.message).toBe('internal upstream failure');
	});

	it('does not repeat a POST whose connection dropped (it may have reached the gateway)', async () => {
		const sim = gateway.simulator;
		sim.injectFault({ method: 'POST', path: '/v1/videos', kind: 'drop' });
		const result = await runNode(probe(create), { credentials: gateway.credentials() });
		expect(sim.requestsTo('POST', '/v1/videos')).toHaveLength(1);
		const error = result.error('Node Under Test');
		expect(error?.message).toBe(
			'The connection to the gateway broke off during POST /v1/videos (ECONNRESET)',
		);
		expect(error?.description).toBe(
			'It was not sent again, because the gateway may already have received it and repeating it could bill twice; check the gateway before retrying.',
		);
		// One message: not n8n's generic "You can retry the request immediately" next to ours.
		expect(JSON.stringify(result.run.data)).not.toMatch(/retry the request immediately/i);
	});

	it('does not repeat a POST that timed out', async () => {
		const sim = gateway.simulator;
		sim.injectFault({ method: 'POST', path: '/v1/videos', kind: 'delay', ms: 1_500 });
		const result = await runNode(probe({ ...create, timeoutMs: 300 }), {
			credentials: gateway.credentials(),
		});
		expect(sim.requestsTo('POST', '/v1/videos')).toHaveLength(1);
		expect(result.error('Node Under Test')?.message).toMatch(/did not answer POST \/v1\/videos/);
	});

	it('repeats a POST only when the connection was refused (the request never left)', async () => {
		const credentials = gateway.credentials();
		const closedUrl = await closedPortUrl();
		credentials.modelGatewayApi.baseUrl = closedUrl;
		const { result, attempts } = await requestsStartedTo(new URL(closedUrl).host, () =>
			runNode(probe(create, { maxRetries: 2, baseDelayMs: 10, maxDelayMs: 100 }), {
				credentials,
			}),
		);
		// The first try and both retries: nothing was sent, so repeating cannot bill twice.
		expect(attempts).toEqual(['POST /v1/videos', 'POST /v1/videos', 'POST /v1/videos']);
		const error = result.error('Node Under Test');
		expect(error?.message).toMatch(/could not be reached.*ECONNREFUSED/);
		expect(error?.description ?? '').not.toMatch(/not sent again/);
	});
});

describe('transport: rate limits are waited out, for every request kind', () => {
	it('repeats a POST (a create) after 429, as retry-after-ms says', async () => {
		const sim = gateway.simulator;
		sim.injectFault({
			method: 'POST',
			path: '/v1/videos',
			kind: 'status',
			status: 429,
			headers: { 'retry-after-ms': '200' },
			body: { error: { message: 'rate limit reached' } },
		});
		const result = await runNode(
			probe({
				method: 'POST',
				path: '/v1/videos',
				kind: 'create',
				body: { model: 'g', prompt: 'x' },
			}),
			{ credentials: gateway.credentials() },
		);
		expect(result.error('Node Under Test')).toBeUndefined();
		const attempts = sim.requestsTo('POST', '/v1/videos');
		expect(attempts).toHaveLength(2);
		expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(190);
		expect(result.items[0].json.body).toMatchObject({ status: 'queued' });
	});

	it('backs off when a 429 says nothing, and reports the gateway words once the budget is spent', async () => {
		const sim = gateway.simulator;
		sim.injectFault({
			method: 'POST',
			path: '/v1/videos',
			kind: 'status',
			status: 429,
			times: 3,
			body: { error: { message: 'rate limit reached' } },
		});
		const result = await runNode(
			probe(
				{ method: 'POST', path: '/v1/videos', kind: 'create', body: { model: 'g', prompt: 'x' } },
				{ ...FAST_RETRIES, maxRateLimitWaits: 2 },
			),
			{ credentials: gateway.credentials() },
		);
		const attempts = sim.requestsTo('POST', '/v1/videos');
		expect(attempts).toHaveLength(3);
		// 20 ms, then 40 ms: the policy's backoff.
		expect(attempts[2].at - attempts[1].at).toBeGreaterThanOrEqual(35);
		expect(result.error('Node Under Test')).toMatchObject({
			message: 'rate limit reached',
			httpCode: '429',
		});
	});

	it('repeats a streamed chat after 429', async () => {
		const sim = gateway.simulator;
		sim.injectFault({
			method: 'POST',
			path: '/v1/chat/completions',
			kind: 'status',
			status: 429,
			headers: { 'Retry-After': '0' },
			body: { error: { message: 'rate limit reached' } },
		});
		const result = await runNode(
			{
				type: 'modelGatewayChat',
				parameters: {
					model: 'chat-model-1',
					messages: { values: [{ role: 'user', content: 'hi' }] },
					options: { stream: true },
				},
			},
			{ credentials: gateway.credentials() },
		);
		expect(result.error('Node Under Test')).toBeUndefined();
		expect(result.items[0].json.content).toBe('Echo: hi');
		expect(sim.requestsTo('POST', '/v1/chat/completions')).toHaveLength(2);
	});

	it('a batch of 50 creates, 5 in flight, against a gateway that refuses every 5th request: 50 tasks, 50 accepted creates, the node pauses as a whole', async () => {
		const sim = gateway.simulator;
		const RETRY_AFTER_MS = 300;
		const limiter = await startRateLimitingGateway(sim.baseUrl, {
			every: 5,
			retryAfterMs: RETRY_AFTER_MS,
		});
		try {
			const credentials = gateway.credentials();
			credentials.modelGatewayApi.baseUrl = limiter.baseUrl;
			const result = await runNode(
				{
					type: 'modelGatewayVideo',
					parameters: {
						family: 'generic',
						operation: 'create',
						model: 'g',
						genericPrompt: 'a cat',
						options: { concurrency: 5 },
					},
				},
				{
					credentials,
					input: Array.from({ length: 50 }, (_, index) => ({ json: { index } })),
				},
			);
			expect(result.error('Node Under Test')).toBeUndefined();
			expect(result.items).toHaveLength(50);
			const taskIds = new Set(result.items.map((item) => item.json.taskId));
			expect(taskIds.size).toBe(50);
			expect(result.items.map((item) => item.pairedItem)).toEqual(
				Array.from({ length: 50 }, (_, item) => ({ item })),
			);
			expect(sim.requestsTo('POST', '/v1/videos')).toHaveLength(50);
			const limited = limiter.arrivals.filter((arrival) => arrival.limited);
			expect(limited.length).toBe(Math.floor(limiter.arrivals.length / 5));
			expect(limiter.arrivals).toHaveLength(50 + limited.length);
			// While one 429 is waited out, no other item of the node starts a request: only the
			// (at most 4) requests already on the wire may still arrive. Without the shared
			// pause, 5 workers would send dozens in that time.
			for (const { at } of limited) {
				const during = limiter.arrivals.filter(
					(arrival) => arrival.at > at && arrival.at < at + RETRY_AFTER_MS - 20,
				);
				expect(during.length).toBeLessThanOrEqual(4);
			}
		} finally {
			await limiter.close();
		}
	});
});

describe('transport: errors', () => {
	it('carries the gateway message but never the API key, even when the gateway echoes it', async () => {
		const sim = gateway.simulator;
		sim.injectFault({
			method: 'POST',
			path: '/v1/videos',
			kind: 'status',
			status: 400,
			body: {
				error: { message: `bad request for key ${sim.apiKey}`, type: 'invalid_request_error' },
			},
		});
		const result = await runNode(
			probe({
				method: 'POST',
				path: '/v1/videos',
				kind: 'create',
				body: { model: 'm', prompt: 'p' },
			}),
			{ credentials: gateway.credentials() },
		);
		const error = result.error('Node Under Test');
		expect(error?.message).toBe('bad request for key ***');
		expect(JSON.stringify(result.run.data)).not.toContain(sim.apiKey);
	});

	it('reports a wrong API key with the gateway 401 message', async () => {
		gateway.expectViolations('wrong-credential');
		const result = await runNode(probe({ method: 'GET', path: TASK_PATH, kind: 'read' }), {
			credentials: gateway.credentials({ apiKey: 'wrong-key-123' }),
		});
		const error = result.error('Node Under Test');
		expect(error).toMatchObject({ httpCode: '401' });
		expect(error?.message).toMatch(/invalid api key/i);
		expect(JSON.stringify(result.run.data)).not.toContain('wrong-key-123');
	});

	it('turns a Family A business error inside HTTP 200 into a failure', async () => {
		gateway.expectViolations('unknown-id'); // the probe reads a task the gateway does not know
		const result = await runNode(
			probe({ method: 'GET', path: TASK_PATH, kind: 'read', businessFailureOf: 'familyA' }),
			{ credentials: gateway.credentials() },
		);
		const error = result.error('Node Under Test');
		expect(error?.message).toBe('task not found');
		expect(error?.description).toMatch(/error code 1203/);
	});

	it('turns a Family S business error inside HTTP 200 into a failure', async () => {
		const result = await runNode(
			probe({
				method: 'POST',
				path: '/v1/task/create',
				kind: 'create',
				businessFailureOf: 'taskS',
				body: { model: 's-1', content: [{ type: 'text', text: 'BUSINESS_ERROR' }] },
			}),
			{ credentials: gateway.credentials() },
		);
		expect(result.error('Node Under Test')?.message).toBe('quota exceeded');
	});

	it('reports a body that is not JSON clearly', async () => {
		gateway.simulator.injectFault({ method: 'GET', path: TASK_PATH, kind: 'malformed-json' });
		const result = await runNode(probe({ method: 'GET', path: TASK_PATH, kind: 'read' }), {
			credentials: gateway.credentials(),
		});
		expect(result.error('Node Under Test')?.message).toMatch(/not valid JSON/);
	});

	it('sends X-Trace-ID on the base host only, and never an Authorization header to the identity host', async () => {
		gateway.expectViolations('unknown-id'); // the probe reads a task the gateway does not know
		const sim = gateway.simulator;
		await runNode(probe({ method: 'GET', path: TASK_PATH, kind: 'read', traceId: 'my-trace-1' }), {
			credentials: gateway.credentials(),
		});
		await runNode(
			probe({
				host: 'identity',
				method: 'POST',
				path: '/api/overseas/asset/upload/sync',
				kind: 'create',
				body: { images: ['https://cdn.example/a.png'] },
			}),
			{ credentials: gateway.credentials() },
		);
		const [base] = sim.requestsTo('GET', TASK_PATH);
		expect(base.headers['x-trace-id']).toBe('my-trace-1');
		expect(base.headers.authorization).toBe(`Bearer ${sim.apiKey}`);
		const [identity] = sim.requestsTo('POST', '/api/overseas/asset/upload/sync');
		expect(identity.headers['x-access-token']).toBe(sim.accessToken);
		expect(identity.headers.authorization).toBeUndefined();
		expect(identity.headers['x-trace-id']).toBeUndefined();
	});
});

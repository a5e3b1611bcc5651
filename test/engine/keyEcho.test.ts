import type { Fault } from '../simulator';
import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';

/**
 * A gateway that echoes the API key on every error path Chat and Responses have: in the
 * message, in nested fields and as `Bearer <key>`. The key must appear nowhere: not in the
 * item error, not in an error item (Continue On Fail), not in n8n's execution data.
 */

const gateway = useSimulator();
const NODE = 'Node Under Test';

/** The gateway's error, echoing the key three ways. */
const echoingError = (key: string) => ({
	message: `Invalid request for key ${key}`,
	type: 'invalid_request_error',
	param: { authorization: `Bearer ${key}` },
	details: [{ received: key }],
});

/**
 * Each test runs the node twice with the same body (plain, then Continue On Fail), as a user
 * re-running a workflow would: after a 5xx that second run repeats a create the gateway may
 * have processed, which the simulator records. The node itself never repeats it (transport tests).
 */
const declareRerunAfter = (faults: Fault[]): void => {
	if (faults.some((fault) => fault.kind === 'status' && fault.status >= 500))
		gateway.expectViolations('create-repeated-after-ambiguous-failure');
};

const sse = (events: Array<{ event?: string; data: object }>) =>
	events
		.map(
			({ event, data }) => `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`,
		)
		.join('');

const streamFault = (path: string, body: string): Fault => ({
	method: 'POST',
	path,
	kind: 'status',
	status: 200,
	headers: { 'content-type': 'text/event-stream' },
	body,
});

const htmlPage = (key: string) =>
	`<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1><p>upstream rejected Authorization: Bearer ${key}</p></body></html>`;

interface ErrorPath {
	name: string;
	stream: boolean;
	fault: (key: string) => Fault;
	message: string;
}

const CHAT = '/v1/chat/completions';
const RESPONSES = '/v1/responses';

const chatPaths: ErrorPath[] = [
	{
		name: 'HTTP 400 body',
		stream: false,
		fault: (key) => ({
			method: 'POST',
			path: CHAT,
			kind: 'status',
			status: 400,
			body: { error: echoingError(key) },
		}),
		message: 'Invalid request for key ***',
	},
	{
		name: 'HTTP 500 body of a streamed request',
		stream: true,
		fault: (key) => ({
			method: 'POST',
			path: CHAT,
			kind: 'status',
			status: 500,
			body: { error: echoingError(key) },
		}),
		message: 'Invalid request for key ***',
	},
	{
		name: 'HTML 502 page from a proxy',
		stream: false,
		fault: (key) => ({
			method: 'POST',
			path: CHAT,
			kind: 'status',
			status: 502,
			headers: { 'content-type': 'text/html' },
			body: htmlPage(key),
		}),
		message: 'The gateway answered HTTP 502 Bad Gateway',
	},
	{
		name: 'in-stream data: {"error":…} chunk',
		stream: true,
		fault: (key) =>
			streamFault(
				CHAT,
				sse([
					{
						data: {
							id: 'chatcmpl-1',
							object: 'chat.completion.chunk',
							choices: [{ index: 0, delta: { role: 'assistant', content: 'Hel' } }],
						},
					},
					{ data: { error: echoingError(key) } },
				]),
			),
		message: 'Invalid request for key ***',
	},
];

const responsesPaths: ErrorPath[] = [
	{ ...chatPaths[0], fault: (key) => ({ ...chatPaths[0].fault(key), path: RESPONSES }) },
	{ ...chatPaths[1], fault: (key) => ({ ...chatPaths[1].fault(key), path: RESPONSES }) },
	{ ...chatPaths[2], fault: (key) => ({ ...chatPaths[2].fault(key), path: RESPONSES }) },
	{
		name: 'in-stream event: error',
		stream: true,
		fault: (key) =>
			streamFault(
				RESPONSES,
				sse([
					{
						event: 'response.created',
						data: { type: 'response.created', response: { id: 'resp_1', status: 'in_progress' } },
					},
					{ event: 'error', data: { ...echoingError(key), type: 'error' } },
				]),
			),
		message: 'Invalid request for key ***',
	},
	{
		name: 'in-stream event: response.failed',
		stream: true,
		fault: (key) =>
			streamFault(
				RESPONSES,
				sse([
					{
						event: 'response.failed',
						data: {
							type: 'response.failed',
							response: { id: 'resp_1', status: 'failed', error: echoingError(key) },
						},
					},
				]),
			),
		message: 'Invalid request for key ***',
	},
];

const nodes = [
	{
		type: 'modelGatewayChat',
		paths: chatPaths,
		parameters: (stream: boolean) => ({
			model: 'chat-model-1',
			messages: { values: [{ role: 'user', content: 'hello' }] },
			options: { stream },
		}),
	},
	{
		type: 'modelGatewayResponses',
		paths: responsesPaths,
		parameters: (stream: boolean) => ({
			model: 'resp-model-1',
			input: 'hello',
			options: { stream },
		}),
	},
];

describe.each(nodes)('$type: the API key never appears', ({ type, paths, parameters }) => {
	it.each(paths)('$name', async ({ stream, fault, message }) => {
		const sim = gateway.simulator;
		const key = sim.apiKey;
		sim.injectFault(fault(key));
		sim.injectFault(fault(key));
		declareRerunAfter([fault(key)]);
		const failed = await runNode(
			{ type, parameters: parameters(stream) },
			{ credentials: gateway.credentials() },
		);
		const error = failed.error(NODE);
		expect(error?.message).toBe(message);
		expect(JSON.stringify(failed.run.data)).not.toContain(key);
		const errorResponse = (error as unknown as { errorResponse?: object })?.errorResponse;
		expect(JSON.stringify(errorResponse ?? {})).not.toContain(key);

		const continued = await runNode(
			{ type, parameters: parameters(stream), continueOnFail: true },
			{ credentials: gateway.credentials() },
		);
		expect(continued.items[0].json.error).toBe(message);
		expect(JSON.stringify(continued.run.data)).not.toContain(key);
	});
});

it('keeps the gateway message of an echoed error body and its JSON intact', async () => {
	const sim = gateway.simulator;
	sim.injectFault(chatPaths[0].fault(sim.apiKey));
	const result = await runNode(
		{ type: 'modelGatewayChat', parameters: nodes[0].parameters(false) },
		{ credentials: gateway.credentials() },
	);
	const error = result.error(NODE) as unknown as { errorResponse: object; description: string };
	expect(error.errorResponse).toMatchObject({
		body: {
			error: {
				message: 'Invalid request for key ***',
				param: { authorization: 'Bearer ***' },
				details: [{ received: '***' }],
			},
		},
	});
});

it('reads an HTML error page as a title and a short text excerpt', async () => {
	const sim = gateway.simulator;
	sim.injectFault(chatPaths[2].fault(sim.apiKey));
	const result = await runNode(
		{ type: 'modelGatewayChat', parameters: nodes[0].parameters(false) },
		{ credentials: gateway.credentials() },
	);
	const error = result.error(NODE);
	expect(error?.message).toBe('The gateway answered HTTP 502 Bad Gateway');
	expect(error?.description).toMatch(
		/^HTTP 502 from POST \/v1\/chat\/completions \(X-Trace-ID [^)]+\)\. The answer was an HTML page: "502 Bad Gateway Bad Gateway upstream rejected Authorization: Bearer \*\*\*"$/,
	);
});

/*
 * Asset Review, Image Edit and Video: every error path each has, driven by a gateway (or
 * identity host) that echoes the secret in the message, in nested fields and as `Bearer
 * <secret>`. Some paths end in an output item rather than an error (a failed video task, a
 * failed review with per-asset verdicts): the secret must not appear there either.
 */

interface SecretPath {
	name: string;
	/** The faults to inject, given the secret; injected twice (plain and Continue On Fail runs). */
	faults: (secret: string) => Fault[];
	/** The node's error message, or `output` when the path ends in an output item. */
	message: string | 'output';
}

const echoing = (secret: string) => ({
	message: `Invalid request for key ${secret}`,
	param: { authorization: `Bearer ${secret}` },
	details: [{ received: secret }],
});

const status = (
	method: string,
	path: string,
	code: number,
	body: unknown,
	headers?: Record<string, string>,
): Fault => ({ method, path, kind: 'status', status: code, body, ...(headers ? { headers } : {}) });

const REVIEW = '/api/overseas/asset/upload/sync';
const EDITS = '/v1/images/edits';
const VIDEOS = '/v1/videos';
const FAMILY_A_OMNI = '/vendor-a/v1/videos/omni-video';

const reviewPaths: SecretPath[] = [
	{
		name: 'HTTP 401 (the token rejected)',
		faults: (secret) => [status('POST', REVIEW, 401, { error: echoing(secret) })],
		message: 'The identity host rejected the access token (HTTP 401: Invalid request for key ***)',
	},
	{
		name: 'HTTP 500 body',
		faults: (secret) => [status('POST', REVIEW, 500, { error: echoing(secret) })],
		message: 'Invalid request for key ***',
	},
	{
		name: 'HTML 502 page from a proxy',
		faults: (secret) => [
			status('POST', REVIEW, 502, htmlPage(secret), { 'content-type': 'text/html' }),
		],
		message: 'The gateway answered HTTP 502 Bad Gateway',
	},
	{
		name: 'business error code inside HTTP 200',
		faults: (secret) => [
			status('POST', REVIEW, 200, { code: 400, ...echoing(secret), error_message: secret }),
		],
		message: 'Invalid request for key ***',
	},
	{
		name: 'failed review without per-asset results',
		faults: (secret) => [
			status('POST', REVIEW, 200, {
				code: 200,
				status: 'failed',
				error_message: `review failed for token ${secret}`,
				result: { items: [], echo: echoing(secret) },
			}),
		],
		message: 'The asset review failed: review failed for token ***',
	},
	{
		name: 'an answer that is not a review result',
		faults: (secret) => [status('POST', REVIEW, 200, [`Bearer ${secret}`, { token: secret }])],
		message: 'The identity host answered with something that is not an asset review result',
	},
	{
		name: 'failed review with per-asset verdicts (output)',
		faults: (secret) => [
			status('POST', REVIEW, 200, {
				code: 200,
				status: 'failed',
				error_message: `token ${secret} partly failed`,
				result: {
					items: [
						{
							source_url: 'https://cdn.example/a.png',
							error_code: 'DENIED',
							error_message: `Bearer ${secret} may not upload`,
						},
					],
				},
			}),
		],
		message: 'output',
	},
];

const editPaths: SecretPath[] = [
	{
		name: 'HTTP 400 body',
		faults: (secret) => [status('POST', EDITS, 400, { error: echoing(secret) })],
		message: 'Invalid request for key ***',
	},
	{
		name: 'HTTP 500 body',
		faults: (secret) => [status('POST', EDITS, 500, { error: echoing(secret) })],
		message: 'Invalid request for key ***',
	},
	{
		name: 'HTML 502 page from a proxy',
		faults: (secret) => [
			status('POST', EDITS, 502, htmlPage(secret), { 'content-type': 'text/html' }),
		],
		message: 'The gateway answered HTTP 502 Bad Gateway',
	},
	{
		name: 'HTTP 200 whose body is not JSON',
		faults: (secret) => [
			status('POST', EDITS, 200, `upstream said: Authorization Bearer ${secret}`, {
				'content-type': 'text/plain',
			}),
		],
		message: 'The gateway answered with a body that is not valid JSON',
	},
];

const videoCreatePaths: SecretPath[] = [
	{
		name: 'create: HTTP 400 body',
		faults: (secret) => [status('POST', VIDEOS, 400, { error: echoing(secret) })],
		message: 'Invalid request for key ***',
	},
	{
		name: 'create: HTML 502 page from a proxy',
		faults: (secret) => [
			status('POST', VIDEOS, 502, htmlPage(secret), { 'content-type': 'text/html' }),
		],
		message: 'The gateway answered HTTP 502 Bad Gateway',
	},
];

const videoFamilyAPaths: SecretPath[] = [
	{
		name: 'create: business error inside HTTP 200',
		faults: (secret) => [status('POST', FAMILY_A_OMNI, 200, { code: 1201, ...echoing(secret) })],
		message: 'Invalid request for key ***',
	},
];

const videoStatusPaths: SecretPath[] = [
	{
		name: 'get status: HTTP 404 body',
		faults: (secret) => [status('GET', VIDEOS, 404, { error: echoing(secret) })],
		message: 'Invalid request for key ***',
	},
	{
		name: 'get status: a failed task whose error echoes the key (output)',
		faults: (secret) => [
			status('GET', VIDEOS, 200, {
				id: 'video_1',
				object: 'video',
				model: 'g',
				status: 'failed',
				error: { code: 'upstream', message: `upstream refused Bearer ${secret}`, key: secret },
			}),
		],
		message: 'output',
	},
];

const secretNodes = [
	{
		node: 'Asset Review',
		secret: () => gateway.simulator.accessToken,
		paths: reviewPaths,
		spec: {
			type: 'modelGatewayAssetReview',
			parameters: {
				urlSource: 'list',
				assetUrls: { values: [{ url: 'https://cdn.example/a.png' }] },
				splitByAsset: true,
			},
		},
	},
	{
		node: 'Image Edit',
		secret: () => gateway.simulator.apiKey,
		paths: editPaths,
		spec: {
			type: 'modelGatewayImageEdit',
			parameters: {
				model: 'image-edit-1',
				prompt: 'Make the sky purple',
				images: { values: [{ source: 'url', url: 'https://example.com/photo.png' }] },
			},
		},
	},
	{
		node: 'Video (generic create)',
		secret: () => gateway.simulator.apiKey,
		paths: videoCreatePaths,
		spec: {
			type: 'modelGatewayVideo',
			parameters: { family: 'generic', operation: 'create', model: 'g', genericPrompt: 'x' },
		},
	},
	{
		node: 'Video (Family A create)',
		secret: () => gateway.simulator.apiKey,
		paths: videoFamilyAPaths,
		spec: {
			type: 'modelGatewayVideo',
			parameters: {
				family: 'familyA',
				operation: 'create',
				model: 'k',
				familyAPrompt: 'a cat',
				familyAOptions: { aspect_ratio: '16:9' },
			},
		},
	},
	{
		node: 'Video (Get Status)',
		secret: () => gateway.simulator.apiKey,
		paths: videoStatusPaths,
		spec: {
			type: 'modelGatewayVideo',
			parameters: {
				family: 'generic',
				operation: 'getStatus',
				taskSource: 'manual',
				taskId: 'video_1',
			},
		},
	},
];

describe.each(secretNodes)('$node: the secret never appears', ({ secret, paths, spec }) => {
	it.each(paths)('$name', async ({ faults, message }) => {
		const key = secret();
		// One set for the plain run, one for the run with continueOnFail.
		for (const fault of [...faults(key), ...faults(key)]) gateway.simulator.injectFault(fault);
		declareRerunAfter(faults(key));

		const plain = await runNode(spec, { credentials: gateway.credentials() });
		const error = plain.error(NODE);
		if (message === 'output') {
			expect(error).toBeUndefined();
			expect(JSON.stringify(plain.items)).toContain('***');
		} else {
			expect(error?.message).toBe(message);
			const errorResponse = (error as unknown as { errorResponse?: object })?.errorResponse;
			expect(JSON.stringify(errorResponse ?? {})).not.toContain(key);
			expect(String(error?.description ?? '')).not.toContain(key);
		}
		expect(JSON.stringify(plain.items)).not.toContain(key);
		expect(JSON.stringify(plain.run.data)).not.toContain(key);

		const continued = await runNode(
			{ ...spec, continueOnFail: true },
			{
				credentials: gateway.credentials(),
			},
		);
		if (message !== 'output') expect(continued.items[0].json.error).toBe(message);
		expect(JSON.stringify(continued.run.data)).not.toContain(key);
	});
});

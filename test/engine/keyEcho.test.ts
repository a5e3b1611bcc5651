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

import { createServer, request, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { PNG_FILE } from './files';
import { closedPortUrl, DEFAULT_OPTIONS, startSimulator, type Simulator } from './index';
import { RECORDED_ANSWER_CHARS } from './server';

/** Reads a nested value: get(body, 'data.task_result.videos.0.url'). */
function get(value: unknown, path: string): unknown {
	return path.split('.').reduce<unknown>((current, key) => {
		if (typeof current !== 'object' || current === null) return undefined;
		return (current as Record<string, unknown>)[key];
	}, value);
}

interface CallResult {
	status: number;
	headers: Headers;
	body: unknown;
	text: string;
}

let sim: Simulator;

async function call(
	method: string,
	url: string,
	options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<CallResult> {
	const response = await fetch(url, {
		method,
		headers: { 'content-type': 'application/json', ...options.headers },
		body: options.body === undefined ? undefined : JSON.stringify(options.body),
	});
	const text = await response.text();
	let body: unknown = text;
	try {
		body = JSON.parse(text);
	} catch {
		// not JSON: keep the text
	}
	return { status: response.status, headers: response.headers, body, text };
}

const base = (method: string, path: string, body?: unknown): Promise<CallResult> =>
	call(method, `${sim.baseUrl}${path}`, {
		body,
		headers: { authorization: `Bearer ${sim.apiKey}` },
	});
const identity = (body: unknown): Promise<CallResult> =>
	call('POST', `${sim.identityUrl}/api/overseas/asset/upload/sync`, {
		body,
		headers: { 'x-access-token': sim.accessToken },
	});

/** Polls until `isDone` holds (bounded), returning every body seen. */
async function pollUntil(
	read: () => Promise<unknown>,
	isDone: (body: unknown) => boolean,
	timeoutMs = 3000,
): Promise<unknown[]> {
	const seen: unknown[] = [];
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		const body = await read();
		seen.push(body);
		if (isDone(body)) return seen;
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	throw new Error(`polling timed out; last body: ${JSON.stringify(seen[seen.length - 1])}`);
}

async function waitFor(condition: () => boolean, timeoutMs = 3000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) throw new Error('condition not met in time');
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
}

async function readChunks(response: Response): Promise<string[]> {
	const reader = response.body?.getReader();
	if (!reader) throw new Error('no body');
	const decoder = new TextDecoder();
	const chunks: string[] = [];
	for (;;) {
		const { done, value } = await reader.read();
		if (done) return chunks;
		chunks.push(decoder.decode(value, { stream: true }));
	}
}

function dataPayloads(streamText: string): unknown[] {
	return streamText
		.split('\n')
		.filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
		.map((line) => JSON.parse(line.slice('data: '.length)) as unknown);
}

interface Receiver {
	url: string;
	bodies: unknown[];
	close(): Promise<void>;
}

/** A tiny local callback receiver on 127.0.0.1. */
async function startReceiver(): Promise<Receiver> {
	const bodies: unknown[] = [];
	const server: Server = createServer((req, res) => {
		let data = '';
		req.on('data', (chunk: Buffer) => (data += chunk.toString()));
		req.on('end', () => {
			bodies.push(JSON.parse(data));
			res.writeHead(204).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	const port = typeof address === 'object' && address !== null ? address.port : 0;
	return {
		url: `http://127.0.0.1:${port}/hook?secret=s3`,
		bodies,
		close: () =>
			new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

beforeAll(async () => {
	sim = await startSimulator({ queuedMs: 20, runningMs: 20 });
});
afterAll(() => sim.close());
beforeEach(() => {
	sim.reset();
	sim.setOptions({
		...DEFAULT_OPTIONS,
		queuedMs: 20,
		runningMs: 20,
		port: undefined,
		identityPort: undefined,
	});
});

describe('authentication', () => {
	it('rejects a missing or wrong Bearer key on the base host without echoing it', async () => {
		const missing = await call('POST', `${sim.baseUrl}/v1/chat/completions`, { body: {} });
		expect(missing.status).toBe(401);
		expect(missing.body).toEqual({
			error: expect.objectContaining({ message: 'Invalid API key', type: 'authentication_error' }),
		});
		const wrong = await call('GET', `${sim.baseUrl}/v1/task/get/x`, {
			headers: { authorization: 'Bearer not-the-key' },
		});
		expect(wrong.status).toBe(401);
		expect(wrong.text).not.toContain('not-the-key');
		expect(sim.requests).toHaveLength(2);
	});

	it('rejects a missing X-Access-Token on the identity host and records the request headers', async () => {
		const denied = await call('POST', `${sim.identityUrl}/api/overseas/asset/upload/sync`, {
			body: { images: ['https://x.test/a.png'] },
		});
		expect(denied.status).toBe(401);
		expect(denied.body).toEqual({ code: 401, message: 'invalid access token' });
		await identity({ images: ['https://x.test/a.png'] });
		const recorded = sim.requestsTo('POST', '/api/overseas/asset/upload/sync');
		expect(recorded.map((request) => request.host)).toEqual(['identity', 'identity']);
		expect(recorded[1].headers['x-access-token']).toBe(sim.accessToken);
		expect(recorded[1].headers.authorization).toBeUndefined();
		expect(sim.violations.map((violation) => violation.rule)).toEqual(['missing-credential']);
	});

	it('records an Authorization header on the identity host as a violation, and still answers', async () => {
		const answered = await call('POST', `${sim.identityUrl}/api/overseas/asset/upload/sync`, {
			body: { images: ['https://x.test/a.png'] },
			headers: { 'x-access-token': sim.accessToken, authorization: 'Bearer stray' },
		});
		expect(answered.status).toBe(200);
		expect(sim.violations).toEqual([
			{
				rule: 'authorization-on-identity-host',
				request: 'POST /api/overseas/asset/upload/sync',
				at: expect.any(Number),
				message:
					'POST /api/overseas/asset/upload/sync on the identity host carried an Authorization header.',
			},
		]);
	});

	it('parses a POST body only when its Content-Type is JSON', async () => {
		const chat = JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'x' }] });
		const asText = await fetch(`${sim.baseUrl}/v1/chat/completions`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'text/plain' },
			body: chat,
		});
		expect(asText.status).toBe(400);
		expect(await asText.json()).toEqual({
			error: {
				message: 'The request body must be a JSON object.',
				type: 'invalid_request_error',
				param: null,
				code: null,
			},
		});
		expect(sim.requests[0].body).toBe(chat);
		expect(sim.requests[0].status).toBe(400);
		const asJson = await fetch(`${sim.baseUrl}/v1/chat/completions`, {
			method: 'POST',
			headers: {
				authorization: `Bearer ${sim.apiKey}`,
				'content-type': 'application/json; charset=utf-8',
			},
			body: chat,
		});
		expect(asJson.status).toBe(200);
	});
});

/** POSTs JSON with node:http and returns the answer's body as the network chunks that arrived. */
function postForChunks(url: string, body: unknown): Promise<Buffer[]> {
	return new Promise((resolve, reject) => {
		const payload = JSON.stringify(body);
		const req = request(
			url,
			{
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					authorization: `Bearer ${sim.apiKey}`,
					'content-length': Buffer.byteLength(payload),
				},
			},
			(res) => {
				const chunks: Buffer[] = [];
				res.on('data', (chunk: Buffer) => chunks.push(chunk));
				res.on('end', () => resolve(chunks));
				res.on('error', reject);
			},
		);
		req.on('error', reject);
		req.end(payload);
	});
}

/** Whether a chunk ends inside a UTF-8 character (its last sequence is incomplete). */
function endsInsideCharacter(chunk: Buffer): boolean {
	for (let back = 1; back <= Math.min(3, chunk.length); back++) {
		const byte = chunk[chunk.length - back];
		if ((byte & 0xc0) !== 0x80) {
			const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
			return length > back;
		}
	}
	return false;
}

describe('JSON answers with multi-byte text', () => {
	it('arrive in several chunks, each cut inside a character, and are recorded as sent', async () => {
		const text = 'é世🎬 '.repeat(5);
		const chunks = await postForChunks(`${sim.baseUrl}/v1/chat/completions`, {
			model: 'm',
			messages: [{ role: 'user', content: text }],
		});
		const whole = Buffer.concat(chunks).toString('utf8');
		expect(JSON.parse(whole)).toMatchObject({
			choices: [{ message: { content: `Echo: ${text}` } }],
		});
		expect(chunks.length).toBeGreaterThan(3);
		expect(chunks.slice(0, -1).every(endsInsideCharacter)).toBe(true);
		expect(sim.requestsTo('POST', '/v1/chat/completions')[0].answer).toBe(whole);
	});

	it('go out in one piece when they are ASCII only', async () => {
		const chunks = await postForChunks(`${sim.baseUrl}/v1/chat/completions`, {
			model: 'm',
			messages: [{ role: 'user', content: 'plain words' }],
		});
		expect(chunks).toHaveLength(1);
	});
});

describe('chat completions', () => {
	it('echoes the last user message with usage and n candidates', async () => {
		const { status, body } = await base('POST', '/v1/chat/completions', {
			model: 'm',
			n: 2,
			messages: [
				{ role: 'system', content: 'be brief' },
				{ role: 'user', content: [{ type: 'text', text: 'hello there' }] },
			],
		});
		expect(status).toBe(200);
		expect(get(body, 'object')).toBe('chat.completion');
		expect(get(body, 'choices.1.message.content')).toBe('Echo: hello there');
		expect(get(body, 'choices.0.finish_reason')).toBe('stop');
		expect(get(body, 'usage.total_tokens')).toEqual(expect.any(Number));
	});

	it("fills every property of the called tool's parameters schema in the tool-call arguments", async () => {
		const tools = [
			{
				type: 'function',
				function: {
					name: 'ask',
					parameters: {
						type: 'object',
						properties: {
							question: { type: 'string' },
							n: { type: 'integer' },
							unit: { enum: ['c', 'f'] },
						},
					},
				},
			},
		];
		const { body } = await base('POST', '/v1/chat/completions', {
			model: 'm',
			tools,
			messages: [{ role: 'user', content: 'weather in Paris?' }],
		});
		expect(
			JSON.parse(String(get(body, 'choices.0.message.tool_calls.0.function.arguments'))),
		).toEqual({ question: 'Paris', n: 1, unit: 'c' });
	});

	it('calls the first tool when asked about weather, and answers in text after the tool result', async () => {
		const tools = [
			{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } },
		];
		const first = await base('POST', '/v1/chat/completions', {
			model: 'm',
			tools,
			messages: [{ role: 'user', content: 'weather in Paris?' }],
		});
		expect(get(first.body, 'choices.0.finish_reason')).toBe('tool_calls');
		expect(get(first.body, 'choices.0.message.tool_calls.0.function')).toEqual({
			name: 'get_weather',
			arguments: '{"city":"Paris"}',
		});
		const callId = String(get(first.body, 'choices.0.message.tool_calls.0.id'));
		const second = await base('POST', '/v1/chat/completions', {
			model: 'm',
			tools,
			messages: [
				{ role: 'user', content: 'weather in Paris?' },
				{
					role: 'assistant',
					content: null,
					tool_calls: get(first.body, 'choices.0.message.tool_calls'),
				},
				{ role: 'tool', tool_call_id: callId, content: 'sunny' },
			],
		});
		expect(get(second.body, 'choices.0.message.content')).toBe(
			'Echo: weather in Paris? (tool result: sunny)',
		);
	});

	it('answers JSON for a json_schema response format', async () => {
		const { body } = await base('POST', '/v1/chat/completions', {
			model: 'm',
			messages: [{ role: 'user', content: 'give json' }],
			response_format: {
				type: 'json_schema',
				json_schema: {
					name: 'x',
					schema: {
						type: 'object',
						properties: { city: { type: 'string' }, n: { type: 'integer' } },
						required: ['city', 'n'],
					},
				},
			},
		});
		expect(JSON.parse(String(get(body, 'choices.0.message.content')))).toEqual({
			city: 'example',
			n: 1,
		});
	});

	it('rejects an out-of-range temperature and records the invalid request', async () => {
		const { status, body } = await base('POST', '/v1/chat/completions', {
			model: 'm',
			temperature: 3,
			messages: [{ role: 'user', content: 'x' }],
		});
		expect(status).toBe(400);
		expect(get(body, 'error.param')).toBe('temperature');
		expect(get(body, 'error.type')).toBe('invalid_request_error');
		expect(get(sim.requestsTo('POST', '/v1/chat/completions')[0], 'body.temperature')).toBe(3);
	});

	it('allows null content and tool_calls only on assistant messages', async () => {
		const toolCall = {
			id: 'call_1',
			type: 'function',
			function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
		};
		const refusal = async (messages: object[]) => {
			const { status, body } = await base('POST', '/v1/chat/completions', { model: 'm', messages });
			return [status, get(body, 'error.param'), get(body, 'error.message')];
		};
		expect(
			await refusal([
				{ role: 'user', content: 'weather?' },
				{ role: 'assistant', content: null, tool_calls: [toolCall] },
				{ role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
			]),
		).toEqual([200, undefined, undefined]);
		expect(await refusal([{ role: 'user', content: null }])).toEqual([
			400,
			'messages[0].content',
			"Missing required parameter: 'messages[0].content'.",
		]);
		expect(await refusal([{ role: 'assistant', content: null }])).toEqual([
			400,
			'messages[0].content',
			"Missing required parameter: 'messages[0].content'.",
		]);
		expect(await refusal([{ role: 'user', content: 'x', tool_calls: [toolCall] }])).toEqual([
			400,
			'messages[0].tool_calls',
			"'messages[0].tool_calls' is only allowed on assistant messages.",
		]);
		expect(
			await refusal([{ role: 'assistant', content: null, tool_calls: [{ id: 'call_1' }] }]),
		).toEqual([
			400,
			'messages[0].tool_calls[0]',
			"'messages[0].tool_calls[0]' must be {id, type:'function', function:{name, arguments (a JSON string)}}.",
		]);
	});

	it('streams chunks whose bytes arrive split mid-line, with keep-alive, usage and [DONE]', async () => {
		const response = await fetch(`${sim.baseUrl}/v1/chat/completions`, {
			method: 'POST',
			headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' },
			body: JSON.stringify({
				model: 'm',
				stream: true,
				stream_options: { include_usage: true },
				messages: [{ role: 'user', content: 'stream me, café ☕' }],
			}),
		});
		expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
		const chunks = await readChunks(response);
		expect(chunks.length).toBeGreaterThan(3);
		expect(chunks.slice(0, -1).some((chunk) => !chunk.endsWith('\n'))).toBe(true);
		const text = chunks.join('');
		expect(text).toContain(': keep-alive\n');
		expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
		const payloads = dataPayloads(text);
		expect(get(payloads[0], 'choices.0.delta.role')).toBe('assistant');
		const content = payloads.map((chunk) => get(chunk, 'choices.0.delta.content') ?? '').join('');
		expect(content).toBe('Echo: stream me, café ☕');
		const last = payloads[payloads.length - 1];
		expect(get(last, 'choices')).toEqual([]);
		expect(get(last, 'usage.total_tokens')).toEqual(expect.any(Number));
	});

	it('misbehaves mid-stream on STREAM_ERROR and STREAM_TRUNCATE', async () => {
		const errored = await base('POST', '/v1/chat/completions', {
			model: 'm',
			stream: true,
			messages: [{ role: 'user', content: 'STREAM_ERROR please' }],
		});
		expect(errored.text).toContain('data: {"error":{"message":"upstream overloaded"');
		expect(errored.text).not.toContain('[DONE]');
		const truncated = await base('POST', '/v1/chat/completions', {
			model: 'm',
			stream: true,
			messages: [{ role: 'user', content: 'STREAM_TRUNCATE please' }],
		});
		expect(truncated.text).not.toContain('[DONE]');
		expect(truncated.text).not.toContain('finish_reason":"stop');
	});
});

describe('answers for agents and chains', () => {
	const videoTool = {
		type: 'function',
		function: {
			name: 'Video',
			parameters: { type: 'object', properties: { prompt: { type: 'string' } } },
		},
	};

	it('calls the tool a chat message names, with the message as its text', async () => {
		const { body } = await base('POST', '/v1/chat/completions', {
			model: 'm',
			messages: [{ role: 'user', content: 'make a video of a red fox' }],
			tools: [videoTool],
		});
		expect(get(body, 'choices.0.message.tool_calls.0.function')).toEqual({
			name: 'Video',
			arguments: JSON.stringify({ prompt: 'make a video of a red fox' }),
		});
		const unnamed = await base('POST', '/v1/chat/completions', {
			model: 'm',
			messages: [{ role: 'user', content: 'videos are nice' }],
			tools: [videoTool],
		});
		expect(get(unnamed.body, 'choices.0.message.content')).toBe('Echo: videos are nice');
	});

	it('calls a Responses function tool the input names', async () => {
		const { body } = await base('POST', '/v1/responses', {
			model: 'm',
			input: 'please make_video now',
			tools: [{ type: 'function', name: 'make_video' }],
		});
		expect(get(body, 'output.0')).toMatchObject({ type: 'function_call', name: 'make_video' });
	});

	it('answers a prompt holding a JSON schema (format instructions) with an object of that shape', async () => {
		const schema = {
			type: 'object',
			properties: {
				output: {
					type: 'object',
					properties: { animal: { type: 'string' } },
					required: ['animal'],
				},
			},
			required: ['output'],
		};
		const instructions = `Answer in JSON.\n\`\`\`json\n${JSON.stringify(schema)}\n\`\`\`\n`;
		const chat = await base('POST', '/v1/chat/completions', {
			model: 'm',
			messages: [
				{ role: 'system', content: instructions },
				{ role: 'user', content: 'a red fox' },
			],
		});
		expect(JSON.parse(String(get(chat.body, 'choices.0.message.content')))).toEqual({
			output: { animal: 'example' },
		});
		const responses = await base('POST', '/v1/responses', {
			model: 'm',
			instructions,
			input: 'a red fox',
		});
		expect(JSON.parse(String(get(responses.body, 'output.0.content.0.text')))).toEqual({
			output: { animal: 'example' },
		});
	});
});

describe('responses', () => {
	it('echoes the input, chains on previous_response_id and reports reasoning tokens', async () => {
		const first = await base('POST', '/v1/responses', {
			model: 'm',
			input: 'first',
			reasoning: { effort: 'low' },
		});
		expect(get(first.body, 'status')).toBe('completed');
		const output = get(first.body, 'output');
		expect(
			Array.isArray(output) && output.find((item) => get(item, 'type') === 'message'),
		).toMatchObject({ content: [{ type: 'output_text', text: 'Echo: first' }] });
		expect(get(first.body, 'usage.output_tokens_details.reasoning_tokens')).toBeGreaterThan(0);
		const firstId = String(get(first.body, 'id'));
		const second = await base('POST', '/v1/responses', {
			model: 'm',
			input: [{ role: 'user', content: 'second' }],
			previous_response_id: firstId,
		});
		expect(get(second.body, 'output.0.content.0.text')).toBe(`Echo: second (after ${firstId})`);
	});

	it('rejects unknown previous ids and previous_response_id with conversation', async () => {
		expect(
			(
				await base('POST', '/v1/responses', {
					model: 'm',
					input: 'x',
					previous_response_id: 'resp_nope',
				})
			).status,
		).toBe(400);
		const first = await base('POST', '/v1/responses', { model: 'm', input: 'x' });
		const both = await base('POST', '/v1/responses', {
			model: 'm',
			input: 'x',
			previous_response_id: get(first.body, 'id'),
			conversation: 'conv_1',
		});
		expect(both.status).toBe(400);
	});

	it('emits a function_call item for weather questions', async () => {
		const { body } = await base('POST', '/v1/responses', {
			model: 'm',
			input: 'weather?',
			tools: [{ type: 'function', name: 'get_weather', parameters: {} }],
		});
		expect(get(body, 'output.0')).toMatchObject({
			type: 'function_call',
			name: 'get_weather',
			arguments: '{"city":"Paris"}',
		});
	});

	it('streams typed events with sequence numbers, ending with response.completed', async () => {
		const { text } = await base('POST', '/v1/responses', {
			model: 'm',
			input: 'hello stream',
			stream: true,
		});
		const events = dataPayloads(text);
		expect(events.map((event) => get(event, 'type'))).toEqual([
			'response.created',
			'response.in_progress',
			'response.output_item.added',
			'response.content_part.added',
			...Array<string>(events.length - 8).fill('response.output_text.delta'),
			'response.output_text.done',
			'response.content_part.done',
			'response.output_item.done',
			'response.completed',
		]);
		expect(events.map((event) => get(event, 'sequence_number'))).toEqual(
			events.map((_, index) => index),
		);
		expect(text).toContain('event: response.completed\n');
		expect(get(events[events.length - 1], 'response.output.0.content.0.text')).toBe(
			'Echo: hello stream',
		);
		const failed = await base('POST', '/v1/responses', {
			model: 'm',
			input: 'STREAM_ERROR',
			stream: true,
		});
		expect(failed.text).toContain('event: error\n');
		expect(failed.text).toContain('event: response.failed\n');
		expect(failed.text).not.toContain('response.completed');
	});
});

describe('image edits', () => {
	it('returns n images served as real PNGs, with base64 and provider metadata', async () => {
		const { status, body } = await base('POST', '/v1/images/edits', {
			model: 'img',
			prompt: 'make it blue',
			image: ['https://x.test/in.png', PNG_FILE.bytes.toString('base64')],
			n: 2,
			size: '2K',
		});
		expect(status).toBe(200);
		const data = get(body, 'data');
		expect(Array.isArray(data) && data.length).toBe(2);
		expect(get(body, 'metadata.usage')).toMatchObject({ image_count: 2, size: '2048*2048' });
		expect(get(body, 'metadata.output.choices.0.message.content.0.type')).toBe('image');
		const file = await fetch(String(get(body, 'data.0.url')));
		expect(file.headers.get('content-type')).toBe('image/png');
		const bytes = Buffer.from(await file.arrayBuffer());
		expect(bytes.subarray(1, 4).toString()).toBe('PNG');
		expect(bytes.toString('base64')).toBe(get(body, 'data.0.b64_json'));
		expect(sim.requestsTo('GET', '/files/')).toHaveLength(0);
	});

	it('validates size and image, and serves broken URLs for BROKEN_URL', async () => {
		expect(
			(
				await base('POST', '/v1/images/edits', {
					model: 'img',
					prompt: 'p',
					image: ['https://x.test/a.png'],
					size: '3K',
				})
			).status,
		).toBe(400);
		expect(
			(await base('POST', '/v1/images/edits', { model: 'img', prompt: 'p', image: [] })).status,
		).toBe(400);
		const png = PNG_FILE.bytes.toString('base64');
		for (const [image, accepted] of [
			[png, true],
			[`data:image/png;base64,${png}`, true],
			['aGVsbG8gd29ybGQ=', false], // valid Base64 of "hello world": not an image
			[`data:image/png;base64,aGVsbG8gd29ybGQ=`, false],
			[png.slice(0, -1), false], // cut: no longer padded Base64
			['./photo.png', false],
			['ftp://x.test/a.png', false],
		] as const) {
			const answer = await base('POST', '/v1/images/edits', {
				model: 'img',
				prompt: 'p',
				image: [image],
			});
			expect([image.slice(0, 24), answer.status]).toEqual([
				image.slice(0, 24),
				accepted ? 200 : 400,
			]);
			if (!accepted)
				expect(get(answer.body, 'error.message')).toBe(
					"'image[0]' must be an http(s) URL or Base64 image data.",
				);
		}
		const broken = await base('POST', '/v1/images/edits', {
			model: 'img',
			prompt: 'BROKEN_URL',
			image: ['https://x.test/a.png'],
		});
		expect((await fetch(String(get(broken.body, 'data.0.url')))).status).toBe(404);
	});
});

describe('task family S', () => {
	const TEN_MINUTES = 10 * 60 * 1000;
	const createS = async (text: string, extra: object = {}): Promise<string> => {
		const created = await base('POST', '/v1/task/create', {
			model: 'v',
			content: [{ type: 'text', text }],
			...extra,
		});
		return String(get(created.body, 'id'));
	};

	it('goes queued → running → succeeded, with result files and a poll log', async () => {
		// Queued 11 minutes, running 1: each query keeps to the polling rule after backdating.
		sim.setOptions({ queuedMs: 11 * 60_000, runningMs: 60_000 });
		const id = await createS('a cat');
		const statuses: unknown[] = [];
		let last: unknown;
		for (const passedMs of [TEN_MINUTES, 60_000, 60_000]) {
			sim.backdateTask(id, passedMs);
			last = (await base('GET', `/v1/task/get/${id}`)).body;
			statuses.push(get(last, 'data.status'));
		}
		expect(statuses).toEqual(['queued', 'running', 'succeeded']);
		expect(get(last, 'code')).toBe('success');
		expect(sim.pollLog(id)).toHaveLength(3);
		expect(sim.violations).toEqual([]);
		const video = await fetch(String(get(last, 'data.content.video_url')));
		expect(video.headers.get('content-type')).toBe('video/mp4');
		expect(
			Buffer.from(await video.arrayBuffer())
				.subarray(4, 8)
				.toString(),
		).toBe('ftyp');
	});

	it('answers a query earlier than 10 minutes, or within a minute of any earlier query, with 429 and records it', async () => {
		const id = await createS('a cat');
		const early = await base('GET', `/v1/task/get/${id}`);
		expect(early.status).toBe(429);
		expect(early.headers.get('retry-after')).toBe('600');
		expect(get(early.body, 'code')).toBe('TooManyRequests');
		sim.backdateTask(id, TEN_MINUTES - 30_000);
		// 30 s before the 10 minutes, but this query counts: the next one a minute later.
		const stillEarly = await base('GET', `/v1/task/get/${id}`);
		expect(stillEarly.headers.get('retry-after')).toBe('60');
		sim.backdateTask(id, 30_000);
		const tooSoonAfterRefused = await base('GET', `/v1/task/get/${id}`);
		expect(tooSoonAfterRefused.status).toBe(429);
		sim.backdateTask(id, 60_000);
		expect((await base('GET', `/v1/task/get/${id}`)).status).toBe(200);
		const again = await base('GET', `/v1/task/get/${id}`);
		expect(again.status).toBe(429);
		expect(again.headers.get('retry-after')).toBe('60');
		sim.backdateTask(id, 45_000);
		expect((await base('GET', `/v1/task/get/${id}`)).headers.get('retry-after')).toBe('60');
		sim.backdateTask(id, 60_000);
		expect((await base('GET', `/v1/task/get/${id}`)).status).toBe(200);
		expect(sim.violations.map(({ rule, taskId }) => [rule, taskId])).toEqual([
			['task-s-query-too-early', id],
			['task-s-query-too-early', id],
			['task-s-query-too-often', id],
			['task-s-query-too-often', id],
			['task-s-query-too-often', id],
		]);
		const control = await call('GET', `${sim.baseUrl}/__control/violations`);
		expect(get(control.body, 'violations.4.rule')).toBe('task-s-query-too-often');
		expect(sim.pollLog(id)).toHaveLength(7);
	});

	it('refuses an early query even after the final callback was delivered (the spec has no exception), and allows tasks created in the past', async () => {
		const receiver = await startReceiver();
		try {
			const id = await createS('x', { callback_url: receiver.url });
			await waitFor(() =>
				sim.callbacks.some(
					(callback) => get(callback.body, 'status') === 'succeeded' && callback.status === 204,
				),
			);
			expect((await base('GET', `/v1/task/get/${id}`)).status).toBe(429);
			expect(sim.violations.map((violation) => [violation.rule, violation.taskId])).toEqual([
				['task-s-query-too-early', id],
			]);
			sim.violations.length = 0;
		} finally {
			await receiver.close();
		}
		sim.setOptions({ taskAgeMs: TEN_MINUTES, queuedMs: 60_000, runningMs: 60_000 });
		const old = await createS('y');
		const record = await base('GET', `/v1/task/get/${old}`);
		expect(record.status).toBe(200);
		expect(get(record.body, 'data.status')).toBe('succeeded');
		const backdate = await call('POST', `${sim.baseUrl}/__control/tasks/${old}/backdate`, {
			body: { ms: 60_000 },
		});
		expect(backdate.body).toEqual({ ok: true });
		expect((await base('GET', `/v1/task/get/${old}`)).status).toBe(200);
		expect(sim.violations).toEqual([]);
		sim.setOptions({ taskAgeMs: 0 });
	});

	it('fails on FAIL, reports unknown statuses, business errors and unknown ids', async () => {
		sim.setOptions({ taskAgeMs: TEN_MINUTES });
		const failed = await base('GET', `/v1/task/get/${await createS('please FAIL')}`);
		expect(get(failed.body, 'data.status')).toBe('failed');
		expect(get(failed.body, 'data.error')).toEqual({
			code: 'GenerationFailed',
			message: expect.stringMatching(/^video generation failed for task cgt-/),
		});
		const mystery = await base('GET', `/v1/task/get/${await createS('UNKNOWN_STATUS')}`);
		expect(get(mystery.body, 'data.status')).toBe('mystery_state');
		sim.setOptions({ taskAgeMs: 0 });
		const quota = await base('POST', '/v1/task/create', {
			model: 'v',
			content: [{ type: 'text', text: 'BUSINESS_ERROR' }],
		});
		expect(quota.status).toBe(200);
		expect(quota.body).toEqual({ code: 'QuotaExceeded', message: 'quota exceeded' });
		const missing = await base('GET', '/v1/task/get/cgt-missing');
		expect(missing.status).toBe(404);
		expect(get(missing.body, 'code')).toBe('NotFound');
	});

	it('checks media roles against their type, and the ratio form', async () => {
		const create = async (fields: object) => {
			const { status, body } = await base('POST', '/v1/task/create', {
				model: 'v',
				content: [{ type: 'text', text: 'x' }],
				...fields,
			});
			return [status, get(body, 'message') ?? 'created'];
		};
		const media = (type: string, role: string) => ({
			content: [{ type, [type]: { url: 'https://x.test/m' }, role }],
		});
		for (const [type, role] of [
			['image_url', 'reference_image'],
			['image_url', 'first_frame'],
			['image_url', 'last_frame'],
			['video_url', 'reference_video'],
			['audio_url', 'reference_audio'],
		])
			expect(await create(media(type, role))).toEqual([200, 'created']);
		expect(await create(media('image_url', 'reference_audio'))).toEqual([
			400,
			"'content[0].role' must be one of reference_image, first_frame, last_frame for image_url items.",
		]);
		expect(await create(media('video_url', 'first_frame'))).toEqual([
			400,
			"'content[0].role' must be one of reference_video for video_url items.",
		]);
		expect(await create({ ratio: '21:9' })).toEqual([200, 'created']);
		for (const ratio of ['wide', '16x9', '0:9', 'adaptive'])
			expect(await create({ ratio })).toEqual([
				400,
				"'ratio' must be an aspect ratio in the form '<w>:<h>'.",
			]);
	});

	it('calls back on every status change, the final state twice, then a stale running', async () => {
		const receiver = await startReceiver();
		try {
			await base('POST', '/v1/task/create', {
				model: 'v',
				content: [{ type: 'text', text: 'x' }],
				callback_url: receiver.url,
			});
			await waitFor(() => receiver.bodies.length >= 5);
			expect(receiver.bodies.map((body) => get(body, 'status'))).toEqual([
				'queued',
				'running',
				'succeeded',
				'succeeded',
				'running',
			]);
			expect(get(receiver.bodies[2], 'content.video_url')).toEqual(
				expect.stringContaining('/files/'),
			);
			await waitFor(() => sim.callbacks.every((callback) => callback.status !== undefined));
			expect(sim.callbacks.map((callback) => callback.status)).toEqual([204, 204, 204, 204, 204]);
		} finally {
			await receiver.close();
		}
	});

	it('records failed callback deliveries without crashing', async () => {
		const deadUrl = `${await closedPortUrl()}/hook`;
		await base('POST', '/v1/task/create', {
			model: 'v',
			content: [{ type: 'text', text: 'x' }],
			callback_url: deadUrl,
		});
		await waitFor(() => sim.callbacks.length > 0 && sim.callbacks[0].error !== undefined);
		expect(
			(
				await base('POST', '/v1/chat/completions', {
					model: 'm',
					messages: [{ role: 'user', content: 'still alive' }],
				})
			).status,
		).toBe(200);
	});
});

describe('family A', () => {
	it('creates an omni-video task and reaches succeed, found only under its own kind', async () => {
		const created = await base('POST', '/vendor-a/v1/videos/omni-video', {
			model_name: 'k',
			prompt: 'a dog',
			image_list: [{ image_url: 'https://x.test/a.png' }],
			aspect_ratio: '16:9',
		});
		expect(created.body).toMatchObject({
			code: 0,
			message: '',
			data: { task_status: 'submitted' },
		});
		const taskId = String(get(created.body, 'task_id'));
		const seen = await pollUntil(
			async () => (await base('GET', `/vendor-a/v1/videos/omni-video/${taskId}`)).body,
			(body) => get(body, 'data.task_status') === 'succeed',
		);
		expect(get(seen[seen.length - 1], 'data.task_result.videos.0')).toMatchObject({
			duration: '5.0',
			url: expect.stringContaining(`/files/${taskId}.mp4`),
		});
		expect(get(seen[seen.length - 1], 'data.task_result.images')).toBeNull();
		expect(get((await base('GET', `/vendor-a/v1/videos/image2video/${taskId}`)).body, 'code')).toBe(
			1203,
		);
	});

	it('enforces the limits and answers business errors with HTTP 200', async () => {
		const tooMany = await base('POST', '/vendor-a/v1/videos/omni-video', {
			model_name: 'k',
			prompt: 'p',
			image_list: Array(8).fill({ image_url: 'https://x.test/a.png' }),
		});
		expect(tooMany.status).toBe(200);
		expect(get(tooMany.body, 'code')).toBe(1201);
		const exclusive = await base('POST', '/vendor-a/v1/videos/image2video', {
			model_name: 'k',
			prompt: 'p',
			image: 'https://x.test/a.png',
			element_list: [{}],
			voice_list: [{}],
		});
		expect(get(exclusive.body, 'code')).toBe(1201);
		const busy = await base('POST', '/vendor-a/v1/videos/image2video', {
			model_name: 'k',
			prompt: 'BUSINESS_ERROR',
			image: 'https://x.test/a.png',
		});
		expect(busy.body).toMatchObject({ code: 1303, message: 'concurrency limit' });
	});

	it('checks omni-video aspect_ratio, list items and image2video frames', async () => {
		const omni = async (fields: object) =>
			get(
				(
					await base('POST', '/vendor-a/v1/videos/omni-video', {
						model_name: 'k',
						prompt: 'p',
						...fields,
					})
				).body,
				'message',
			);
		expect(await omni({})).toBe(
			"'aspect_ratio' is required unless image_list has a first_frame or video_list edits a video (refer_type 'base').",
		);
		expect(
			await omni({ image_list: [{ image_url: 'https://x.test/a.png', type: 'first_frame' }] }),
		).toBe('');
		expect(
			await omni({ video_list: [{ video_url: 'https://x.test/a.mp4', refer_type: 'base' }] }),
		).toBe('');
		expect(await omni({ aspect_ratio: '1:1', video_list: [{ refer_type: 'base' }] })).toBe(
			"'video_list[0]' must be an object with an http(s) video_url.",
		);
		expect(
			await omni({
				aspect_ratio: '1:1',
				video_list: [{ video_url: 'https://x.test/a.mp4', refer_type: 'edit' }],
			}),
		).toBe("'video_list[0]' refer_type must be 'feature' or 'base'.");
		expect(await omni({ aspect_ratio: '1:1', element_list: [{ id: 'x' }] })).toBe(
			"'element_list[0]' must be an object with an element_id.",
		);
		expect(await omni({ aspect_ratio: '1:1', image_list: [{ image_url: 'not an image' }] })).toBe(
			"'image_list[0]' needs an image_url (http(s) URL or raw Base64 image) and, if typed, type first_frame or end_frame.",
		);
		const png = PNG_FILE.bytes.toString('base64');
		const frame = async (image: string) =>
			get(
				(
					await base('POST', '/vendor-a/v1/videos/image2video', {
						model_name: 'k',
						prompt: 'p',
						image,
					})
				).body,
				'message',
			);
		expect(await frame(png)).toBe('');
		expect(await frame(`data:image/png;base64,${png}`)).toBe(
			"'image' must be an http(s) URL or raw Base64 image data.",
		);
		expect(await frame('aGVsbG8gd29ybGQ=')).toBe(
			"'image' must be an http(s) URL or raw Base64 image data.",
		);
	});
});

describe('generic video, family B and family C', () => {
	it('runs a generic task to completed, queried by its task id', async () => {
		const created = await base('POST', '/v1/videos', {
			model: 'g',
			prompt: 'waves',
			duration: 10,
			size: '1080p',
		});
		expect(created.body).toMatchObject({
			object: 'video',
			status: 'queued',
			progress: 0,
			seconds: '10',
			size: '1920x1080',
		});
		const seen = await pollUntil(
			async () => (await base('GET', `/v1/videos/${String(get(created.body, 'task_id'))}`)).body,
			(body) => get(body, 'status') === 'completed',
		);
		expect(seen[seen.length - 1]).toMatchObject({
			progress: 100,
			error: null,
			video_url: expect.stringContaining('.mp4'),
		});
		expect(
			(await base('POST', '/v1/videos', { model: 'g', prompt: 'p', duration: 7 })).status,
		).toBe(400);
	});

	it('serves video results of the size resultVideoBytes asks for: the sample header first, padding that does not compress, each task its own bytes', async () => {
		sim.setOptions({ resultVideoBytes: 1_048_576 });
		let lastUrl = '';
		const finishedVideo = async (prompt: string) => {
			const created = await base('POST', '/v1/videos', { model: 'g', prompt });
			const seen = await pollUntil(
				async () => (await base('GET', `/v1/videos/${String(get(created.body, 'task_id'))}`)).body,
				(body) => get(body, 'status') === 'completed',
			);
			const url = String(get(seen[seen.length - 1], 'video_url'));
			lastUrl = url;
			return Buffer.from(await (await fetch(url)).arrayBuffer());
		};
		const [video, other] = [await finishedVideo('big'), await finishedVideo('big again')];
		expect(video.length).toBe(1_048_576);
		expect(video.subarray(4, 8).toString('ascii')).toBe('ftyp');
		expect(gzipSync(video).length).toBeGreaterThan(1_000_000);
		expect(other.length).toBe(1_048_576);
		expect(other.equals(video)).toBe(false);
		// Made on each download (not kept), and the same bytes every time.
		expect(Buffer.from(await (await fetch(lastUrl)).arrayBuffer()).equals(other)).toBe(true);
	});

	it('reports upstream words for family B UPSTREAM_CASE models, FINISH with error on failure', async () => {
		const created = await base('POST', '/vendor-b/v1/video/generations', {
			ModelName: 'b-UPSTREAM_CASE',
			Prompt: 'FAIL now',
			OutputConfig: { Duration: 5 },
		});
		expect(get(created.body, 'status')).toBe('WAITING');
		const seen = await pollUntil(
			async () => (await base('GET', `/v1/videos/${String(get(created.body, 'id'))}`)).body,
			(body) => get(body, 'status') === 'FINISH',
		);
		expect(get(seen[seen.length - 1], 'error.message')).toEqual(expect.any(String));
		expect(
			(await base('POST', '/vendor-b/v1/video/generations', { Prompt: 'no model' })).status,
		).toBe(400);
	});

	it('creates a family C task and serves it through GET /v1/videos with creations', async () => {
		const created = await base('POST', '/vendor-c/ent/v2/reference2video', {
			model: 'c',
			prompt: 'two friends',
			images: ['https://x.test/a.png'],
		});
		expect(created.body).toMatchObject({
			state: 'created',
			task_id: expect.any(String),
			id: expect.any(String),
		});
		const seen = await pollUntil(
			async () => (await base('GET', `/v1/videos/${String(get(created.body, 'task_id'))}`)).body,
			(body) => get(body, 'status') === 'success',
		);
		expect(get(seen[seen.length - 1], 'creations.0.url')).toEqual(expect.stringContaining('.mp4'));
	});
});

describe('long-running operations', () => {
	it('finishes with base64 video bytes, SAFETY with no videos, FAIL with an error', async () => {
		const operation = async (prompt: string): Promise<unknown> => {
			const created = await base('POST', '/v1beta/models/veo-x:predictLongRunning', {
				instances: [{ prompt }],
				parameters: { sampleCount: 1 },
			});
			const name = String(get(created.body, 'name'));
			expect(name).toMatch(/^models\/veo-x\/operations\/.+/);
			const seen = await pollUntil(
				async () => (await base('GET', `/v1/${name}`)).body,
				(body) => get(body, 'done') === true,
			);
			return seen[seen.length - 1];
		};
		const done = await operation('a sunrise');
		expect(
			Buffer.from(String(get(done, 'response.videos.0.bytesBase64Encoded')), 'base64')
				.subarray(4, 8)
				.toString(),
		).toBe('ftyp');
		expect(get(await operation('SAFETY'), 'response.videos')).toEqual([]);
		expect(get(await operation('FAIL'), 'error.code')).toBe(3);
		expect((await base('GET', '/v1/models/other/operations/nope')).status).toBe(404);
	});

	it('keeps the first 64 KiB of an answer in the request log, marking a longer one truncated', async () => {
		sim.setOptions({ resultVideoBytes: 1_048_576 });
		const created = await base('POST', '/v1beta/models/veo-x:predictLongRunning', {
			instances: [{ prompt: 'a long video' }],
			parameters: { sampleCount: 1 },
		});
		const name = String(get(created.body, 'name'));
		const seen = await pollUntil(
			async () => (await base('GET', `/v1/${name}`)).body,
			(body) => get(body, 'done') === true,
		);
		const inline = String(get(seen[seen.length - 1], 'response.videos.0.bytesBase64Encoded'));
		expect(Buffer.from(inline, 'base64').length).toBe(1_048_576);
		const polls = sim.requestsTo('GET', `/v1/${name}`);
		const last = polls[polls.length - 1];
		expect(last.answerTruncated).toBe(true);
		expect(last.answer).toHaveLength(RECORDED_ANSWER_CHARS);
		expect(polls[0].answerTruncated).toBeUndefined();
		expect(JSON.parse(polls[0].answer ?? '')).toMatchObject({ done: false });
	});
});

describe('asset review', () => {
	it('reviews every URL, asset_url_list winning, rejecting "reject" URLs', async () => {
		const { body } = await identity({
			images: ['https://x.test/ignored.png'],
			asset_url_list: ['https://x.test/ok.png', 'https://x.test/reject.png'],
		});
		expect(body).toMatchObject({ code: 200, status: 'completed' });
		expect(get(body, 'result.items.0')).toMatchObject({
			source_url: 'https://x.test/ok.png',
			submit_review_status: 1,
			error_code: '',
		});
		expect(get(body, 'result.items.1')).toMatchObject({
			submit_review_status: 2,
			error_code: 'CONTENT_VIOLATION',
		});
		expect(get(body, 'result.items.2')).toBeUndefined();
	});

	it('answers HTTP 400 for bad bodies, private hosts included, and fails whole batches', async () => {
		const refusal = async (body: object) => {
			const answer = await identity(body);
			return [answer.status, get(answer.body, 'code'), get(answer.body, 'message')];
		};
		expect(await refusal({ images: Array(51).fill('https://x.test/a.png') })).toEqual([
			400,
			400,
			"'images' must have at most 50 element(s), got 51.",
		]);
		expect(await refusal({ images: ['ftp://x.test/a.png'] })).toEqual([
			400,
			400,
			"'images[0]' must be a public http or https URL.",
		]);
		for (const privateUrl of [
			'http://localhost:8080/a.png',
			'http://127.0.0.1/a.png',
			'https://10.1.2.3/a.png',
			'https://172.20.0.1/a.png',
			'https://192.168.1.5/a.png',
			'https://169.254.169.254/latest',
			'https://[::1]/a.png',
		]) {
			expect(await refusal({ images: ['https://x.test/ok.png', privateUrl] })).toEqual([
				400,
				400,
				"'images[1]' must be a public http or https URL.",
			]);
		}
		expect(
			await refusal({ images: ['https://x.test/a.png'], group_source: 'real_person' }),
		).toEqual([400, 400, "'group_source' is only allowed together with 'group_id'."]);
		expect((await identity({ images: ['https://172.32.0.1/public.png'] })).status).toBe(200);
		expect((await identity({ images: ['https://x.test/batchfail.png'] })).body).toMatchObject({
			status: 'failed',
			error_message: 'review service failed',
		});
	});

	it('answers 202 for async reviews and delivers the result by callback', async () => {
		const receiver = await startReceiver();
		try {
			const { body } = await identity({
				images: ['https://x.test/async.mp4'],
				asset_type: 'Video',
				callback_url: receiver.url,
			});
			expect(body).toMatchObject({ code: 202, status: 'processing' });
			await waitFor(() => receiver.bodies.length >= 1);
			expect(receiver.bodies[0]).toMatchObject({
				code: 200,
				status: 'completed',
				result: { items: [{ submit_review_status: 1 }] },
			});
		} finally {
			await receiver.close();
		}
	});
});

describe('faults and latency', () => {
	it('answers 429 with Retry-After for the next matching requests only', async () => {
		sim.injectFault({
			method: 'POST',
			path: '/v1/chat/completions',
			kind: 'status',
			status: 429,
			headers: { 'retry-after': '1' },
			times: 2,
		});
		const chat = { model: 'm', messages: [{ role: 'user', content: 'x' }] };
		const first = await base('POST', '/v1/chat/completions', chat);
		expect(first.status).toBe(429);
		expect(first.headers.get('retry-after')).toBe('1');
		expect(get(first.body, 'error.message')).toEqual(expect.any(String));
		expect((await base('POST', '/v1/chat/completions', chat)).status).toBe(429);
		expect((await base('POST', '/v1/chat/completions', chat)).status).toBe(200);
		expect(sim.requestsTo('POST', '/v1/chat/completions')).toHaveLength(3);
	});

	it('rate-limit mode refuses every Nth request with Retry-After and retry-after-ms', async () => {
		sim.setOptions({ rateLimitEvery: 3, rateLimitRetryAfterMs: 1500 });
		const chat = { model: 'm', messages: [{ role: 'user', content: 'x' }] };
		const statuses: number[] = [];
		for (let index = 0; index < 6; index++) {
			const answer = await base('POST', '/v1/chat/completions', chat);
			statuses.push(answer.status);
			if (answer.status === 429) {
				expect(answer.headers.get('retry-after')).toBe('2');
				expect(answer.headers.get('retry-after-ms')).toBe('1500');
				expect(answer.body).toEqual({
					error: {
						message: 'Rate limit reached for requests; try again later.',
						type: 'rate_limit_error',
						param: null,
						code: 'rate_limit_exceeded',
					},
				});
			}
		}
		expect(statuses).toEqual([200, 200, 429, 200, 200, 429]);
		expect(sim.requests.map((request) => request.status)).toEqual(statuses);
		// The identity host counts too: requests 7 and 8 pass, 9 is refused in its own shape.
		expect((await identity({ images: ['https://x.test/a.png'] })).status).toBe(200);
		expect((await identity({ images: ['https://x.test/a.png'] })).status).toBe(200);
		expect((await identity({ images: ['https://x.test/a.png'] })).body).toEqual({
			code: 429,
			message: 'Rate limit reached for requests; try again later.',
		});
	});

	it('rate-limit mode keeps a budget of requests per rolling second, set through the control route', async () => {
		const set = await call('POST', `${sim.baseUrl}/__control/options`, {
			body: { rateLimitPerSecond: 2 },
		});
		expect(set.body).toEqual({ ok: true });
		const chat = { model: 'm', messages: [{ role: 'user', content: 'x' }] };
		const answers = [];
		for (let index = 0; index < 3; index++)
			answers.push(await base('POST', '/v1/chat/completions', chat));
		expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
		const waitMs = Number(answers[2].headers.get('retry-after-ms'));
		expect(waitMs).toBeGreaterThan(0);
		expect(waitMs).toBeLessThanOrEqual(1000);
		expect(answers[2].headers.get('retry-after')).toBe('1');
		sim.reset();
		expect((await base('POST', '/v1/chat/completions', chat)).status).toBe(200);
	});

	it('redirect mode sends every gateway request elsewhere, same path and query, and processes none', async () => {
		const set = await call('POST', `${sim.baseUrl}/__control/options`, {
			body: { redirectTo: 'http://elsewhere.test:81/' },
		});
		expect(set.body).toEqual({ ok: true });
		const ask = (url: string, headers: Record<string, string>) =>
			fetch(url, {
				method: 'POST',
				redirect: 'manual',
				headers: { 'content-type': 'application/json', ...headers },
				body: JSON.stringify({ model: 'g', prompt: 'x' }),
			});
		const moved = await ask(`${sim.baseUrl}/v1/videos?a=1`, {
			authorization: `Bearer ${sim.apiKey}`,
		});
		expect(moved.status).toBe(307);
		expect(moved.headers.get('location')).toBe('http://elsewhere.test:81/v1/videos?a=1');
		const review = await ask(`${sim.identityUrl}/api/overseas/asset/upload/sync`, {
			'x-access-token': sim.accessToken,
		});
		expect(review.headers.get('location')).toBe(
			'http://elsewhere.test:81/api/overseas/asset/upload/sync',
		);
		// Not even a missing credential is looked at: the proxy answers first.
		expect((await ask(`${sim.baseUrl}/v1/videos`, {})).status).toBe(307);
		expect(sim.requests.map((request) => request.status)).toEqual([307, 307, 307]);
		expect(sim.violations).toEqual([]);
		sim.setOptions({ redirectTo: '' });
		expect((await base('POST', '/v1/videos', { model: 'g', prompt: 'x' })).status).toBe(200);
	});

	it('answers a proxy HTML error page, and error bodies that echo the key', async () => {
		sim.injectFault({ path: '/v1/videos', kind: 'html-error' });
		const page = await base('POST', '/v1/videos', { model: 'g', prompt: 'x' });
		expect(page.status).toBe(502);
		expect(page.headers.get('content-type')).toBe('text/html');
		expect(page.text).toMatch(
			/^<!DOCTYPE html>\r\n<html>\r\n<head><title>502 Bad Gateway<\/title>/,
		);
		sim.injectFault({ path: '/v1/chat/completions', kind: 'echo-key', status: 401 });
		const echoed = await base('POST', '/v1/chat/completions', {});
		expect(echoed.status).toBe(401);
		expect(echoed.body).toEqual({
			error: {
				message: `Incorrect API key provided: ${sim.apiKey}. Check the key in the console.`,
				type: 'invalid_request_error',
				param: null,
				code: 'invalid_api_key',
				details: {
					request: { headers: { authorization: `Bearer ${sim.apiKey}` } },
					key: sim.apiKey,
				},
			},
		});
		sim.injectFault({ path: '/api/overseas', kind: 'echo-key' });
		const review = await identity({ images: ['https://x.test/a.png'] });
		expect([review.status, get(review.body, 'detail.request.headers.x-access-token')]).toEqual([
			400,
			sim.accessToken,
		]);
		expect(get(review.body, 'message')).toBe(
			`access token ${sim.accessToken} has no permission for this group`,
		);
	});

	it('breaks streams with in-stream errors that can echo the key', async () => {
		sim.injectFault({ path: '/v1/chat/completions', kind: 'stream-error', echoKey: true });
		const chat = await base('POST', '/v1/chat/completions', {});
		expect(chat.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
		expect(dataPayloads(chat.text)[1]).toEqual({
			error: {
				message: `upstream rejected key ${sim.apiKey}`,
				type: 'server_error',
				code: 'upstream_error',
			},
		});
		expect(chat.text).not.toContain('[DONE]');
		const set = await call('POST', `${sim.baseUrl}/__control/faults`, {
			body: { path: '/v1/responses', kind: 'stream-error', echoKey: true },
		});
		expect(set.body).toEqual({ ok: true });
		const responses = await base('POST', '/v1/responses', {});
		expect(responses.text).toContain('event: error\n');
		expect(dataPayloads(responses.text).map((event) => get(event, 'type'))).toEqual([
			'response.created',
			'error',
			'response.failed',
		]);
		expect(get(dataPayloads(responses.text)[1], 'message')).toBe(
			`upstream rejected key ${sim.apiKey}`,
		);
	});

	it('sends malformed JSON, drops connections, delays, and explains refuse', async () => {
		sim.injectFault({ path: /^\/v1\/task\/get\//, kind: 'malformed-json' });
		const broken = await fetch(`${sim.baseUrl}/v1/task/get/x`, {
			headers: { authorization: `Bearer ${sim.apiKey}` },
		});
		expect(broken.status).toBe(200);
		await expect(broken.json()).rejects.toThrow();
		expect(sim.pollLog('x')).toHaveLength(1);

		sim.injectFault({ kind: 'drop' });
		await expect(
			fetch(`${sim.baseUrl}/v1/videos/x`, { headers: { authorization: `Bearer ${sim.apiKey}` } }),
		).rejects.toThrow();

		sim.injectFault({ kind: 'delay', ms: 80 });
		const started = Date.now();
		expect((await base('GET', '/v1/videos/nope')).status).toBe(404);
		expect(Date.now() - started).toBeGreaterThanOrEqual(75);

		expect(() => sim.injectFault({ kind: 'refuse' })).toThrow(/closedPortUrl/);
		const refused = await fetch(`${await closedPortUrl()}/v1/chat/completions`).then(
			() => undefined,
			(error: unknown) => get(error, 'cause.code'),
		);
		expect(refused).toBe('ECONNREFUSED');
	});

	it('adds latencyMs to every response', async () => {
		sim.setOptions({ latencyMs: 60 });
		const started = Date.now();
		await base('GET', '/v1/videos/nope');
		expect(Date.now() - started).toBeGreaterThanOrEqual(55);
	});
});

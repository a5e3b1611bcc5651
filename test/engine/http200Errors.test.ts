import type { IDataObject } from 'n8n-workflow';

import type { Fault } from '../simulator';
import type { WorkflowNodeSpec } from './harness';
import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';

/**
 * Issue 39: a gateway that answers a text request with HTTP 200 and an error body (no
 * `choices`, no `output`) handed every caller an empty answer, and the workflow (or the AI
 * Agent's turn) ended as a success. Every caller of the two text APIs, the Chat and
 * Responses nodes and the Chat Model under a chain, streamed or not, must fail instead: with
 * the gateway's own message, the X-Trace-ID, and never the key. A normal answer still arrives.
 */

const gateway = useSimulator();

const NODE = 'Node Under Test';
const TRACE_ID = 'trace-issue-39';
const CHAT = '/v1/chat/completions';
const RESPONSES = '/v1/responses';

interface Caller {
	name: string;
	path: string;
	node: (stream: boolean) => WorkflowNodeSpec;
	/** The answer's text in the caller's output item. */
	text: (json: IDataObject) => unknown;
}

/** The Chat Model, supplied by n8n's engine to a node that asks it as a chain does. */
const chatModel = (api: 'chatCompletions' | 'responses') => (stream: boolean) => ({
	type: 'test.modelProbe',
	parameters: { prompt: 'hello', stream },
	languageModel: {
		type: 'modelGatewayChatModel',
		parameters: { model: 'model-1', api, options: { traceId: TRACE_ID } },
	},
});

const callers: Caller[] = [
	{
		name: 'Chat node',
		path: CHAT,
		node: (stream) => ({
			type: 'modelGatewayChat',
			parameters: {
				model: 'model-1',
				messages: { values: [{ role: 'user', content: 'hello' }] },
				options: { stream, traceId: TRACE_ID },
			},
		}),
		text: (json) => json.content,
	},
	{
		name: 'Responses node',
		path: RESPONSES,
		node: (stream) => ({
			type: 'modelGatewayResponses',
			parameters: { model: 'model-1', input: 'hello', options: { stream, traceId: TRACE_ID } },
		}),
		text: (json) => json.outputText,
	},
	{
		name: 'Chat Model (chat completions) under a chain',
		path: CHAT,
		node: chatModel('chatCompletions'),
		text: (json) => json.text,
	},
	{
		name: 'Chat Model (responses) under a chain',
		path: RESPONSES,
		node: chatModel('responses'),
		text: (json) => json.text,
	},
];

/** The gateway's error, inside HTTP 200, echoing the caller's key. */
const errorInside200 = (path: string, key: string): Fault => ({
	method: 'POST',
	path,
	kind: 'status',
	status: 200,
	body: {
		error: {
			message: `The upstream model is overloaded (request made with ${key})`,
			type: 'server_error',
			code: 'upstream_overloaded',
		},
	},
});

const sse = (events: Array<{ event?: string; data: object | string }>) =>
	events
		.map(
			({ event, data }) =>
				`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
		)
		.join('');

/** A well-formed event stream that ends without any answer in it. */
const answerlessStream = (path: string): Fault => ({
	method: 'POST',
	path,
	kind: 'status',
	status: 200,
	headers: { 'content-type': 'text/event-stream' },
	body:
		path === CHAT
			? sse([
					{ data: { id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [] } },
					{ data: '[DONE]' },
				])
			: sse([
					{
						event: 'response.created',
						data: { type: 'response.created', response: { id: 'resp_1', status: 'in_progress' } },
					},
					{
						event: 'response.completed',
						data: {
							type: 'response.completed',
							response: { id: 'resp_1', status: 'completed', output: [] },
						},
					},
				]),
});

const NO_ANSWER_MESSAGE: Record<string, string> = {
	[CHAT]: 'The gateway answered without an answer: the chat completion has no "choices"',
	[RESPONSES]: 'The gateway answered without an answer: the response has no "output"',
};

describe.each(callers)('$name', ({ path, node, text }) => {
	it.each([false, true])('a normal answer still arrives (stream %p)', async (stream) => {
		const result = await runNode(node(stream), { credentials: gateway.credentials() });
		expect(result.error(NODE)).toBeUndefined();
		expect(text(result.items[0].json)).toBe('Echo: hello');
	});

	it.each([false, true])(
		"an error body inside HTTP 200 fails with the gateway's message and the trace id, key redacted (stream %p)",
		async (stream) => {
			const key = gateway.simulator.apiKey;
			gateway.simulator.injectFault(errorInside200(path, key));
			const result = await runNode(node(stream), { credentials: gateway.credentials() });
			const error = result.error(NODE);
			expect(result.items).toEqual([]);
			expect(error?.message).toBe('The upstream model is overloaded (request made with ***)');
			expect(error?.description).toContain(`X-Trace-ID ${TRACE_ID}`);
			expect(error?.description).toContain('upstream_overloaded');
			expect(JSON.stringify(result.run.data)).not.toContain(key);
			const requests = gateway.simulator.requestsTo('POST', path);
			expect(requests).toHaveLength(1);
			expect(requests[0].headers['x-trace-id']).toBe(TRACE_ID);
		},
	);

	it('an event stream that ends without an answer fails, naming what is missing', async () => {
		gateway.simulator.injectFault(answerlessStream(path));
		const result = await runNode(node(true), { credentials: gateway.credentials() });
		const error = result.error(NODE);
		expect(result.items).toEqual([]);
		expect(error?.message).toBe(NO_ANSWER_MESSAGE[path]);
		expect(error?.description).toContain(`X-Trace-ID ${TRACE_ID}`);
		expect(gateway.simulator.requestsTo('POST', path)).toHaveLength(1);
	});
});

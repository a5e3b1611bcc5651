import type { IDataObject } from 'n8n-workflow';

import type { WorkflowNodeSpec } from './harness';
import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';

/**
 * The Chat Model under a chain (the engine supplies it to the test's model probe, as to n8n's
 * Basic LLM Chain) when the gateway's answer calls a tool: arguments that are not a JSON object
 * stop the run with the tool's name, the arguments and the trace id instead of reaching the
 * agent broken, streamed or not; a stream request the gateway answers with one plain JSON
 * object still hands on its text.
 */

const gateway = useSimulator();

const NODE = 'Node Under Test';
const TRACE_ID = 'trace-tool-calls';
const CHAT = '/v1/chat/completions';
const RESPONSES = '/v1/responses';

const chatModelUnderProbe = (
	api: 'chatCompletions' | 'responses',
	stream: boolean,
): WorkflowNodeSpec => ({
	type: 'test.modelProbe',
	parameters: { prompt: 'Weather in Oslo?', stream },
	languageModel: {
		type: 'modelGatewayChatModel',
		parameters: { model: 'model-1', api, options: { traceId: TRACE_ID } },
	},
});

/** One plain JSON answer (not an event stream) to the next request to `path`. */
function answerWith(path: string, body: IDataObject): void {
	gateway.simulator.injectFault({
		method: 'POST',
		path,
		kind: 'status',
		status: 200,
		headers: { 'content-type': 'application/json' },
		body,
	});
}

const CUT_OFF_ARGUMENTS = '{"city": "Os';

const chatCompletionCalling = (args: string, content: string | null = null): IDataObject => ({
	id: 'chatcmpl-tools',
	object: 'chat.completion',
	model: 'model-1',
	choices: [
		{
			index: 0,
			message: {
				role: 'assistant',
				content,
				tool_calls: [
					{ id: 'call_w', type: 'function', function: { name: 'weather', arguments: args } },
				],
			},
			// Some gateways leave the finish reason out.
			...(content === null ? { finish_reason: 'tool_calls' } : {}),
		},
	],
	usage: { prompt_tokens: 9, completion_tokens: 6, total_tokens: 15 },
});

const responseCalling = (args: string): IDataObject => ({
	id: 'resp_tools',
	object: 'response',
	status: 'completed',
	model: 'model-1',
	output: [
		{
			type: 'function_call',
			id: 'fc_1',
			call_id: 'call_w',
			name: 'weather',
			arguments: args,
			status: 'completed',
		},
	],
	usage: { input_tokens: 9, output_tokens: 6, total_tokens: 15 },
});

describe('Chat Model: a tool call with arguments that are not a JSON object', () => {
	it.each([
		['chatCompletions', false, CHAT, CUT_OFF_ARGUMENTS, chatCompletionCalling],
		['chatCompletions', true, CHAT, CUT_OFF_ARGUMENTS, chatCompletionCalling],
		['responses', false, RESPONSES, CUT_OFF_ARGUMENTS, responseCalling],
		['responses', true, RESPONSES, '[1, 2]', responseCalling],
	] as const)(
		'%s (stream %p): fails naming the tool, the arguments and the trace id, sent once',
		async (api, stream, path, args, answer) => {
			answerWith(path, answer(args));
			const result = await runNode(chatModelUnderProbe(api, stream), {
				credentials: gateway.credentials(),
			});
			const error = result.error(NODE);
			expect(result.items).toEqual([]);
			expect(error?.message).toBe(
				'The model called the tool "weather" with arguments that are not a JSON object',
			);
			expect(error?.description).toContain(`Arguments: ${args} (`);
			expect(error?.description).toContain(`X-Trace-ID ${TRACE_ID}.`);
			expect(gateway.simulator.requestsTo('POST', path)).toHaveLength(1);
		},
	);
});

describe('Chat Model: a well-formed tool call', () => {
	it('plain: the chain gets the answer with the trace id and the API in its metadata', async () => {
		answerWith(CHAT, chatCompletionCalling('{"city":"Oslo"}'));
		const result = await runNode(chatModelUnderProbe('chatCompletions', false), {
			credentials: gateway.credentials(),
		});
		expect(result.error(NODE)).toBeUndefined();
		expect(result.items[0].json).toEqual({
			text: '',
			metadata: expect.objectContaining({ traceId: TRACE_ID, api: 'chatCompletions' }),
		});
	});

	it('streamed, answered with one plain JSON object: its text arrives in one piece, then the call and the finish', async () => {
		answerWith(CHAT, chatCompletionCalling('{"city":"Oslo"}', 'Looking it up'));
		const result = await runNode(chatModelUnderProbe('chatCompletions', true), {
			credentials: gateway.credentials(),
		});
		expect(result.error(NODE)).toBeUndefined();
		expect(result.items[0].json).toEqual({
			text: 'Looking it up',
			// The text, the tool call (no text) and the finish (no text).
			deltas: ['Looking it up', '', ''],
		});
		const [request] = gateway.simulator.requestsTo('POST', CHAT);
		expect(request.body).toMatchObject({ stream: true, messages: [{ role: 'user' }] });
	});
});

import { chatCompletionFailure, responseFailure } from '../../nodes/shared/schemas/textAnswers';
import { NO_ANSWER_CODE } from '../../nodes/shared/schemas/answerRule';
import { CHAT_COMPLETIONS_API, RESPONSES_API } from '../../nodes/shared/text/textApis';

/** Issue 39: what a success of each text API carries, and what is a failure instead. */

const completion = {
	id: 'chatcmpl-1',
	object: 'chat.completion',
	choices: [{ index: 0, message: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
};

const response = {
	id: 'resp_1',
	object: 'response',
	status: 'completed',
	output: [{ type: 'message', content: [{ type: 'output_text', text: 'Hi' }] }],
};

const NO_CHOICES = {
	code: NO_ANSWER_CODE,
	message: 'The gateway answered without an answer: the chat completion has no "choices"',
};

const NO_OUTPUT = {
	code: NO_ANSWER_CODE,
	message: 'The gateway answered without an answer: the response has no "output"',
};

const gatewayError = {
	error: { message: 'The upstream is overloaded', type: 'server_error', code: 'overloaded' },
};

describe('the chat completions rule', () => {
	it.each<[string, unknown]>([
		['a completion', completion],
		['a completion with a null error member', { ...completion, error: null }],
		['a completion without id, model or usage', { choices: completion.choices }],
		[
			'a choice whose message only calls tools',
			{ choices: [{ message: { content: null, tool_calls: [] } }] },
		],
	])('%s is a success', (_name, body) => {
		expect(chatCompletionFailure(body)).toBeUndefined();
	});

	it.each<[string, unknown, { code: string; message: string }]>([
		['an error body', gatewayError, { code: 'overloaded', message: 'The upstream is overloaded' }],
		[
			'an error body with only a type',
			{ error: { message: 'slow down', type: 'rate_limit' } },
			{ code: 'rate_limit', message: 'slow down' },
		],
		[
			'an error body with a numeric code',
			{ error: { message: 'quota', code: 1302 } },
			{ code: '1302', message: 'quota' },
		],
		[
			'an error beside choices',
			{ ...completion, error: { message: 'partial failure' } },
			{ code: NO_ANSWER_CODE, message: 'partial failure' },
		],
		[
			'a message at the top',
			{ code: 500, message: 'upstream failed' },
			{ code: NO_ANSWER_CODE, message: 'upstream failed' },
		],
		['no choices', { id: 'chatcmpl-1', object: 'chat.completion' }, NO_CHOICES],
		['an empty list of choices', { ...completion, choices: [] }, NO_CHOICES],
		[
			'a choice without its message',
			{ choices: [{ index: 0, finish_reason: 'stop' }] },
			NO_CHOICES,
		],
		['a text', 'Service busy', { code: NO_ANSWER_CODE, message: 'Service busy' }],
		['an empty answer', '', NO_CHOICES],
	])('%s is a failure', (_name, body, failure) => {
		expect(chatCompletionFailure(body)).toEqual(failure);
	});
});

describe('the responses rule', () => {
	it.each<[string, unknown]>([
		['a completed response', response],
		['a response with a null error member', { ...response, error: null }],
		['a response without status', { output: response.output }],
		['an incomplete response with no output yet', { status: 'incomplete', output: [] }],
		['an incomplete response', { ...response, status: 'incomplete' }],
	])('%s is a success', (_name, body) => {
		expect(responseFailure(body)).toBeUndefined();
	});

	it.each<[string, unknown, { code: string; message: string }]>([
		['an error body', gatewayError, { code: 'overloaded', message: 'The upstream is overloaded' }],
		[
			'a failed response with its error',
			{ ...response, status: 'failed', output: [], error: { code: 'server_error', message: 'x' } },
			{ code: 'server_error', message: 'x' },
		],
		[
			'a failed response that says nothing',
			{ ...response, status: 'FAILED' },
			{
				code: NO_ANSWER_CODE,
				message: 'The gateway answered that the response failed, without saying why',
			},
		],
		['no output', { id: 'resp_1', status: 'completed' }, NO_OUTPUT],
		['a completed response with an empty output', { ...response, output: [] }, NO_OUTPUT],
	])('%s is a failure', (_name, body, failure) => {
		expect(responseFailure(body)).toEqual(failure);
	});
});

describe('every caller gets the same rule', () => {
	// The nodes and the Chat Model send through these (textApis.ts); the stream aggregators'
	// use of the rule is tested with them (sse.aggregators.test.ts).
	it('the API the nodes and the Chat Model send to carries it', () => {
		expect(CHAT_COMPLETIONS_API.answerFailure).toBe(chatCompletionFailure);
		expect(RESPONSES_API.answerFailure).toBe(responseFailure);
	});
});

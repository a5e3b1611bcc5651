import { simplifyChatCompletion } from '../../nodes/ModelGatewayChat/output';
import { simplifyResponse } from '../../nodes/ModelGatewayResponses/output';
import { outputTextOf } from '../../nodes/shared/text/responseOutput';
import { parseJsonAnswer, parseToolArguments } from '../../nodes/shared/text/textGeneration';

/**
 * The Chat and Responses nodes' simplified output for sparse answers: upstream notes, "missing
 * optional fields must be handled without crashing".
 */

const context = { model: 'asked-model', wantsJson: false };

describe('Chat: Simplify Output', () => {
	it('an answer without choices, usage, model or id', () => {
		expect(simplifyChatCompletion({}, context)).toEqual({
			content: null,
			toolCalls: [],
			finishReason: null,
			usage: null,
			model: 'asked-model',
			id: null,
			traceId: null,
		});
	});

	it('a choice without a message, a refusal, sparse tool calls, and several choices', () => {
		const completion = {
			id: 'c1',
			model: 'served-model',
			choices: [
				{ message: { content: null, refusal: 'no' } },
				{
					finish_reason: 'tool_calls',
					message: {
						content: '```json\n{"a":1}\n```',
						tool_calls: [
							null,
							{ id: 't1', type: 'custom', function: { name: 'f', arguments: 'not json' } },
							{ function: { arguments: '' } },
						],
					},
				},
				{},
			],
		};
		const simplified = simplifyChatCompletion(completion, {
			...context,
			wantsJson: true,
			traceId: 'trace-1',
		});
		expect(simplified).toMatchObject({
			content: null,
			refusal: 'no',
			toolCalls: [],
			finishReason: null,
			model: 'served-model',
			id: 'c1',
			traceId: 'trace-1',
		});
		expect(simplified).not.toHaveProperty('parsed');
		expect((simplified.choices as object[])[1]).toEqual({
			content: '```json\n{"a":1}\n```',
			parsed: { a: 1 },
			toolCalls: [
				{ id: null, type: 'function', name: null, arguments: {} },
				{ id: 't1', type: 'custom', name: 'f', arguments: 'not json' },
				{ id: null, type: 'function', name: null, arguments: {} },
			],
			finishReason: 'tool_calls',
		});
		expect((simplified.choices as object[])[2]).toEqual({
			content: null,
			toolCalls: [],
			finishReason: null,
		});
	});
});

describe('Responses: Simplify Output', () => {
	it('a response without output, status, model or id', () => {
		expect(simplifyResponse({}, context)).toEqual({
			outputText: '',
			functionCalls: [],
			output: [],
			status: null,
			usage: null,
			reasoningTokens: null,
			model: 'asked-model',
			id: null,
			traceId: null,
		});
	});

	it('joins the text parts of message items only, keeps function calls sparse, and incomplete details', () => {
		const response = {
			id: 'r1',
			status: 'incomplete',
			incomplete_details: { reason: 'max_output_tokens' },
			output: [
				{ type: 'message', content: [{ type: 'output_text', text: '[1,' }, { type: 'refusal' }] },
				{ type: 'message' },
				{ type: 'reasoning', content: [{ type: 'output_text', text: 'hidden' }] },
				{
					type: 'message',
					content: [{ type: 'output_text', text: ' 2]' }, { type: 'output_text' }],
				},
				{ type: 'function_call', arguments: { already: 'parsed' } },
			],
		};
		expect(outputTextOf(response)).toBe('[1, 2]');
		const simplified = simplifyResponse(response, { ...context, wantsJson: true });
		expect(simplified).toMatchObject({
			outputText: '[1, 2]',
			parsed: [1, 2],
			functionCalls: [{ id: null, callId: null, name: null, arguments: { already: 'parsed' } }],
			status: 'incomplete',
			incompleteDetails: { reason: 'max_output_tokens' },
		});
	});
});

describe('model text as JSON', () => {
	it.each([
		['{"a":1}', { a: 1 }],
		['```\n[1]\n```', [1]],
		['"just a string"', undefined],
		['null', undefined],
		['not json', undefined],
		[42, undefined],
	])('parseJsonAnswer(%p)', (text, expected) => {
		expect(parseJsonAnswer(text)).toEqual(expected);
	});

	it.each([
		[undefined, {}],
		[null, {}],
		['  ', {}],
		['{"city":"Paris"}', { city: 'Paris' }],
		['Paris', 'Paris'],
		[{ city: 'Paris' }, { city: 'Paris' }],
	])('parseToolArguments(%p)', (text, expected) => {
		expect(parseToolArguments(text)).toEqual(expected);
	});
});

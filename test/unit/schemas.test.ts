import { NodeOperationError } from 'n8n-workflow';
import type { INode } from 'n8n-workflow';

import { chatCompletionRequestSchema } from '../../nodes/shared/schemas/chatCompletion';
import { responsesRequestSchema } from '../../nodes/shared/schemas/responses';
import { fieldPath, validateRequest } from '../../nodes/shared/schemas/validate';

const node: INode = {
	id: '1',
	name: 'Chat',
	type: 'x',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const valid = { model: 'm', messages: [{ role: 'user', content: 'hi' }] };

function problem(body: object, itemIndex = 0): string {
	try {
		validateRequest(chatCompletionRequestSchema, body, node, itemIndex);
	} catch (error) {
		expect(error).toBeInstanceOf(NodeOperationError);
		return (error as Error).message;
	}
	throw new Error('expected a validation error');
}

describe('chat completion schema', () => {
	it('accepts a minimal and a full request, keeping unknown fields', () => {
		expect(validateRequest(chatCompletionRequestSchema, valid, node, 0)).toEqual(valid);
		const full = {
			...valid,
			temperature: 2,
			top_p: 0,
			max_tokens: 1,
			max_completion_tokens: 5,
			n: 2,
			stop: ['END'],
			presence_penalty: -2,
			frequency_penalty: 2,
			tools: [{ type: 'function', function: { name: 'f' } }],
			tool_choice: 'required',
			parallel_tool_calls: false,
			response_format: { type: 'json_object' },
			user: 'u1',
			stream: true,
			stream_options: { include_usage: true },
			future_field: 1,
		};
		expect(validateRequest(chatCompletionRequestSchema, full, node, 0)).toEqual(full);
	});

	it.each([
		[{ temperature: 2.5 }, '"temperature": must be between 0 and 2'],
		[{ temperature: -0.1 }, '"temperature": must be between 0 and 2'],
		[{ top_p: 1.5 }, '"top_p": must be between 0 and 1'],
		[{ presence_penalty: -3 }, '"presence_penalty": must be between -2 and 2'],
		[{ frequency_penalty: 2.1 }, '"frequency_penalty": must be between -2 and 2'],
		[{ max_tokens: 0 }, '"max_tokens": must be at least 1'],
		[{ max_completion_tokens: 0 }, '"max_completion_tokens": must be at least 1'],
		[{ n: 1.5 }, '"n": must be a whole number'],
		[
			{ tool_choice: 'sometimes' },
			'"tool_choice": must be "none", "auto", "required" or a tool object',
		],
		[{ messages: [] }, '"messages": must contain at least 1 message'],
		[{ model: '  ' }, '"model": model is required'],
		[
			{ messages: [{ role: 'tool', content: 'x' }] },
			'"messages[0].tool_call_id": is required when role is "tool"',
		],
		[
			{ messages: [{ role: 'user', content: 'x', tool_calls: [] }] },
			'"messages[0].tool_calls": is only allowed on assistant messages',
		],
	])('rejects %j', (change, expected) => {
		expect(problem({ ...valid, ...change }, 3)).toContain(`Item 3: ${expected}`);
	});

	it('counts further problems', () => {
		expect(problem({ ...valid, temperature: 9, top_p: 9, n: 0 })).toMatch(
			/\(and 2 more problems\)$/,
		);
	});

	it('formats nested field paths', () => {
		expect(fieldPath(['messages', 0, 'role'])).toBe('messages[0].role');
		expect(fieldPath([])).toBe('');
	});
});

describe('chat: what the upstream refuses (simulator README, upstream notes)', () => {
	it('stream_options only with stream: true (note 1)', () => {
		const streamOptions = { include_usage: true };
		expect(problem({ ...valid, stream_options: streamOptions })).toBe(
			'Item 0: "stream_options": is only allowed when streaming',
		);
		const streamed = { ...valid, stream: true, stream_options: streamOptions };
		expect(validateRequest(chatCompletionRequestSchema, streamed, node, 0)).toEqual(streamed);
	});

	it('response_format.type text, json_object or json_schema (note 2)', () => {
		expect(problem({ ...valid, response_format: { type: 'xml' } })).toBe(
			'Item 0: "response_format.type": must be one of text, json_object, json_schema',
		);
		const text = { ...valid, response_format: { type: 'text' } };
		expect(validateRequest(chatCompletionRequestSchema, text, node, 0)).toEqual(text);
	});
});

describe('the spec message rules, checked before sending', () => {
	const chatProblem = (messages: object[]) => problem({ model: 'm', messages });

	it.each([
		['missing', { role: 'user' }],
		['null', { role: 'user', content: null }],
		['empty', { role: 'system', content: '' }],
		['an empty list of parts', { role: 'user', content: [] }],
		['empty on an assistant without tool calls', { role: 'assistant', content: '' }],
	])('refuses a chat message whose content is %s', (_what, message) => {
		expect(chatProblem([message])).toBe(
			'Item 0: "messages[0].content": is required (only an assistant message with tool_calls may leave it empty)',
		);
	});

	it('lets an assistant message that calls tools leave its content empty', () => {
		const toolCalls = [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }];
		for (const content of [null, '', undefined]) {
			const body = {
				model: 'm',
				messages: [
					{ role: 'user', content: 'hi' },
					{ role: 'assistant', content, tool_calls: toolCalls },
					{ role: 'tool', tool_call_id: 'c1', content: 'sunny' },
				],
			};
			expect(() => validateRequest(chatCompletionRequestSchema, body, node, 0)).not.toThrow();
		}
	});

	const responsesProblem = (input: unknown): string | undefined => {
		try {
			validateRequest(responsesRequestSchema, { model: 'm', input }, node, 0);
			return undefined;
		} catch (error) {
			return (error as Error).message;
		}
	};

	it('accepts Responses input items with a role or a type', () => {
		expect(
			responsesProblem([
				{ role: 'user', content: 'hi' },
				{ type: 'function_call', call_id: 'c1', name: 'f', arguments: '{}' },
				{ type: 'function_call_output', call_id: 'c1', output: 'sunny' },
			]),
		).toBeUndefined();
		expect(responsesProblem('[not JSON, just text]')).toBeUndefined();
	});

	it('refuses a Responses input item with neither role nor type', () => {
		expect(responsesProblem([{ role: 'user', content: 'hi' }, { content: 'orphan' }])).toBe(
			'Item 0: "input[1]": needs a "role" (a message) or a "type" (such as "function_call_output"); this item has neither',
		);
	});

	it('refuses a function_call_output without its call_id', () => {
		expect(responsesProblem([{ type: 'function_call_output', output: 'sunny' }])).toBe(
			'Item 0: "input[0].call_id": is required on a "function_call_output" item',
		);
	});
});

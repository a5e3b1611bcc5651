import type { IDataObject } from 'n8n-workflow';

import type { WorkflowNodeSpec } from './harness';
import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';

/**
 * Every parameter of Chat and Responses that takes JSON refuses text that does not parse,
 * naming the field, the item and where the parser stopped, and sends nothing: malformed
 * JSON is never sent on as a string.
 */

const gateway = useSimulator();
const NODE = 'Node Under Test';

const BAD_OBJECT = '{"a": 1,}';
const OBJECT_PROBLEM =
	'is not valid JSON: Expected double-quoted property name at position 8 (line 1, column 9)';
const BAD_ARRAY = '[{"role": "user", "content": "hi"},]';
const ARRAY_PROBLEM = "is not valid JSON: Unexpected token ']' at position 35 (line 1, column 36)";

const chat = (parameters: IDataObject, options: IDataObject = {}) => ({
	type: 'modelGatewayChat',
	parameters: {
		model: 'chat-model-1',
		messages: { values: [{ role: 'user', content: 'hi' }] },
		...parameters,
		options,
	},
});

const responses = (parameters: IDataObject, options: IDataObject = {}) => ({
	type: 'modelGatewayResponses',
	parameters: { model: 'resp-model-1', input: 'hi', ...parameters, options },
});

const cases: Array<[name: string, spec: WorkflowNodeSpec, message: string]> = [
	[
		'Chat: Messages (JSON)',
		chat({ messagesMode: 'json', messagesJson: BAD_ARRAY }),
		`Item 0: "messages": ${ARRAY_PROBLEM}`,
	],
	[
		'Chat: Tool Calls (JSON) of an assistant message',
		chat({
			messages: {
				values: [
					{ role: 'user', content: 'hi' },
					{ role: 'assistant', content: '', toolCalls: BAD_ARRAY },
				],
			},
		}),
		`Item 0: "messages[1].tool_calls": ${ARRAY_PROBLEM}`,
	],
	['Chat: Tools (JSON)', chat({}, { tools: BAD_ARRAY }), `Item 0: "tools": ${ARRAY_PROBLEM}`],
	[
		'Chat: Tool Choice Object (JSON)',
		chat({}, { toolChoice: 'object', toolChoiceObject: BAD_OBJECT }),
		`Item 0: "tool_choice": ${OBJECT_PROBLEM}`,
	],
	[
		'Chat: Stream Options (JSON)',
		chat({}, { stream: true, streamOptions: BAD_OBJECT }),
		`Item 0: "stream_options": ${OBJECT_PROBLEM}`,
	],
	[
		'Chat: JSON Schema (Response Format)',
		chat({}, { outputFormat: 'json_schema', jsonSchema: BAD_OBJECT }),
		`Item 0: "JSON Schema" ${OBJECT_PROBLEM}`,
	],
	[
		'Responses: Input (JSON)',
		responses({ inputMode: 'json', inputJson: BAD_ARRAY }),
		`Item 0: "Input (JSON)" ${ARRAY_PROBLEM}`,
	],
	[
		'Responses: Tools (JSON)',
		responses({}, { tools: BAD_ARRAY }),
		`Item 0: "tools": ${ARRAY_PROBLEM}`,
	],
	[
		'Responses: Tool Choice Object (JSON)',
		responses({}, { toolChoice: 'object', toolChoiceObject: BAD_OBJECT }),
		`Item 0: "tool_choice": ${OBJECT_PROBLEM}`,
	],
	[
		'Responses: Stream Options (JSON)',
		responses({}, { stream: true, streamOptions: BAD_OBJECT }),
		`Item 0: "stream_options": ${OBJECT_PROBLEM}`,
	],
	[
		'Responses: JSON Schema (text format)',
		responses({}, { outputFormat: 'json_schema', jsonSchema: BAD_OBJECT }),
		`Item 0: "JSON Schema" ${OBJECT_PROBLEM}`,
	],
	[
		'Responses: Metadata (JSON)',
		responses({}, { metadata: BAD_OBJECT }),
		`Item 0: "metadata": ${OBJECT_PROBLEM}`,
	],
	[
		'Responses: Prompt Template (JSON)',
		responses({}, { prompt: BAD_OBJECT }),
		`Item 0: "prompt": ${OBJECT_PROBLEM}`,
	],
];

describe('JSON parameters refuse text that does not parse', () => {
	it.each(cases)('%s', async (_name, spec, message) => {
		const result = await runNode(spec, { credentials: gateway.credentials() });
		const error = result.error(NODE);
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toBe(message);
		expect(gateway.simulator.requests).toHaveLength(0);
	});

	it('names the item whose JSON does not parse', async () => {
		const result = await runNode(
			chat({}, { outputFormat: 'json_schema', jsonSchema: '={{ $json.schema }}' }),
			{
				credentials: gateway.credentials(),
				input: [{ json: { schema: '{"type": "object"}' } }, { json: { schema: BAD_OBJECT } }],
			},
		);
		expect(result.error(NODE)?.message).toBe(`Item 1: "JSON Schema" ${OBJECT_PROBLEM}`);
	});
});

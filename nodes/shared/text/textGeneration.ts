import type {
	IDataObject,
	IExecuteFunctions,
	INode,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { itemParameter } from '../items/itemParameters';
import { processItems } from '../items/items';
import { parseJsonText } from '../items/jsonText';
import { readStreamedAnswer } from '../streams/sse';
import type { TextApi } from './textApis';
import { sendToTextApi } from './textApis';

/**
 * What the two text nodes (Chat and Responses) share: option properties for tools,
 * structured output, streaming and tracing; reading those options into request fields;
 * sending one request, streamed or not; parsing JSON answers.
 */

export { modelProperty } from '../items/properties';

/**
 * The "Messages" fixed collection: one entry per message, a role, its content and any
 * role-specific fields; shown when `show` matches.
 */
export const messageListProperty = (
	show: Record<string, string[]>,
	roles: Array<{ name: string; value: string; description?: string }>,
	extraFields: INodeProperties[] = [],
): INodeProperties => ({
	displayName: 'Messages',
	name: 'messages',
	type: 'fixedCollection',
	typeOptions: { multipleValues: true, sortable: true },
	default: { values: [{ role: 'user', content: '' }] },
	placeholder: 'Add Message',
	displayOptions: { show },
	options: [
		{
			displayName: 'Message',
			name: 'values',
			values: [
				{ displayName: 'Role', name: 'role', type: 'options', options: roles, default: 'user' },
				{
					displayName: 'Content',
					name: 'content',
					type: 'string',
					typeOptions: { rows: 2 },
					default: '',
				},
				...extraFields,
			],
		},
	],
});

export const simplifyProperty: INodeProperties = {
	displayName: 'Simplify Output',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description:
		'Whether to return a compact result (text, tool calls with parsed arguments, usage, IDs) instead of the raw gateway response',
};

export const toolOptions: INodeProperties[] = [
	{
		displayName: 'Tools (JSON)',
		name: 'tools',
		type: 'json',
		default: '[]',
		description: 'Tool (function) definitions the model may call, as a JSON array',
	},
	{
		displayName: 'Tool Choice',
		name: 'toolChoice',
		type: 'options',
		options: [
			{ name: 'Auto', value: 'auto', description: 'The model decides whether to call a tool' },
			{ name: 'None', value: 'none', description: 'The model never calls a tool' },
			{ name: 'Required', value: 'required', description: 'The model must call at least one tool' },
			{
				name: 'Specific Tool (JSON)',
				value: 'object',
				description: 'Force one tool, given as a JSON object',
			},
		],
		default: 'auto',
	},
	{
		displayName: 'Tool Choice Object (JSON)',
		name: 'toolChoiceObject',
		type: 'json',
		default: '{}',
		description: 'Used when Tool Choice is "Specific Tool (JSON)"',
	},
	{
		displayName: 'Parallel Tool Calls',
		name: 'parallelToolCalls',
		type: 'boolean',
		default: true,
		description: 'Whether the model may call several tools in one turn',
	},
];

export const structuredOutputOptions: INodeProperties[] = [
	{
		displayName: 'Output Format',
		name: 'outputFormat',
		type: 'options',
		options: [
			{ name: 'Text', value: 'text' },
			{ name: 'JSON Mode', value: 'json_object', description: 'Any valid JSON object' },
			{
				name: 'JSON Schema',
				value: 'json_schema',
				description: 'JSON that follows the schema below',
			},
		],
		default: 'text',
		description:
			'JSON answers are also parsed into the "parsed" output field; the original text is kept',
	},
	{
		displayName: 'JSON Schema',
		name: 'jsonSchema',
		type: 'json',
		default: '{\n  "type": "object",\n  "properties": {},\n  "required": []\n}',
		description: 'Used when Output Format is "JSON Schema"',
	},
	{
		displayName: 'Schema Name',
		name: 'schemaName',
		type: 'string',
		default: 'result',
		description: 'Name of the JSON schema, used when Output Format is "JSON Schema"',
	},
	{
		displayName: 'Strict Schema',
		name: 'strictSchema',
		type: 'boolean',
		default: true,
		description: 'Whether the answer must follow the JSON schema exactly',
	},
];

export const streamOptions: INodeProperties[] = [
	{
		displayName: 'Stream',
		name: 'stream',
		type: 'boolean',
		default: false,
		description:
			'Whether to receive the answer as server-sent events. The node still outputs the complete answer; when the workflow itself streams its response, text is relayed as it arrives.',
	},
	{
		displayName: 'Stream Options (JSON)',
		name: 'streamOptions',
		type: 'json',
		default: '{}',
		description: 'Extra streaming parameters (stream_options), only sent when streaming',
	},
];

const isBlankJson = (value: unknown): boolean =>
	value === undefined ||
	value === null ||
	(typeof value === 'string' && ['', '{}', '[]'].includes(value.replace(/\s/g, ''))) ||
	(Array.isArray(value) && value.length === 0);

/** `tools`, `tool_choice` and `parallel_tool_calls` from the options (raw; the schema checks them). */
export function toolFields(options: IDataObject): IDataObject {
	const fields: IDataObject = {};
	if (!isBlankJson(options.tools)) fields.tools = options.tools;
	if (options.toolChoice === 'object') fields.tool_choice = options.toolChoiceObject ?? {};
	else if (options.toolChoice !== undefined) fields.tool_choice = options.toolChoice;
	if (options.parallelToolCalls !== undefined)
		fields.parallel_tool_calls = options.parallelToolCalls;
	return fields;
}

export interface StructuredFormat {
	type: 'json_object' | 'json_schema';
	name?: string;
	schema?: unknown;
	strict?: boolean;
}

/** The requested JSON output, if any; JSON schema text that does not parse is refused. */
export function structuredFormat(
	options: IDataObject,
	where: { node: INode; itemIndex: number },
): StructuredFormat | undefined {
	if (options.outputFormat === 'json_object') return { type: 'json_object' };
	if (options.outputFormat !== 'json_schema') return undefined;
	return {
		type: 'json_schema',
		name:
			typeof options.schemaName === 'string' && options.schemaName.trim() !== ''
				? options.schemaName.trim()
				: 'result',
		schema: parseJsonText(options.jsonSchema, { ...where, field: 'JSON Schema' }),
		strict: options.strictSchema !== false,
	};
}

/** `stream` and, only when streaming, `stream_options`. */
export function streamFields(options: IDataObject): IDataObject {
	if (options.stream !== true) return {};
	return {
		stream: true,
		...(isBlankJson(options.streamOptions) ? {} : { stream_options: options.streamOptions }),
	};
}

/** A JSON object or array parsed from model text, or undefined when the text is not JSON. */
export function parseJsonAnswer(text: unknown): IDataObject | IDataObject[] | undefined {
	if (typeof text !== 'string') return undefined;
	const trimmed = text
		.trim()
		// Models sometimes wrap JSON in a Markdown code fence.
		.replace(/^```(?:json)?\s*([\s\S]*?)\s*```$/i, '$1');
	try {
		const parsed = JSON.parse(trimmed) as unknown;
		return parsed !== null && typeof parsed === 'object'
			? (parsed as IDataObject | IDataObject[])
			: undefined;
	} catch {
		return undefined;
	}
}

/** Tool-call arguments as an object when they are valid JSON, else the text as sent. */
export function parseToolArguments(text: unknown): unknown {
	if (typeof text !== 'string') return text ?? {};
	if (text.trim() === '') return {};
	return parseJsonAnswer(text) ?? text;
}

/**
 * Sends one text request and returns the answer (aggregated, when streamed) and its trace ID;
 * an answer that is no success of the API fails the item in the gateway's words.
 */
export async function sendTextRequest(
	context: IExecuteFunctions,
	api: TextApi,
	request: { body: IDataObject; traceId?: string; itemIndex: number },
): Promise<{ body: IDataObject; traceId?: string }> {
	const stream = request.body.stream === true;
	const response = await sendToTextApi(context, api, { ...request, stream });
	const body = stream
		? await readStreamedAnswer(context, response, api.aggregator(), request.itemIndex)
		: (response.body as IDataObject);
	return { body, traceId: response.traceId };
}

/** One text operation, as a node describes it to `executeTextOperation`. */
export interface TextOperation<TRequest extends { model: string }> {
	api: TextApi;
	buildRequest: (context: IExecuteFunctions, itemIndex: number) => TRequest;
	/** Whether the request asks for JSON output (then the answer is parsed). */
	wantsJson: (request: TRequest) => boolean;
	simplify: (
		body: IDataObject,
		context: { model: string; traceId?: string; wantsJson: boolean },
	) => IDataObject;
}

/** The whole execute of a text node: every item validated first, then sent, aggregated and shaped. */
export async function executeTextOperation<TRequest extends { model: string }>(
	context: IExecuteFunctions,
	operation: TextOperation<TRequest>,
): Promise<INodeExecutionData[][]> {
	const concurrency = context.getNodeParameter('options.concurrency', 0, 1) as number;
	const output = await processItems(
		context,
		{
			prepare: (itemIndex) => operation.buildRequest(context, itemIndex),
			send: async (request: TRequest, itemIndex) => {
				const response = await sendTextRequest(context, operation.api, {
					body: request as unknown as IDataObject,
					traceId: itemParameter(context, 'options.traceId', itemIndex, ''),
					itemIndex,
				});
				const json = itemParameter(context, 'simplify', itemIndex, true)
					? operation.simplify(response.body, {
							model: request.model,
							traceId: response.traceId,
							wantsJson: operation.wantsJson(request),
						})
					: { ...response.body, traceId: response.traceId ?? null };
				return { json, pairedItem: { item: itemIndex } };
			},
			// Simplified or raw, the answer's own ID is `id`.
			createdId: (item) =>
				typeof item.json.id === 'string' && item.json.id !== ''
					? `response ${item.json.id}`
					: undefined,
		},
		{ concurrency },
	);
	return [output];
}

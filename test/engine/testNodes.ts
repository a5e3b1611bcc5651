import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { TASK_FAMILIES, type FamilyId } from '../../nodes/shared/tasks';
import type { GatewayRequest, RetryPolicy } from '../../nodes/shared/gateway/transport';
import {
	ASSET_REVIEW_CREDENTIAL,
	DEFAULT_RETRY_POLICY,
	GATEWAY_CREDENTIAL,
	gatewayRequest,
} from '../../nodes/shared/gateway/transport';

function parseJsonParameter<T>(value: unknown): T {
	return (typeof value === 'string' ? JSON.parse(value) : value) as T;
}

/** One test input item: JSON plus, optionally, binary properties given as raw bytes. */
export interface TestItem {
	json: IDataObject;
	binary?: Record<string, { data: Buffer; mimeType: string; fileName?: string }>;
}

/**
 * Test-only source node: emits the items given in its `items` parameter, storing binary
 * properties through n8n's own binary helpers so downstream nodes see real binary data.
 */
export class TestItemsSource implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Test Items',
		name: 'testItems',
		group: ['input'],
		version: 1,
		description: 'Emits fixed items for engine tests',
		defaults: { name: 'Test Items' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = parseJsonParameter<
			Array<{
				json: IDataObject;
				binary?: Record<string, { base64: string; mimeType: string; fileName?: string }>;
			}>
		>(this.getNodeParameter('items', 0));
		const output: INodeExecutionData[] = [];
		for (const [index, item] of items.entries()) {
			const binary: IBinaryKeyData = {};
			for (const [property, file] of Object.entries(item.binary ?? {})) {
				binary[property] = await this.helpers.prepareBinaryData(
					Buffer.from(file.base64, 'base64'),
					file.fileName,
					file.mimeType,
				);
			}
			output.push({
				json: item.json,
				...(Object.keys(binary).length ? { binary } : {}),
				pairedItem: { item: index },
			});
		}
		return [output];
	}
}

/** For the transport's own tests: every answer is a success. */
const anyAnswer = (): undefined => undefined;

/**
 * Test-only node that sends one request through the package's transport, so the transport
 * is exercised inside the real engine with real credential authentication.
 */
export class TransportProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Transport Probe',
		name: 'transportProbe',
		group: ['transform'],
		version: 1,
		description: 'Sends one gateway request for engine tests',
		defaults: { name: 'Transport Probe' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{ name: GATEWAY_CREDENTIAL, required: false },
			{ name: ASSET_REVIEW_CREDENTIAL, required: false },
		],
		properties: [
			{ displayName: 'Request', name: 'request', type: 'json', default: '{}' },
			{ displayName: 'Retry Policy', name: 'retryPolicy', type: 'json', default: '{}' },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		// A function cannot travel as JSON: `businessFailureOf` names the family whose rule to use
		// (its create answer's for a create, its task record's otherwise); without one the probe
		// takes any answer, to test the transport itself.
		const { businessFailureOf, ...request } = parseJsonParameter<
			Omit<GatewayRequest, 'businessFailure'> & { businessFailureOf?: FamilyId }
		>(this.getNodeParameter('request', 0));
		const retryPolicy = parseJsonParameter<Partial<RetryPolicy>>(
			this.getNodeParameter('retryPolicy', 0),
		);
		const response = await gatewayRequest(
			this,
			{
				itemIndex: 0,
				...request,
				businessFailure: businessFailureOf
					? TASK_FAMILIES[businessFailureOf].answerFailure[
							request.kind === 'create' ? 'create' : 'query'
						]
					: anyAnswer,
			},
			{ ...DEFAULT_RETRY_POLICY, ...retryPolicy },
		);
		return [
			[
				{
					json: {
						body: response.body as IDataObject,
						statusCode: response.statusCode,
						traceId: response.traceId ?? null,
					},
					pairedItem: { item: 0 },
				},
			],
		];
	}
}

/**
 * Test-only node standing for time passing between two nodes: moves each item's `createdAt`
 * `ageMs` into the past (as the simulator's `taskAgeMs` does for its own tasks), so a node
 * after it sees tasks that were created that long ago.
 */
export class AgeTasks implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Age Tasks',
		name: 'ageTasks',
		group: ['transform'],
		version: 1,
		description: 'Moves createdAt into the past, for engine tests',
		defaults: { name: 'Age Tasks' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Age (ms)', name: 'ageMs', type: 'number', default: 0 }],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const ageMs = this.getNodeParameter('ageMs', 0) as number;
		return [
			this.getInputData().map((item, index) => {
				const createdAt = Date.parse(String(item.json.createdAt));
				return {
					...item,
					json: Number.isNaN(createdAt)
						? item.json
						: { ...item.json, createdAt: new Date(createdAt - ageMs).toISOString() },
					pairedItem: { item: index },
				};
			}),
		];
	}
}

/** What the probe needs of the LangChain model a Chat Model sub-node supplies. */
interface SuppliedModel {
	invoke(input: string): Promise<{ content: unknown; response_metadata?: IDataObject }>;
	stream(input: string): Promise<AsyncIterable<{ content: unknown }>>;
}

/** The text of a LangChain message's content: a string, or text parts. */
function contentText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return '';
	return content
		.map((part: unknown) =>
			typeof part === 'object' && part !== null && 'text' in part ? String(part.text) : '',
		)
		.join('');
}

/**
 * Test-only node standing for a chain (n8n's Basic LLM Chain, one AI Agent step): asks the
 * model on its AI Language Model input one prompt, plainly (`invoke`) or streamed (`stream`).
 * n8n's engine supplies the model, running the sub-node's supplyData as it does for a chain.
 */
export class ModelProbe implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Model Probe',
		name: 'modelProbe',
		group: ['transform'],
		version: 1,
		description: 'Asks a connected chat model one prompt, for engine tests',
		defaults: { name: 'Model Probe' },
		inputs: [
			NodeConnectionTypes.Main,
			{
				type: NodeConnectionTypes.AiLanguageModel,
				displayName: 'Model',
				required: true,
				maxConnections: 1,
			},
		],
		outputs: [NodeConnectionTypes.Main],
		properties: [
			{ displayName: 'Prompt', name: 'prompt', type: 'string', default: '' },
			{ displayName: 'Stream', name: 'stream', type: 'boolean', default: false },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const model = (await this.getInputConnectionData(
			NodeConnectionTypes.AiLanguageModel,
			0,
		)) as SuppliedModel;
		const prompt = this.getNodeParameter('prompt', 0) as string;
		if (this.getNodeParameter('stream', 0) as boolean) {
			const deltas: string[] = [];
			for await (const chunk of await model.stream(prompt)) deltas.push(contentText(chunk.content));
			return [[{ json: { text: deltas.join(''), deltas }, pairedItem: { item: 0 } }]];
		}
		const message = await model.invoke(prompt);
		return [
			[
				{
					json: { text: contentText(message.content), metadata: message.response_metadata ?? {} },
					pairedItem: { item: 0 },
				},
			],
		];
	}
}

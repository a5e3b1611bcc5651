import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { concurrencyOption, processItems } from '../shared/items';
import { chatCompletionRequestSchema } from '../shared/schemas/chatCompletion';
import { validateRequest } from '../shared/schemas/validate';
import { GATEWAY_CREDENTIAL, gatewayRequest } from '../shared/transport';

interface ChatCompletionResponse {
	id?: string;
	model?: string;
	choices?: Array<{
		index?: number;
		message?: { role?: string; content?: string | null; tool_calls?: IDataObject[] };
		finish_reason?: string | null;
	}>;
	usage?: IDataObject;
}

export class ModelGatewayChat implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Model Gateway Chat',
		name: 'modelGatewayChat',
		icon: { light: 'file:modelGatewayChat.svg', dark: 'file:modelGatewayChat.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["model"]}}',
		description: 'Send a conversation to a chat model through the Model Gateway',
		defaults: { name: 'Model Gateway Chat' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: GATEWAY_CREDENTIAL, required: true }],
		properties: [
			{
				displayName: 'Model',
				name: 'model',
				type: 'string',
				default: '',
				required: true,
				placeholder: 'e.g. gpt-4o-mini',
				description: 'A model name enabled for your account in the gateway console',
			},
			{
				displayName: 'Messages',
				name: 'messages',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true, sortable: true },
				default: { values: [{ role: 'user', content: '' }] },
				placeholder: 'Add Message',
				options: [
					{
						displayName: 'Message',
						name: 'values',
						values: [
							{
								displayName: 'Role',
								name: 'role',
								type: 'options',
								options: [
									{ name: 'System', value: 'system' },
									{ name: 'User', value: 'user' },
									{ name: 'Assistant', value: 'assistant' },
								],
								default: 'user',
							},
							{
								displayName: 'Content',
								name: 'content',
								type: 'string',
								typeOptions: { rows: 2 },
								default: '',
							},
						],
					},
				],
			},
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					concurrencyOption,
					{
						displayName: 'Temperature',
						name: 'temperature',
						type: 'number',
						typeOptions: { minValue: 0, maxValue: 2, numberPrecision: 2 },
						default: 1,
						description: 'Sampling temperature, 0 to 2. Higher values give more varied answers.',
					},
					{
						displayName: 'Trace ID',
						name: 'traceId',
						type: 'string',
						default: '',
						description:
							'Sent as X-Trace-ID to help support find this request. Leave empty for a new unique ID per request.',
					},
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const concurrency = this.getNodeParameter('options.concurrency', 0, 1) as number;
		const output = await processItems(
			this,
			async (itemIndex) => {
				const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
				const messages = this.getNodeParameter('messages.values', itemIndex, []) as IDataObject[];
				const request = validateRequest(
					chatCompletionRequestSchema,
					{
						model: this.getNodeParameter('model', itemIndex),
						messages,
						...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
					},
					this.getNode(),
					itemIndex,
				);
				const response = await gatewayRequest<ChatCompletionResponse>(this, {
					method: 'POST',
					path: '/v1/chat/completions',
					kind: 'create',
					body: request,
					traceId: options.traceId as string | undefined,
					itemIndex,
				});
				const choice = response.body.choices?.[0];
				return {
					json: {
						content: choice?.message?.content ?? null,
						toolCalls: choice?.message?.tool_calls ?? [],
						finishReason: choice?.finish_reason ?? null,
						usage: response.body.usage ?? null,
						model: response.body.model ?? request.model,
						id: response.body.id ?? null,
						traceId: response.traceId ?? null,
					},
					pairedItem: { item: itemIndex },
				};
			},
			{ concurrency },
		);
		return [output];
	}
}

import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ChatStreamAggregator } from '../shared/sse';
import { executeTextOperation } from '../shared/textGeneration';
import { GATEWAY_CREDENTIAL } from '../shared/transport';
import { chatProperties } from './description';
import { simplifyChatCompletion } from './output';
import { buildChatRequest } from './request';

export class ModelGatewayChat implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Model Gateway Chat',
		name: 'modelGatewayChat',
		icon: { light: 'file:modelGatewayChat.svg', dark: 'file:modelGatewayChat.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["model"]}}',
		description:
			'Send a conversation to a chat model through the Model Gateway and get its answer, tool calls or JSON. Use it to generate, summarize, classify or extract text.',
		defaults: { name: 'Model Gateway Chat' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: GATEWAY_CREDENTIAL, required: true }],
		properties: chatProperties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await executeTextOperation(this, {
			path: '/v1/chat/completions',
			buildRequest: buildChatRequest,
			wantsJson: (request) =>
				['json_object', 'json_schema'].includes(String(request.response_format?.type)),
			aggregator: () => new ChatStreamAggregator(),
			simplify: simplifyChatCompletion,
		});
	}
}

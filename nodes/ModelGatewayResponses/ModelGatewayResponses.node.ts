import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { GATEWAY_CREDENTIAL } from '../shared/transport';
import * as create from './actions/create.operation';
import { properties } from './description';

export class ModelGatewayResponses implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Model Gateway Responses',
		name: 'modelGatewayResponses',
		icon: { light: 'file:modelGatewayResponses.svg', dark: 'file:modelGatewayResponses.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["model"]}}',
		description:
			'Ask a model through the Model Gateway responses API: text or messages in, answer text, tool calls and reasoning usage out. Pass the output ID as Previous Response ID to continue a conversation.',
		defaults: { name: 'Model Gateway Responses' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: GATEWAY_CREDENTIAL, required: true }],
		properties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await create.execute.call(this);
	}
}

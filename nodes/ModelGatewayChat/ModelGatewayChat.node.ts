import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { credentialTest } from '../shared/gateway/credentialTests';
import * as complete from './actions/complete.operation';
import { properties } from './description';

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
		// Literal names: n8n's linter reads them to see that every credential is tested.
		credentials: [{ name: 'modelGatewayApi', required: true, testedBy: 'modelGatewayApiTest' }],
		properties,
	};

	methods = { credentialTest };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await complete.execute.call(this);
	}
}

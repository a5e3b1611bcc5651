import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { credentialTest } from '../shared/gateway/credentialTests';
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
		// Literal names: n8n's linter reads them to see that every credential is tested.
		credentials: [{ name: 'modelGatewayApi', required: true, testedBy: 'modelGatewayApiTest' }],
		properties,
	};

	methods = { credentialTest };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await create.execute.call(this);
	}
}

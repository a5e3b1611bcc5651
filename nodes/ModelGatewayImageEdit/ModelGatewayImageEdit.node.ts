import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { credentialTest } from '../shared/gateway/credentialTests';
import * as edit from './actions/edit.operation';
import { properties } from './description';

export class ModelGatewayImageEdit implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Model Gateway Image Edit',
		name: 'modelGatewayImageEdit',
		icon: { light: 'file:modelGatewayImageEdit.svg', dark: 'file:modelGatewayImageEdit.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["model"]}}',
		description:
			'Edit one or several images with an instruction through the Model Gateway, and get the edited images back as files',
		defaults: { name: 'Model Gateway Image Edit' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// Literal names: n8n's linter reads them to see that every credential is tested.
		credentials: [{ name: 'modelGatewayApi', required: true, testedBy: 'modelGatewayApiTest' }],
		properties,
	};

	methods = { credentialTest };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await edit.execute.call(this);
	}
}

import type {
	INodeType,
	INodeTypeDescription,
	ISupplyDataFunctions,
	SupplyData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { credentialTest } from '../shared/gateway/credentialTests';
import * as supply from './actions/supply.operation';
import { properties } from './description';

export class ModelGatewayChatModel implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Model Gateway Chat Model',
		name: 'modelGatewayChatModel',
		icon: { light: 'file:modelGatewayChatModel.svg', dark: 'file:modelGatewayChatModel.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["model"]}}',
		description:
			"The gateway's chat models for n8n's AI Agent and chains, with trace IDs, rate limits waited out and the gateway's own errors",
		defaults: { name: 'Model Gateway Chat Model' },
		inputs: [],
		outputs: [NodeConnectionTypes.AiLanguageModel],
		outputNames: ['Model'],
		// Literal names: n8n's linter reads them to see that every credential is tested.
		credentials: [{ name: 'modelGatewayApi', required: true, testedBy: 'modelGatewayApiTest' }],
		properties,
	};

	methods = { credentialTest };

	async supplyData(this: ISupplyDataFunctions, itemIndex: number): Promise<SupplyData> {
		return await supply.supplyData.call(this, itemIndex);
	}
}

import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { credentialTest } from '../shared/gateway/credentialTests';
import * as review from './actions/review.operation';
import { properties } from './description';

export class ModelGatewayAssetReview implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Model Gateway Asset Review',
		name: 'modelGatewayAssetReview',
		icon: {
			light: 'file:modelGatewayAssetReview.svg',
			dark: 'file:modelGatewayAssetReview.dark.svg',
		},
		group: ['transform'],
		version: 1,
		subtitle: '={{"Review " + $parameter["assetType"]}}',
		description:
			'Submit public image, video or audio URLs for content review and get, per asset, whether it passed or was rejected',
		defaults: { name: 'Model Gateway Asset Review' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// Literal names: n8n's linter reads them to see that every credential is tested.
		credentials: [
			{
				name: 'modelGatewayAssetReviewApi',
				required: true,
				testedBy: 'modelGatewayAssetReviewApiTest',
			},
		],
		properties,
	};

	methods = { credentialTest };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await review.execute.call(this);
	}
}

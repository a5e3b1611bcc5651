import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { ASSET_REVIEW_CREDENTIAL } from '../shared/transport';
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
		credentials: [{ name: ASSET_REVIEW_CREDENTIAL, required: true }],
		properties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await review.execute.call(this);
	}
}

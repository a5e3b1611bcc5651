import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { credentialTest } from '../shared/gateway/credentialTests';
import { router } from './actions/router';
import { videoProperties, videoSubtitle } from './description';

/** A thin node: the family tables own parameters, requests and parsing; the router runs them. */
export class ModelGatewayVideo implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Model Gateway Video',
		name: 'modelGatewayVideo',
		icon: { light: 'file:modelGatewayVideo.svg', dark: 'file:modelGatewayVideo.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: videoSubtitle,
		description:
			'Start an asynchronous video generation task through the Model Gateway, or get the current status of one. Create returns a task (taskId, status queued) immediately, not the video: call Get Status later with the same taskId until done is true, then use videoUrl.',
		defaults: { name: 'Model Gateway Video' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		// Literal names: n8n's linter reads them to see that every credential is tested.
		credentials: [{ name: 'modelGatewayApi', required: true, testedBy: 'modelGatewayApiTest' }],
		properties: videoProperties,
	};

	methods = { credentialTest };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}

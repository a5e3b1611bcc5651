import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { processItems } from '../shared/items';
import { GATEWAY_CREDENTIAL, gatewayRequest } from '../shared/transport';
import { DEFAULT_TIMEOUT_SECONDS, imageEditProperties } from './properties';
import { buildImageEditRequest } from './request';
import type { ImageEditResponse, OutputContent, OutputLayout } from './results';
import { imageEditOutput } from './results';

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
		credentials: [{ name: GATEWAY_CREDENTIAL, required: true }],
		properties: imageEditProperties,
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const concurrency = this.getNodeParameter('options.concurrency', 0, 1) as number;
		const output = await processItems(
			this,
			async (itemIndex) => {
				const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
				const request = await buildImageEditRequest(this, itemIndex, options);
				const response = await gatewayRequest<ImageEditResponse>(this, {
					method: 'POST',
					path: '/v1/images/edits',
					kind: 'create',
					body: request,
					traceId: options.traceId as string | undefined,
					itemIndex,
					timeoutMs: Number(options.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
				});
				return await imageEditOutput(this, itemIndex, response.body, response.traceId, {
					content: (options.outputContent as OutputContent | undefined) ?? 'both',
					layout: (options.outputLayout as OutputLayout | undefined) ?? 'itemPerImage',
					binaryProperty: String(options.binaryPropertyOutput ?? '').trim() || 'data',
				});
			},
			{ concurrency },
		);
		return [output];
	}
}

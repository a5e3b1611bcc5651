import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { concurrencyOption, processItems } from '../shared/items';
import { TASK_FAMILIES, type FamilyId } from '../shared/tasks';
import { ADDITIONAL_BODY_FIELDS } from '../shared/tasks/parameters';
import { GATEWAY_CREDENTIAL, traceIdOption } from '../shared/transport';
import { create, createProperties } from './actions/create.operation';
import { getStatus, getStatusProperties } from './actions/getStatus.operation';

/** A thin router: the family modules own parameters, requests and parsing. */
export class ModelGatewayVideo implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Model Gateway Video',
		name: 'modelGatewayVideo',
		icon: { light: 'file:modelGatewayVideo.svg', dark: 'file:modelGatewayVideo.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle:
			'={{$parameter["operation"] === "create" ? "Create: " + $parameter["family"] : "Get Status: " + $parameter["family"]}}',
		description:
			'Start an asynchronous video generation task through the Model Gateway, or get the current status of one. Create returns a task (taskId, status queued) immediately, not the video: call Get Status later with the same taskId until done is true, then use videoUrl.',
		defaults: { name: 'Model Gateway Video' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: GATEWAY_CREDENTIAL, required: true }],
		properties: [
			{
				displayName: 'Family',
				name: 'family',
				type: 'options',
				noDataExpression: true,
				options: Object.values(TASK_FAMILIES).map((family) => ({
					name: family.displayName,
					value: family.id,
					description: family.description,
				})),
				default: 'generic',
				description: 'The provider family (API shape) of the video model',
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'Create',
						value: 'create',
						action: 'Create a video task',
						description: 'Start a video generation task',
					},
					{
						name: 'Get Status',
						value: 'getStatus',
						action: 'Get the status of a video task',
						description: 'Query a task once, without waiting',
					},
				],
				default: 'create',
			},
			...createProperties,
			...getStatusProperties,
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Additional Body Fields (JSON)',
						name: ADDITIONAL_BODY_FIELDS,
						type: 'json',
						default: '{}',
						displayOptions: { show: { '/operation': ['create'] } },
						description:
							'Extra fields merged into the create request body, for fields a newer gateway adds. They are validated with the rest.',
					},
					concurrencyOption,
					{
						displayName: 'Put Video in Field',
						name: 'binaryPropertyName',
						type: 'string',
						default: 'data',
						description:
							'Binary property for videos returned as bytes (long-running family); further videos go to data_1, data_2 and so on',
					},
					traceIdOption,
				],
			},
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const operation = this.getNodeParameter('operation', 0) as string;
		const concurrency = this.getNodeParameter('options.concurrency', 0, 1) as number;
		const run = operation === 'getStatus' ? getStatus : create;
		const output = await processItems(
			this,
			async (itemIndex) => {
				const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
				return await run(this, itemIndex, {
					family: this.getNodeParameter('family', itemIndex) as FamilyId,
					traceId: typeof options.traceId === 'string' ? options.traceId : undefined,
					binaryPropertyName:
						typeof options.binaryPropertyName === 'string' &&
						options.binaryPropertyName.trim() !== ''
							? options.binaryPropertyName.trim()
							: 'data',
				});
			},
			{ concurrency },
		);
		return [output];
	}
}

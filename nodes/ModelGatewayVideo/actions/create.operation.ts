import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { TASK_FAMILIES, taskFamily, type FamilyId } from '../../shared/tasks';
import { gatewayRequest } from '../../shared/transport';
import { taskItem } from './output';

/** Create: one task per item, through the selected family's module. */

export const createProperties: INodeProperties[] = [
	{
		displayName: 'Model',
		name: 'model',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. video-model-1',
		description: 'A video model name enabled for your account in the gateway console',
		displayOptions: { show: { operation: ['create'] } },
	},
	...Object.values(TASK_FAMILIES).flatMap((family) => family.createProperties),
];

export async function create(
	context: IExecuteFunctions,
	itemIndex: number,
	settings: { family: FamilyId; traceId?: string; binaryPropertyName: string },
): Promise<INodeExecutionData> {
	const family = taskFamily(settings.family);
	const model = (context.getNodeParameter('model', itemIndex, '') as string).trim();
	const request = await family.buildCreateRequest(context, itemIndex, model);
	const createdAt = new Date().toISOString();
	// kind 'create': never repeated once the gateway may have received it (no double billing).
	const response = await gatewayRequest<unknown>(context, {
		method: request.method,
		path: request.path,
		kind: 'create',
		body: request.body,
		envelope: request.envelope,
		traceId: settings.traceId,
		itemIndex,
	});
	const parsed = family.parseCreateResponse(response.body, {
		model: request.model,
		endpoint: request.endpoint ?? null,
		traceId: response.traceId ?? null,
		createdAt,
	});
	return await taskItem(context, parsed, itemIndex, settings.binaryPropertyName);
}

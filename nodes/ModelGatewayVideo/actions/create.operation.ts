import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { FAMILY_IDS, taskFamily } from '../../shared/tasks';
import { gatewayRequest } from '../../shared/transport';
import { FAMILY_EDITORS } from '../families';
import { taskItem } from '../../shared/taskItem';
import type { VideoItemSettings } from './types';

/** Create: one task per item, built by the selected family's editor half, parsed by its wire half. */

const properties: INodeProperties[] = [
	{
		displayName: 'Model',
		name: 'model',
		type: 'string',
		default: '',
		required: true,
		placeholder: 'e.g. video-model-1',
		description: 'A video model name enabled for your account in the gateway console',
	},
	...FAMILY_IDS.flatMap((family) =>
		updateDisplayOptions({ show: { family: [family] } }, FAMILY_EDITORS[family].createProperties),
	),
];

export const description = updateDisplayOptions({ show: { operation: ['create'] } }, properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	settings: VideoItemSettings,
): Promise<INodeExecutionData> {
	const family = taskFamily(settings.family);
	const model = (this.getNodeParameter('model', itemIndex, '') as string).trim();
	const request = await FAMILY_EDITORS[settings.family].buildCreateRequest(this, itemIndex, model);
	const createdAt = new Date().toISOString();
	// kind 'create': never repeated once the gateway may have received it (no double billing).
	const response = await gatewayRequest<unknown>(this, {
		method: request.method,
		path: request.path,
		kind: 'create',
		body: request.body,
		businessFailure: family.businessFailure,
		traceId: settings.traceId,
		itemIndex,
	});
	const parsed = family.parseCreateResponse(response.body, {
		model: request.model,
		endpoint: request.endpoint ?? null,
		traceId: response.traceId ?? null,
		createdAt,
	});
	return await taskItem(this, parsed, itemIndex, settings.binaryPropertyName);
}

import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { FAMILY_IDS, taskFamily, type CreateRequest } from '../../shared/tasks';
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

/** Reads and validates one item into its create request; nothing is sent. */
export async function prepare(
	this: IExecuteFunctions,
	itemIndex: number,
	settings: VideoItemSettings,
): Promise<CreateRequest> {
	const model = (this.getNodeParameter('model', itemIndex, '') as string).trim();
	return await FAMILY_EDITORS[settings.family].buildCreateRequest(this, itemIndex, model);
}

/** Sends one prepared create and outputs the task it started. */
export async function send(
	this: IExecuteFunctions,
	request: CreateRequest,
	itemIndex: number,
	settings: VideoItemSettings,
): Promise<INodeExecutionData> {
	const family = taskFamily(settings.family);
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
	const task = response.redactor.value(parsed.task);
	return await taskItem(this, { ...parsed, task }, itemIndex, settings.binaryPropertyName);
}

/** How a created task is named in the error of a batch stopped midway. */
export function createdId(item: INodeExecutionData): string | undefined {
	const { taskId, family } = item.json;
	return typeof taskId === 'string' && taskId !== ''
		? `task ${taskId} (${String(family)})`
		: undefined;
}

import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { FAMILY_IDS, taskFamily, type CreateRequest } from '../../shared/tasks';
import { gatewayRequest } from '../../shared/gateway/transport';
import { checkCallbackSecretTarget, withSecretInCallbackUrl } from './callbackSecret';
import { FAMILY_EDITORS } from '../families';
import {
	FAMILY_FROM_ITEM,
	buildItemCreateRequest,
	perItemCreateProperties,
} from '../families/perItem';
import { taskItem } from '../../shared/tasks/taskItem';
import type { VideoItemSettings } from './types';
import { itemParameter } from '../../shared/items/itemParameters';

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
	...updateDisplayOptions({ show: { family: [FAMILY_FROM_ITEM] } }, perItemCreateProperties),
];

export const description = updateDisplayOptions({ show: { operation: ['create'] } }, properties);

/** Reads and validates one item into its create request; nothing is sent. */
export async function prepare(
	this: IExecuteFunctions,
	itemIndex: number,
	settings: VideoItemSettings,
): Promise<CreateRequest> {
	const model = (itemParameter(this, 'model', itemIndex, '') as string).trim();
	const request = settings.familyFromItem
		? buildItemCreateRequest(this, itemIndex, model)
		: await FAMILY_EDITORS[settings.family].buildCreateRequest(this, itemIndex, model);
	if (settings.addCallbackSecret) await checkCallbackSecretTarget(this, request.body, itemIndex);
	return request;
}

/** Sends one prepared create and outputs the task it started. */
export async function send(
	this: IExecuteFunctions,
	request: CreateRequest,
	itemIndex: number,
	settings: VideoItemSettings,
): Promise<INodeExecutionData> {
	const family = taskFamily(settings.family);
	// kind 'create': never repeated once the gateway may have received it (no double billing).
	const response = await gatewayRequest<unknown>(this, {
		method: request.method,
		path: request.path,
		kind: 'create',
		body: settings.addCallbackSecret
			? await withSecretInCallbackUrl(this, request.body)
			: request.body,
		businessFailure: family.answerFailure.create,
		traceId: settings.traceId,
		itemIndex,
	});
	// Taken when the answer arrives: the task exists by then, so waiting rules that count from
	// creation (Task family S) are never broken by time spent sending or waiting out a 429.
	const createdAt = new Date().toISOString();
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

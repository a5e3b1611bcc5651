import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import {
	TASK_FAMILIES,
	isFamilyId,
	taskFamily,
	type FamilyId,
	type TaskReference,
} from '../../shared/tasks';
import { gatewayRequest } from '../../shared/transport';
import { taskItem } from './output';

/** Get Status: one query per item, no waiting. */

const show = (extra: IDataObject = {}) => ({ show: { operation: ['getStatus'], ...extra } });

export const getStatusProperties: INodeProperties[] = [
	{
		displayName: 'Task Reference',
		name: 'taskSource',
		type: 'options',
		options: [
			{
				name: 'From Input Item',
				value: 'input',
				description:
					'Use the family, taskId, model and endpoint fields of the incoming item (the output of Create)',
			},
			{
				name: 'Define Below',
				value: 'manual',
				description: 'Enter the task ID (and model or endpoint) yourself',
			},
		],
		default: 'input',
		displayOptions: show(),
	},
	{
		displayName: 'Task ID',
		name: 'taskId',
		type: 'string',
		default: '',
		required: true,
		description:
			'The ID returned by the create call (long-running: the operation ID or the full operation name)',
		displayOptions: show({ taskSource: ['manual'] }),
	},
	{
		displayName: 'Model',
		name: 'taskModel',
		type: 'string',
		default: '',
		description:
			'The model the operation was created with (needed unless the task ID is the full operation name)',
		displayOptions: show({ taskSource: ['manual'], family: ['longRunning'] }),
	},
	{
		displayName: 'Endpoint',
		name: 'taskEndpoint',
		type: 'options',
		options: [
			{ name: 'Image to Video', value: 'image2video' },
			{ name: 'Omni-Video', value: 'omni-video' },
			{ name: 'Text to Video', value: 'text2video' },
		],
		default: 'omni-video',
		description: 'The endpoint the task was created under',
		displayOptions: show({ taskSource: ['manual'], family: ['familyA'] }),
	},
	...Object.values(TASK_FAMILIES).map(
		(family): INodeProperties => ({
			displayName: family.queryHint,
			name: `${family.id}QueryNotice`,
			type: 'notice',
			default: '',
			displayOptions: show({ family: [family.id] }),
		}),
	),
];

function textField(json: IDataObject, name: string): string | undefined {
	const value = json[name];
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function taskReference(
	context: IExecuteFunctions,
	itemIndex: number,
	selected: FamilyId,
): TaskReference {
	if (context.getNodeParameter('taskSource', itemIndex, 'input') === 'manual') {
		return {
			family: selected,
			taskId: (context.getNodeParameter('taskId', itemIndex, '') as string).trim(),
			model:
				selected === 'longRunning'
					? (context.getNodeParameter('taskModel', itemIndex, '') as string).trim()
					: null,
			endpoint:
				selected === 'familyA'
					? (context.getNodeParameter('taskEndpoint', itemIndex, 'omni-video') as string)
					: null,
		};
	}
	const json = context.getInputData()[itemIndex]?.json ?? {};
	// The item says which family created it; the selector only fills in when it does not.
	return {
		family: isFamilyId(json.family) ? json.family : selected,
		taskId: textField(json, 'taskId') ?? '',
		model: textField(json, 'model') ?? null,
		endpoint: textField(json, 'endpoint') ?? null,
		createdAt: textField(json, 'createdAt') ?? null,
	};
}

export async function getStatus(
	context: IExecuteFunctions,
	itemIndex: number,
	settings: { family: FamilyId; traceId?: string; binaryPropertyName: string },
): Promise<INodeExecutionData> {
	const reference = taskReference(context, itemIndex, settings.family);
	if (reference.taskId === '') {
		throw new NodeOperationError(
			context.getNode(),
			`Item ${itemIndex}: "taskId": a task ID is required`,
			{
				itemIndex,
				description:
					'With "From Input Item" the incoming item needs a taskId field (as Create outputs). Otherwise choose "Define Below". Nothing was sent to the gateway.',
			},
		);
	}
	const family = taskFamily(reference.family);
	let query;
	try {
		query = family.buildQueryRequest(reference);
	} catch (error) {
		throw new NodeOperationError(
			context.getNode(),
			`Item ${itemIndex}: ${(error as Error).message}`,
			{ itemIndex },
		);
	}
	const response = await gatewayRequest<unknown>(context, {
		method: query.method,
		path: query.path,
		kind: 'read',
		envelope: query.envelope,
		traceId: settings.traceId,
		itemIndex,
	});
	const parsed = family.parseTaskRecord(response.body, {
		model: reference.model ?? null,
		endpoint: reference.endpoint ?? null,
		traceId: response.traceId ?? null,
		createdAt: reference.createdAt ?? null,
	});
	if (parsed.task.taskId === '') parsed.task.taskId = reference.taskId;
	return await taskItem(context, parsed, itemIndex, settings.binaryPropertyName);
}

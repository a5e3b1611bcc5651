import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError, updateDisplayOptions } from 'n8n-workflow';

import {
	FAMILY_IDS,
	createdAtProblem,
	isFamilyId,
	taskFamily,
	type FamilyId,
	type TaskReference,
} from '../../shared/tasks';
import { minGapMs } from '../../shared/polling/timing';
import { nextQueryAllowedAt, queryTask } from '../../shared/tasks/query';
import { FAMILY_EDITORS } from '../families';
import { taskItem } from '../../shared/tasks/taskItem';
import type { VideoItemSettings } from './types';
import { itemParameter, nodeOfRun } from '../../shared/items/itemParameters';

/** Get Status: one query per item, no waiting. */

const properties: INodeProperties[] = [
	{
		displayName: 'Task Reference',
		name: 'taskSource',
		type: 'options',
		noDataExpression: true,
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
	},
	{
		displayName: 'Task ID',
		name: 'taskId',
		type: 'string',
		default: '',
		required: true,
		description:
			'The ID returned by the create call (long-running: the operation ID or the full operation name)',
		displayOptions: { show: { taskSource: ['manual'] } },
	},
	{
		displayName: 'Created At',
		name: 'createdAt',
		type: 'string',
		default: '',
		placeholder: 'e.g. 2026-11-24T10:00:00Z',
		description:
			'When the task was created (ISO time, as Create outputs it). Needed for Task Family S, which may be queried only 10 minutes after creation.',
		displayOptions: { show: { taskSource: ['manual'] } },
	},
	// What a family's query needs besides the task ID, from the family's editor half.
	...FAMILY_IDS.flatMap((family) =>
		updateDisplayOptions(
			{ show: { taskSource: ['manual'], family: [family] } },
			FAMILY_EDITORS[family].referenceProperties,
		),
	),
	...FAMILY_IDS.filter((family) => FAMILY_EDITORS[family].queryHint !== '').map(
		(family): INodeProperties => ({
			displayName: FAMILY_EDITORS[family].queryHint,
			name: `${family}QueryNotice`,
			type: 'notice',
			default: '',
			displayOptions: { show: { family: [family] } },
		}),
	),
];

export const description = updateDisplayOptions({ show: { operation: ['getStatus'] } }, properties);

function textField(json: IDataObject, name: string): string | undefined {
	const value = json[name];
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function taskReference(
	context: IExecuteFunctions,
	itemIndex: number,
	selected: FamilyId,
): TaskReference {
	if (itemParameter<string>(context, 'taskSource', itemIndex, 'input') === 'manual') {
		return {
			family: selected,
			taskId: (itemParameter(context, 'taskId', itemIndex, '') as string).trim(),
			model: null,
			endpoint: null,
			createdAt: (itemParameter(context, 'createdAt', itemIndex, '') as string).trim() || null,
			...FAMILY_EDITORS[selected].readReference(context, itemIndex),
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
		lastCheckedAt: textField(json, 'lastCheckedAt') ?? null,
	};
}

/**
 * A family whose gateway limits queries (Task family S: not before 10 minutes after creation,
 * then at most once a minute) is not queried earlier: the gateway would refuse, and the account
 * could be penalized. Without a creation time such a task is not queried at all.
 */
function refuseEarlyQuery(
	context: IExecuteFunctions,
	reference: TaskReference,
	itemIndex: number,
): void {
	const family = taskFamily(reference.family);
	const policy = family.pollPolicy;
	if (!policy.enforcedByGateway) return;
	const refuse = (message: string): never => {
		throw new NodeOperationError(nodeOfRun(context), `Item ${itemIndex}: ${message}`, {
			itemIndex,
			description: `${policy.guidance} Use Model Gateway Wait for Task, which keeps this rule for you, or start a workflow from the task's callback with Model Gateway Task Callback Trigger. Nothing was sent to the gateway.`,
		});
	};
	if (!reference.createdAt) {
		refuse(
			`this ${family.displayName} task has no "Created At", so when it may be queried is unknown; set it (as Create outputs it)`,
		);
	}
	const created = Date.parse(String(reference.createdAt));
	const lastChecked = reference.lastCheckedAt ? Date.parse(reference.lastCheckedAt) : Number.NaN;
	const allowedAt = Math.max(
		created + policy.firstPollAfterMs,
		Number.isNaN(lastChecked) ? 0 : lastChecked + minGapMs(policy),
		nextQueryAllowedAt(reference) ?? 0,
	);
	if (Date.now() < allowedAt) {
		refuse(
			`this ${family.displayName} task may be queried from ${new Date(allowedAt).toISOString()}`,
		);
	}
}

/** Reads one item's task reference and checks that its family can query it; nothing is sent. */
export function prepare(
	this: IExecuteFunctions,
	itemIndex: number,
	settings: VideoItemSettings,
): TaskReference {
	const reference = taskReference(this, itemIndex, settings.family);
	if (reference.taskId === '') {
		throw new NodeOperationError(
			nodeOfRun(this),
			`Item ${itemIndex}: "taskId": a task ID is required`,
			{
				itemIndex,
				description:
					'With "From Input Item" the incoming item needs a taskId field (as Create outputs). Otherwise choose "Define Below". Nothing was sent to the gateway.',
			},
		);
	}
	const createdAtError = createdAtProblem(reference.createdAt, Date.now());
	if (createdAtError) {
		throw new NodeOperationError(nodeOfRun(this), `Item ${itemIndex}: ${createdAtError}`, {
			itemIndex,
			description: 'Nothing was sent to the gateway.',
		});
	}
	refuseEarlyQuery(this, reference, itemIndex);
	try {
		// A reference the family cannot query (e.g. a missing model) fails before sending.
		taskFamily(reference.family).buildQueryRequest(reference);
	} catch (error) {
		throw new NodeOperationError(
			nodeOfRun(this),
			`Item ${itemIndex}: ${(error as Error).message}`,
			{
				itemIndex,
			},
		);
	}
	return reference;
}

/** Queries one task once and outputs it. */
export async function send(
	this: IExecuteFunctions,
	reference: TaskReference,
	itemIndex: number,
	settings: VideoItemSettings,
): Promise<INodeExecutionData> {
	const checkedAt = new Date().toISOString();
	const parsed = await queryTask(this, reference, { traceId: settings.traceId, itemIndex });
	const item = await taskItem(this, parsed, itemIndex, settings.binaryPropertyName);
	// The next reader of this task (Wait for Task, another Get Status) keeps its distance.
	item.json.lastCheckedAt = checkedAt;
	return item;
}

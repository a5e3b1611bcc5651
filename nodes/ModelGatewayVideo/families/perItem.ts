import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { FAMILY_IDS, TASK_FAMILIES, type CreateRequest, type FamilyId } from '../../shared/tasks';
import { FAMILY_EDITORS } from './index';
import { jsonObjectParameter } from './parameters';
import { itemParameter, nodeOfRun } from '../../shared/items/itemParameters';

/**
 * "From Each Item": the family, endpoint and request fields come from the item, so one Video
 * node serves a sheet that mixes families. Each row goes through its family's own
 * `requestFromFields`, the same checks as the per-family parameters, before anything is sent.
 */

/** The Family selector's value for this mode. */
export const FAMILY_FROM_ITEM = 'fromItem';

const ITEM_FAMILY = 'itemFamily';
const ITEM_ENDPOINT = 'itemEndpoint';
const ITEM_REQUEST_FIELDS = 'itemRequestFields';

const familyList = FAMILY_IDS.map((id) => `${id} (${TASK_FAMILIES[id].displayName})`).join(', ');
const endpointList = FAMILY_IDS.flatMap((id) => {
	const endpoints = FAMILY_EDITORS[id].createEndpoints;
	return endpoints ? [`${TASK_FAMILIES[id].displayName}: ${endpoints.join(', ')}`] : [];
}).join('; ');

/** The item's family field; the Get Status reference needs it too. */
export const itemFamilyProperty: INodeProperties = {
	displayName: 'Family of the Item',
	name: ITEM_FAMILY,
	type: 'string',
	default: '={{ $json.family }}',
	required: true,
	description: `The item's provider family, by ID or name: ${familyList}`,
	hint: 'Usually a column of your sheet, for example {{ $json.family }}',
};

/** Create parameters of the "From Each Item" mode, besides Model. */
export const perItemCreateProperties: INodeProperties[] = [
	itemFamilyProperty,
	{
		displayName: 'Endpoint of the Item',
		name: ITEM_ENDPOINT,
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.endpoint }}',
		description: `For families with several create endpoints (${endpointList}). Empty: the family's default, the first listed.`,
	},
	{
		displayName: 'Request Fields of the Item (JSON)',
		name: ITEM_REQUEST_FIELDS,
		type: 'json',
		default: '={{ $json.request }}',
		required: true,
		description:
			'The create request\'s fields for the item\'s family, in the gateway\'s own field names, without the model, for example {"prompt": "A red fox", "duration": 6}. Each item is checked against its family\'s rules before any task of the batch is created.',
		hint: 'An object, or JSON text such as a sheet column',
	},
];

/** The family an item names, by ID or display name (case and spaces ignored). */
export function itemFamily(context: IExecuteFunctions, itemIndex: number): FamilyId {
	const raw = itemParameter(context, ITEM_FAMILY, itemIndex, '') as unknown;
	const wanted = typeof raw === 'string' ? raw.replace(/\s+/g, '').toLowerCase() : '';
	const family = FAMILY_IDS.find(
		(id) =>
			id.toLowerCase() === wanted ||
			TASK_FAMILIES[id].displayName.replace(/\s+/g, '').toLowerCase() === wanted,
	);
	if (family) return family;
	throw new NodeOperationError(
		nodeOfRun(context),
		`Item ${itemIndex}: "Family of the Item": "${String(raw ?? '')}" is not a family; use one of ${familyList}`,
		{ itemIndex, description: 'Nothing was sent to the gateway.' },
	);
}

/** Builds and checks one item's create request from its own family, endpoint and fields. */
export function buildItemCreateRequest(
	context: IExecuteFunctions,
	itemIndex: number,
	model: string,
): CreateRequest {
	const family = itemFamily(context, itemIndex);
	// An expression over a row without the column gives undefined: the family's default.
	const raw = itemParameter(context, ITEM_ENDPOINT, itemIndex, '') as unknown;
	const endpoint = typeof raw === 'string' ? raw.trim() : '';
	return FAMILY_EDITORS[family].requestFromFields(
		jsonObjectParameter(context, itemIndex, ITEM_REQUEST_FIELDS, 'Request Fields of the Item'),
		{
			model,
			endpoint: endpoint === '' ? undefined : endpoint,
			node: nodeOfRun(context),
			itemIndex,
		},
	);
}

import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { concurrencyOption } from '../shared/items/items';
import { FAMILY_IDS, TASK_FAMILIES } from '../shared/tasks';
import { timeoutOption, traceIdOption } from '../shared/items/properties';
import * as create from './actions/create.operation';
import * as getStatus from './actions/getStatus.operation';
import { FAMILY_EDITORS } from './families';
import { FAMILY_FROM_ITEM, itemFamilyProperty } from './families/perItem';
import { ADDITIONAL_BODY_FIELDS, ADD_CALLBACK_SECRET, NODE_OPTIONS } from './families/parameters';

/** The Video node's parameters: family and operation, each operation's own, shared options. */

/** "Create · Family A": the subtitle names the operation and the family as the selectors show them. */
const familyNames = JSON.stringify({
	...Object.fromEntries(FAMILY_IDS.map((family) => [family, TASK_FAMILIES[family].displayName])),
	[FAMILY_FROM_ITEM]: 'Mixed Families',
});
export const videoSubtitle = `={{ ($parameter["operation"] === "getStatus" ? "Get Status" : "Create") + " · " + (${familyNames}[$parameter["family"]] || $parameter["family"]) }}`;

/** Every family of the table, then the mixed-batch mode. */
const familyOptions: INodePropertyOptions[] = [
	...FAMILY_IDS.map((family) => ({
		name: TASK_FAMILIES[family].displayName,
		value: family,
		description: FAMILY_EDITORS[family].description,
	})),
	{
		name: 'From Each Item (Mixed Batch)',
		value: FAMILY_FROM_ITEM,
		description:
			'Each item names its own family, endpoint and request fields, for a sheet that mixes providers',
	},
];

export const videoProperties: INodeProperties[] = [
	{
		displayName: 'Family',
		name: 'family',
		type: 'options',
		noDataExpression: true,
		options: familyOptions,
		default: 'generic',
		description: 'The provider family (API shape) of the video model',
	},
	{ ...itemFamilyProperty, displayOptions: { show: { family: [FAMILY_FROM_ITEM] } } },
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
	...create.description,
	...getStatus.description,
	{
		displayName: 'Options',
		name: NODE_OPTIONS,
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options: [
			{
				displayName: 'Add Callback Secret',
				name: ADD_CALLBACK_SECRET,
				type: 'boolean',
				default: false,
				displayOptions: { show: { '/operation': ['create'] } },
				description:
					'Whether to add the secret of a Task Callback Trigger set to "Made From the Credential" to the Callback URL (as ?secret=…). It is made from this node\'s credential when the request is sent, so no other node, output or log sees it.',
			},
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
				displayName: 'Put Output File in Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				hint: 'The name of the output binary field to put the file in',
				description:
					'Used when the gateway returns the video itself rather than a URL; further videos go to data_1, data_2 and so on',
			},
			timeoutOption(),
			traceIdOption,
		],
	},
];

import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import {
	itemsInFlightOption,
	optionsCollection,
	timeoutOption,
} from '../../shared/items/properties';
import { ASSET_TYPES, MAX_ASSETS_PER_REQUEST } from '../../shared/schemas/assetReview';
import { reviewAggregated } from '../aggregate';
import { reviewPerItem } from '../perItem';
import type { UrlSource } from '../urls';

/**
 * Review assets: where the URLs come from, the review fields, how results come out, and the
 * run (one request per item, or the URLs of all items gathered).
 */

const perItemSources: UrlSource[] = ['list', 'expression'];

export const description: INodeProperties[] = [
	{
		displayName: 'Asset URLs From',
		name: 'urlSource',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'URL List',
				value: 'list',
				description: 'Type the URLs; one review request per input item',
			},
			{
				name: 'Expression or Text',
				value: 'expression',
				description:
					'An expression giving a list of URLs, or text with one URL per line; one review request per input item',
			},
			{
				name: 'Aggregate Items',
				value: 'aggregate',
				description: `Gather one URL (or a list) from every input item into one request, split into several requests above ${MAX_ASSETS_PER_REQUEST} URLs`,
			},
		],
		default: 'list',
	},
	{
		displayName: 'Asset URLs',
		name: 'assetUrls',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		displayOptions: { show: { urlSource: ['list'] } },
		default: { values: [{ url: '' }] },
		placeholder: 'Add URL',
		description: `Up to ${MAX_ASSETS_PER_REQUEST} public http or https URLs the review service can download`,
		options: [
			{
				displayName: 'URL',
				name: 'values',
				values: [
					{
						displayName: 'URL',
						name: 'url',
						type: 'string',
						default: '',
						placeholder: 'https://cdn.example.com/photo.png',
					},
				],
			},
		],
	},
	{
		displayName: 'URLs',
		name: 'urls',
		type: 'string',
		typeOptions: { rows: 3 },
		displayOptions: { show: { urlSource: ['expression'] } },
		default: '',
		required: true,
		placeholder: '={{ $json.urls }}',
		description: `A list of URLs from an expression, or text with one URL per line or separated by commas. At most ${MAX_ASSETS_PER_REQUEST}.`,
	},
	{
		displayName: 'URL per Item',
		name: 'urlPerItem',
		type: 'string',
		displayOptions: { show: { urlSource: ['aggregate'] } },
		default: '={{ $json.url }}',
		required: true,
		description:
			'Evaluated for every input item: one URL or a list of URLs. Every result is paired with the item its URL came from. The other fields are read from the first item.',
	},
	{
		displayName: 'Asset Type',
		name: 'assetType',
		type: 'options',
		options: ASSET_TYPES.map((type) => ({ name: type, value: type })),
		default: 'Image',
		description: 'What the URLs point to. Video reviews usually finish later (code 202).',
	},
	{
		displayName: 'Output One Item per Asset',
		name: 'splitByAsset',
		type: 'boolean',
		default: false,
		description:
			'Whether to output one item per reviewed asset (with "passed" and "hasError" for an IF node) instead of one item per request',
	},
	optionsCollection([
		{
			displayName: 'Callback URL',
			name: 'callbackUrl',
			type: 'string',
			default: '',
			placeholder: 'https://n8n.example.com/webhook/asset-review',
			description:
				'Publicly reachable address the final review result is posted to when the review finishes later (code 202)',
			hint: 'Paste the Production URL of a Model Gateway Task Callback Trigger to start a workflow when the result arrives',
		},
		{
			displayName: 'Group ID',
			name: 'groupId',
			type: 'string',
			default: '',
			description: 'Asset group ID; for real-person uploads, the real-person group ID',
		},
		{
			displayName: 'Group Source',
			name: 'groupSource',
			type: 'options',
			options: [
				{ name: 'None', value: '' },
				{ name: 'Real Person', value: 'real_person' },
			],
			default: '',
			description: 'Only allowed together with a Group ID',
		},
		// Aggregate Items makes its own requests from all items: these only apply per item.
		...updateDisplayOptions({ show: { '/urlSource': perItemSources } }, [
			itemsInFlightOption,
			{
				displayName: 'Legacy Asset URL List',
				name: 'legacyAssetUrls',
				type: 'string',
				typeOptions: { rows: 2 },
				default: '',
				description:
					'URLs for the legacy asset_url_list field (a list, or one URL per line). When given, they win over the asset URLs, as on the gateway: only asset_url_list is sent and the output says so.',
			},
		]),
		{
			displayName: 'Send URLs As',
			name: 'sendAs',
			type: 'options',
			options: [
				{ name: 'Images (Current Field)', value: 'images' },
				{ name: 'Asset URL List (Legacy Field)', value: 'asset_url_list' },
			],
			default: 'images',
			description: 'Which request field carries the URLs. Only one of them is ever sent.',
		},
		timeoutOption(),
	]),
];

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const source = this.getNodeParameter('urlSource', 0, 'list') as UrlSource;
	const output =
		source === 'aggregate' ? await reviewAggregated(this) : await reviewPerItem(this, source);
	return [output];
}

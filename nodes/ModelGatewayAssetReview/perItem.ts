import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { processItems } from '../shared/items/items';
import type { AssetReviewRequest, AssetUrlField } from '../shared/schemas/assetReview';
import { assetJsonList, reviewId, reviewSummaryJson } from './output';
import { buildReviewRequest, readReviewFields, submitReview } from './submit';
import type { UrlSource } from './urls';
import { chooseUrlField, toUrlList } from './urls';

/** "URL List" and "Expression or Text": one review request per input item. */

function readAssetUrls(
	context: IExecuteFunctions,
	source: UrlSource,
	itemIndex: number,
): unknown[] {
	if (source === 'expression') return toUrlList(context.getNodeParameter('urls', itemIndex, ''));
	const rows = context.getNodeParameter('assetUrls.values', itemIndex, []) as Array<{
		url?: unknown;
	}>;
	return toUrlList(rows.map((row) => row.url));
}

interface PreparedReview {
	request: AssetReviewRequest;
	notice?: string;
}

export async function reviewPerItem(
	context: IExecuteFunctions,
	source: UrlSource,
): Promise<INodeExecutionData[]> {
	const concurrency = context.getNodeParameter('options.concurrency', 0, 1) as number;
	const splitByAsset = context.getNodeParameter('splitByAsset', 0, false) as boolean;
	return await processItems(
		context,
		{
			// Every item's URLs and fields are checked before the first review is submitted.
			prepare: (itemIndex): PreparedReview => {
				const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
				const choice = chooseUrlField(
					readAssetUrls(context, source, itemIndex),
					toUrlList(options.legacyAssetUrls),
					(options.sendAs as AssetUrlField | undefined) ?? 'images',
				);
				const request = buildReviewRequest(
					context,
					choice.field,
					choice.urls,
					readReviewFields(context, itemIndex),
					itemIndex,
				);
				return { request, notice: choice.notice };
			},
			send: async ({ request, notice }: PreparedReview, itemIndex) => {
				const review = await submitReview(context, request, itemIndex);
				if (!splitByAsset) {
					return { json: reviewSummaryJson(review, notice), pairedItem: { item: itemIndex } };
				}
				const extra = { sentAs: review.field, ...(notice ? { notice } : {}) };
				return assetJsonList(review).map((asset) => ({
					json: { ...asset.json, ...extra },
					pairedItem: { item: itemIndex },
				}));
			},
			createdId: reviewId,
		},
		{ concurrency },
	);
}

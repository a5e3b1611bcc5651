import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	IPairedItemData,
} from 'n8n-workflow';

import type { CreatedBeforeFailure } from '../shared/items/items';
import { asNodeError, errorItem, withCreatedBeforeFailure } from '../shared/items/items';
import type { AssetReviewRequest, AssetUrlField } from '../shared/schemas/assetReview';
import { itemAssetUrlsSchema, MAX_ASSETS_PER_REQUEST } from '../shared/schemas/assetReview';
import { validateRequest } from '../shared/schemas/validate';
import { assetJsonList, reviewId, reviewSummaryJson } from './output';
import { buildReviewRequest, readReviewFields, submitReview } from './submit';
import { toUrlList } from './urls';

/**
 * "Aggregate Items": one URL (or a list) per input item, gathered into as few requests as the
 * 50-URL limit allows. Every asset result is paired back to the item its URL came from.
 */

interface GatheredUrl {
	url: string;
	itemIndex: number;
}

function pairedItems(itemIndexes: number[]): IPairedItemData[] {
	return [...new Set(itemIndexes)].map((item) => ({ item }));
}

/** Splits the gathered URLs into requests of at most 50, keeping their order. */
export function chunkUrls<T>(entries: T[], size = MAX_ASSETS_PER_REQUEST): T[][] {
	const chunks: T[][] = [];
	for (let start = 0; start < entries.length; start += size)
		chunks.push(entries.slice(start, start + size));
	return chunks;
}

export async function reviewAggregated(context: IExecuteFunctions): Promise<INodeExecutionData[]> {
	const itemCount = context.getInputData().length;
	const splitByAsset = context.getNodeParameter('splitByAsset', 0, false) as boolean;
	const options = context.getNodeParameter('options', 0, {}) as IDataObject;
	const field = (options.sendAs as AssetUrlField | undefined) ?? 'images';
	const fields = readReviewFields(context, 0);
	const output: INodeExecutionData[] = [];

	// Every item's URLs are checked first, so a bad one stops the node before anything is sent.
	const gathered: GatheredUrl[] = [];
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			const urls = validateRequest(
				itemAssetUrlsSchema(field),
				{ [field]: toUrlList(context.getNodeParameter('urlPerItem', itemIndex, '')) },
				context.getNode(),
				itemIndex,
			);
			gathered.push(...urls.map((url) => ({ url, itemIndex })));
		} catch (error) {
			if (!context.continueOnFail()) throw asNodeError(context, error, itemIndex);
			output.push(errorItem(error, itemIndex));
		}
	}

	// Every request is built and checked before the first one is submitted.
	const requests: Array<{ chunk: GatheredUrl[]; request: AssetReviewRequest }> = [];
	for (const chunk of chunkUrls(gathered)) {
		const itemIndexes = chunk.map((entry) => entry.itemIndex);
		try {
			const urls = chunk.map((entry) => entry.url);
			requests.push({
				chunk,
				request: buildReviewRequest(context, field, urls, fields, itemIndexes[0]),
			});
		} catch (error) {
			if (!context.continueOnFail()) throw asNodeError(context, error, itemIndexes[0]);
			output.push(...[...new Set(itemIndexes)].map((itemIndex) => errorItem(error, itemIndex)));
		}
	}

	for (const { chunk, request } of requests) {
		const itemIndexes = chunk.map((entry) => entry.itemIndex);
		try {
			const review = await submitReview(context, request, itemIndexes[0]);
			if (!splitByAsset) {
				output.push({ json: reviewSummaryJson(review), pairedItem: pairedItems(itemIndexes) });
				continue;
			}
			for (const [position, asset] of assetJsonList(review).entries()) {
				// Results beyond the sent URLs cannot be traced to one item: pair them with all.
				const source = position < chunk.length ? [chunk[position].itemIndex] : itemIndexes;
				output.push({
					json: { ...asset.json, sentAs: review.field },
					pairedItem: pairedItems(source),
				});
			}
		} catch (error) {
			if (!context.continueOnFail()) {
				throw withCreatedBeforeFailure(
					asNodeError(context, error, itemIndexes[0]),
					submittedSoFar(output),
				);
			}
			output.push(...[...new Set(itemIndexes)].map((itemIndex) => errorItem(error, itemIndex)));
		}
	}
	// Error items (Continue On Fail) were made first; put everything back in input order.
	return output.sort((first, second) => firstPairedItem(first) - firstPairedItem(second));
}

function firstPairedItem(item: INodeExecutionData): number {
	const paired = item.pairedItem;
	if (typeof paired === 'number') return paired;
	if (Array.isArray(paired)) return Math.min(...paired.map((entry) => entry.item));
	return paired?.item ?? 0;
}

/** The reviews submitted before a failure, once each, by the first item they served. */
function submittedSoFar(output: INodeExecutionData[]): CreatedBeforeFailure[] {
	const seen = new Set<string>();
	const created: CreatedBeforeFailure[] = [];
	for (const item of output) {
		const id = reviewId(item);
		if (id === undefined || seen.has(id)) continue;
		seen.add(id);
		created.push({ itemIndex: firstPairedItem(item), id });
	}
	return created;
}

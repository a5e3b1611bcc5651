import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { AssetReviewItem } from '../shared/schemas/assetReview';
import type { SubmittedReview } from './submit';

/**
 * Shapes review results into output items: one per request, or one per asset. Every key this
 * package adds is camelCase; the gateway's answer is passed on untouched under `raw`.
 */

export type AssetOutcome = 'passed' | 'rejected' | 'pending';

/** How the final result of an unfinished (code 202) review reaches the workflow. */
export function nextStepHint(review: SubmittedReview): string {
	const callbackUrl = review.request.callback_url;
	const accepted = 'The review was accepted but is not finished yet (code 202).';
	return callbackUrl
		? `${accepted} The final result will be posted to the callback URL ${callbackUrl}: receive it with a Model Gateway Task Callback Trigger listening there, then route on each asset's errorCode.`
		: `${accepted} No callback URL was set, so the final result will not be delivered: set Callback URL to the Production URL of a Model Gateway Task Callback Trigger, or submit the same URLs again later (a new review request) to get a finished answer.`;
}

// The meaning of `submit_review_status` values is not documented, so an asset counts as
// passed when its finished review carries no error code and no error message.
function hasError(item: AssetReviewItem | undefined): boolean {
	if (!item) return false;
	const code = item.error_code;
	return (code !== undefined && code !== '' && code !== 0) || Boolean(item.error_message?.trim());
}

/**
 * The result item for each sent URL, in the order sent: matched by position when the
 * addresses agree, otherwise by `source_url`/`asset_url`. Items matching no URL come last.
 */
export function matchAssets(
	urls: string[],
	items: AssetReviewItem[],
): { matched: Array<AssetReviewItem | undefined>; unmatched: AssetReviewItem[] } {
	const used = new Set<number>();
	const isFor = (item: AssetReviewItem, url: string) =>
		item.source_url === url || item.asset_url === url;
	const matched = urls.map((url, position) => {
		const byPosition = items[position];
		let index = byPosition && isFor(byPosition, url) && !used.has(position) ? position : -1;
		if (index < 0) index = items.findIndex((item, at) => !used.has(at) && isFor(item, url));
		if (index < 0 && items.length === urls.length && !used.has(position)) index = position;
		if (index < 0) return undefined;
		used.add(index);
		return items[index];
	});
	return { matched, unmatched: items.filter((_, at) => !used.has(at)) };
}

function reviewHeader(review: SubmittedReview): IDataObject {
	return {
		finished: review.finished,
		status: review.result.status ?? null,
		code: review.result.code ?? null,
		taskId: review.result.task_id ?? null,
		trackId: review.result.track_id ?? null,
		reviewBatchId: review.result.result?.review_batch_id ?? null,
	};
}

/** One output item per asset, ready for an IF node on `passed` or `hasError`. */
export function assetJson(
	review: SubmittedReview,
	url: string | undefined,
	item: AssetReviewItem | undefined,
): IDataObject {
	const flagged = hasError(item);
	const outcome: AssetOutcome =
		!review.finished || !item ? 'pending' : flagged ? 'rejected' : 'passed';
	return {
		assetUrl: item?.asset_url ?? url ?? null,
		sourceUrl: item?.source_url ?? url ?? null,
		outcome,
		passed: outcome === 'passed',
		hasError: flagged,
		submitReviewStatus: item?.submit_review_status ?? null,
		errorCode: item?.error_code ?? null,
		errorMessage: item?.error_message ?? null,
		assetId: item?.asset_id ?? null,
		downstreamAssetId: item?.downstream_asset_id ?? null,
		downstreamFinalUrl: item?.downstream_final_url ?? null,
		downstreamUrlExpireAt: item?.downstream_url_expire_at ?? null,
		effectiveGroupId: item?.effective_group_id ?? null,
		groupSource: item?.group_source ?? null,
		createTime: item?.createtime ?? null,
		...reviewHeader(review),
		...(review.finished ? {} : { nextStep: nextStepHint(review) }),
	};
}

/** Per sent URL, its output JSON; plus any result items that match no URL. */
export function assetJsonList(review: SubmittedReview): Array<{ url?: string; json: IDataObject }> {
	const { matched, unmatched } = matchAssets(review.urls, review.result.result?.items ?? []);
	return [
		...review.urls.map((url, position) => ({
			url,
			json: assetJson(review, url, matched[position]),
		})),
		...unmatched.map((item) => ({ json: assetJson(review, undefined, item) })),
	];
}

/** One output item for the whole request, with counts and the rejected assets listed. */
export function reviewSummaryJson(review: SubmittedReview, notice?: string): IDataObject {
	const assets = assetJsonList(review).map((asset) => asset.json);
	const rejected = assets.filter((asset) => asset.hasError === true);
	return {
		...reviewHeader(review),
		message: review.result.message ?? null,
		sentAs: review.field,
		assetCount: review.urls.length,
		passedCount: assets.filter((asset) => asset.passed === true).length,
		rejectedCount: rejected.length,
		hasErrors: rejected.length > 0,
		rejectedAssets: rejected.map((asset) => ({
			assetUrl: asset.assetUrl,
			errorCode: asset.errorCode,
			errorMessage: asset.errorMessage,
		})),
		raw: review.result as IDataObject,
		...(review.finished ? {} : { nextStep: nextStepHint(review) }),
		...(notice ? { notice } : {}),
	};
}

/** A submitted review, as the error of a batch stopped midway names it. */
export function reviewId(item: INodeExecutionData): string | undefined {
	const { taskId, trackId } = item.json;
	if (typeof taskId === 'string' && taskId !== '') return `review task ${taskId}`;
	return typeof trackId === 'string' && trackId !== '' ? `review track ${trackId}` : undefined;
}

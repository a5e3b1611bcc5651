import type { JsonRecord, TaskError, TaskStatus } from '../shared/tasks';
import { asRecord, finiteNumber, isDone, mapStatus, taskError, text } from '../shared/tasks';

/**
 * Asset review results (the spec's "Asset review result": `{code, task_id, track_id, status,
 * message, error_message, result:{review_batch_id, items[]}}`). They are not a video task
 * family, so they are recognized here, next to the only node that receives them by callback.
 */

const ASSET_REVIEW_STATUS = {
	completed: 'succeeded',
	processing: 'running',
	failed: 'failed',
} as const satisfies Record<string, TaskStatus>;

export interface ReviewedAsset {
	assetId: string | null;
	sourceUrl: string | null;
	assetUrl: string | null;
	downstreamAssetId: string | null;
	downstreamFinalUrl: string | null;
	downstreamUrlExpireAt: string | null;
	submitReviewStatus: number | null;
	/** No error code and no error message: the meaning of `submit_review_status` is not documented. */
	passed: boolean;
	errorCode: string | null;
	errorMessage: string | null;
}

export interface AssetReviewEvent {
	family: 'assetReview';
	taskId: string;
	status: TaskStatus;
	rawStatus: string | null;
	done: boolean;
	code: number | null;
	trackId: string | null;
	reviewBatchId: string | null;
	items: ReviewedAsset[];
	error: TaskError | null;
	raw: unknown;
}

/** The asset review result a body carries, or undefined when it is not one. */
export function recognizeAssetReviewResult(body: unknown): AssetReviewEvent | undefined {
	const record = asRecord(body);
	if (!record || text(record.task_id) === undefined || typeof record.status !== 'string')
		return undefined;
	const result = asRecord(record.result);
	// A task id and a status alone would also fit other shapes; the review carries its batch.
	if (!result && text(record.track_id) === undefined) return undefined;
	const items = Array.isArray(result?.items) ? result.items.map(reviewedAsset) : [];
	const status = mapStatus(ASSET_REVIEW_STATUS, record.status);
	const error =
		taskError(record.error_message, 'review_failed') ??
		(status === 'failed'
			? { code: 'review_failed', message: text(record.message) ?? 'The review failed' }
			: null);
	return {
		family: 'assetReview',
		taskId: text(record.task_id) as string,
		status,
		rawStatus: record.status,
		done: isDone(status),
		code: typeof record.code === 'number' ? record.code : null,
		trackId: text(record.track_id) ?? null,
		reviewBatchId: text(result?.review_batch_id) ?? null,
		items,
		error,
		raw: body,
	};
}

function reviewedAsset(value: unknown): ReviewedAsset {
	const item: JsonRecord = asRecord(value) ?? {};
	const errorCode = text(item.error_code) ?? null;
	const errorMessage = text(item.error_message) ?? null;
	return {
		assetId: text(item.asset_id) ?? null,
		sourceUrl: text(item.source_url) ?? null,
		assetUrl: text(item.asset_url) ?? null,
		downstreamAssetId: text(item.downstream_asset_id) ?? null,
		downstreamFinalUrl: text(item.downstream_final_url) ?? null,
		downstreamUrlExpireAt: text(item.downstream_url_expire_at) ?? null,
		submitReviewStatus: finiteNumber(item.submit_review_status) ?? null,
		passed: (errorCode === null || errorCode === '0') && errorMessage === null,
		errorCode,
		errorMessage,
	};
}

import type { FamilyId, NormalizedTask, ParseContext } from '../shared/tasks';
import { TASK_FAMILIES, asRecord, isFamilyId, recognizeCallback, text } from '../shared/tasks';
import type { AssetReviewEvent } from './assetReviewResult';
import { recognizeAssetReviewResult } from './assetReviewResult';

/** What a callback reports: a video task of some family, or an asset review result. */
export type CallbackEvent = NormalizedTask | AssetReviewEvent;

export const AUTO_DETECT = 'auto';
export const ASSET_REVIEW = 'assetReview';

/** The Family parameter: detect from the payload, a task family, or asset review. */
export type FamilyChoice = typeof AUTO_DETECT | typeof ASSET_REVIEW | FamilyId;

/**
 * The event a callback body describes, or undefined for an unknown shape. A forced family
 * parses the body as that family's task record even when it does not look like a callback.
 */
export function recognizeEvent(
	body: unknown,
	choice: FamilyChoice,
	context: Partial<ParseContext>,
): CallbackEvent | undefined {
	if (choice === ASSET_REVIEW) return recognizeAssetReviewResult(body);
	const event = isFamilyId(choice)
		? (TASK_FAMILIES[choice].recognizeCallback(body, context) ?? recordOf(choice, body, context))
		: (recognizeAssetReviewResult(body) ??
			recognizeCallback(body, context) ??
			undocumentedRecord(body, context));
	return event && event.taskId !== '' ? event : undefined;
}

function recordOf(
	family: FamilyId,
	body: unknown,
	context: Partial<ParseContext>,
): NormalizedTask | undefined {
	try {
		return TASK_FAMILIES[family].parseTaskRecord(body, {
			model: context.model ?? null,
			traceId: context.traceId ?? null,
			createdAt: context.createdAt ?? null,
		}).task;
	} catch {
		return undefined;
	}
}

/**
 * Families whose callbacks the spec does not document, read tolerantly: a long-running
 * operation (`{name, done}`) and a generic or Family B video record (`{id or task_id, status}`).
 */
function undocumentedRecord(
	body: unknown,
	context: Partial<ParseContext>,
): NormalizedTask | undefined {
	const record = asRecord(body);
	if (!record) return undefined;
	if (text(record.name) !== undefined && typeof record.done === 'boolean')
		return recordOf('longRunning', body, context);
	if ((text(record.id) ?? text(record.task_id)) !== undefined && typeof record.status === 'string')
		return recordOf('generic', body, context);
	return undefined;
}

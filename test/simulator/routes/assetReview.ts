import { MP4_FILE, PNG_FILE } from '../files';
import { newId, unixSeconds } from '../ids';
import { MAGIC } from '../magic';
import { json, refused, type Reply } from '../reply';
import type { Route } from '../router';
import type { SimState } from '../state';
import { DUPLICATE_CALLBACK_GAP_MS } from '../tasks';
import {
	firstIssue,
	isPublicHttpUrl,
	isRecord,
	notAnObject,
	optionalArray,
	optionalHttpUrl,
	optionalOneOf,
	optionalString,
	stringField,
	type Issue,
	type JsonObject,
} from '../validate';

const MAX_ASSETS = 50;
const PASSED = 1;
const REJECTED = 2;
const URL_LIFETIME_SECONDS = 24 * 60 * 60;

/** Asset review on the identity host. */
export function assetReviewRoutes(state: SimState): Route[] {
	return [
		{
			host: 'identity',
			methods: ['POST'],
			pattern: /^\/api\/overseas\/asset\/upload\/sync$/,
			handle: ({ body }) => reviewAssets(state, body),
		},
	];
}

// HTTP 400 with the review envelope's own numeric code (the spec shows no failure status;
// this README documents this one).
function reviewError(message: string): Reply {
	return refused('invalid-body', message, 400, { code: 400, message, error_message: message });
}

function reviewAssets(state: SimState, body: unknown): Reply {
	if (!isRecord(body)) return reviewError(notAnObject().message);
	const issue = validateReview(body);
	if (issue) return reviewError(issue.message);

	// asset_url_list is the legacy name and wins when both are sent.
	const urls = (
		Array.isArray(body.asset_url_list)
			? body.asset_url_list
			: Array.isArray(body.images)
				? body.images
				: []
	).map(String);
	const header = {
		task_id: newId('review_'),
		track_id: newId('track_'),
		message: '',
		error_message: '',
	};
	const batchId = newId('batch_');
	const finished = urls.some((url) => url.includes(MAGIC.reviewBatchFail))
		? {
				code: 200,
				status: 'failed',
				...header,
				error_message: 'review service failed',
				result: { review_batch_id: batchId, items: [] },
			}
		: {
				code: 200,
				status: 'completed',
				...header,
				result: {
					review_batch_id: batchId,
					items: urls.map((url) => reviewItem(state, body, url)),
				},
			};

	const isAsync =
		body.asset_type === 'Video' || urls.some((url) => url.includes(MAGIC.reviewAsync));
	if (!isAsync) return json(200, finished);

	const callbackUrl = stringField(body, 'callback_url');
	if (callbackUrl !== undefined) {
		// The finished review arrives later by callback, twice, as upstream retries do.
		const doneAfter = state.options.queuedMs + state.options.runningMs;
		state.lifecycleTimers.schedule(doneAfter, () => state.callbacks.send(callbackUrl, finished));
		state.lifecycleTimers.schedule(doneAfter + DUPLICATE_CALLBACK_GAP_MS, () =>
			state.callbacks.send(callbackUrl, finished),
		);
	}
	return json(200, {
		code: 202,
		status: 'processing',
		...header,
		result: { review_batch_id: batchId, items: [] },
	});
}

function reviewItem(state: SimState, body: JsonObject, url: string): JsonObject {
	const now = unixSeconds(Date.now());
	const rejected = url.includes(MAGIC.reviewReject);
	const assetId = newId('asset_');
	let finalUrl = '';
	if (!rejected) {
		const isImage = (stringField(body, 'asset_type') ?? 'Image') === 'Image';
		const name = `${assetId}.${isImage ? 'png' : 'mp4'}`;
		state.files.put(name, isImage ? PNG_FILE : MP4_FILE);
		finalUrl = state.fileUrl(name);
	}
	return {
		asset_id: assetId,
		source_url: url,
		asset_url: url,
		downstream_asset_id: rejected ? '' : newId('ds_'),
		downstream_final_url: finalUrl,
		downstream_url_expire_at: rejected ? '' : String(now + URL_LIFETIME_SECONDS),
		error_code: rejected ? 'CONTENT_VIOLATION' : '',
		error_message: rejected ? 'The asset violates the content policy.' : '',
		createtime: String(now),
		effective_group_id: stringField(body, 'group_id') ?? '',
		group_source: stringField(body, 'group_source') ?? '',
		submit_review_status: rejected ? REJECTED : PASSED,
	};
}

function validateReview(body: JsonObject): Issue | undefined {
	const listKey = Array.isArray(body.asset_url_list) ? 'asset_url_list' : 'images';
	const urls = body[listKey];
	const badUrl = Array.isArray(urls)
		? urls.findIndex((url) => typeof url !== 'string' || !isPublicHttpUrl(url))
		: -1;
	const groupSource = body.group_source;
	return firstIssue(
		// Spec: `images` is required (a null is no list); `asset_url_list` is its legacy twin.
		!Array.isArray(body.images) && !Array.isArray(body.asset_url_list)
			? { param: 'images', message: "'images' is required: a list of 1 to 50 URLs." }
			: undefined,
		optionalArray(body, 'images', { max: MAX_ASSETS, items: 'string' }),
		optionalArray(body, 'asset_url_list', { max: MAX_ASSETS, items: 'string' }),
		Array.isArray(urls) && urls.length === 0
			? { param: listKey, message: `'${listKey}' must contain at least one URL.` }
			: undefined,
		badUrl >= 0
			? {
					param: `${listKey}[${badUrl}]`,
					message: `'${listKey}[${badUrl}]' must be a public http or https URL.`,
				}
			: undefined,
		optionalOneOf(body, 'asset_type', ['Image', 'Video', 'Audio']),
		optionalHttpUrl(body, 'callback_url'),
		optionalString(body, 'group_id'),
		optionalOneOf(body, 'group_source', ['', 'real_person']),
		// Spec: group_source is a rule on group_id ("when group_id is sent ..."), not a field alone.
		groupSource !== undefined && groupSource !== null && typeof body.group_id !== 'string'
			? {
					param: 'group_source',
					message: "'group_source' is only allowed together with 'group_id'.",
				}
			: undefined,
	);
}

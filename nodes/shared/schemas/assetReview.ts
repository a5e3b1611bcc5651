import { z } from 'zod';

import type { BusinessFailureCheck } from '../gateway/transport';
import { codeMemberFailure } from '../gateway/transport';
import { answerRule, firstFailure } from './answerRule';
import { httpUrl } from './common';

/** POST {identity_url}/api/overseas/asset/upload/sync, as the spec's Endpoints and Limits sections describe it. */

export const ASSET_REVIEW_PATH = '/api/overseas/asset/upload/sync';

/** The spec's limit on `images` (and so on its legacy twin `asset_url_list`). */
export const MAX_ASSETS_PER_REQUEST = 50;

export const ASSET_TYPES = ['Image', 'Video', 'Audio'] as const;

/** With `group_id`, only these are allowed; a non-empty one needs `group_id`. */
export const GROUP_SOURCES = ['', 'real_person'] as const;

export type AssetUrlField = 'images' | 'asset_url_list';

// The review service fetches the assets itself, so addresses only this machine or its
// private network can reach would never be reviewed.
const PRIVATE_HOST_PATTERNS = [
	/^localhost$/,
	/\.localhost$/,
	/\.local$/,
	/\.internal$/,
	/^127\./,
	/^10\./,
	/^192\.168\./,
	/^172\.(1[6-9]|2\d|3[01])\./,
	/^169\.254\./,
	/^0\.0\.0\.0$/,
	/^\[(::1?|f[cd][0-9a-f]{2}:.*|fe80:.*)\]$/,
];

/** Why `text` is not a public http(s) URL, or undefined when it is one. */
export function publicUrlProblem(text: string): string | undefined {
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return `"${text}" is not a valid URL`;
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return `"${text}" uses ${url.protocol.replace(/:$/, '')}: only public http or https URLs can be reviewed`;
	}
	const host = url.hostname.toLowerCase();
	if (PRIVATE_HOST_PATTERNS.some((pattern) => pattern.test(host))) {
		return `"${text}" points to a private or local host the review service cannot reach: use a public http or https URL`;
	}
	return undefined;
}

/** One asset address: a public http or https URL. The message names the URL. */
export const publicMediaUrlSchema = z
	.string({ invalid_type_error: 'must be a URL given as text' })
	.trim()
	.min(1, 'must not be empty: every entry needs a public http or https URL')
	.superRefine((text, context) => {
		const problem = publicUrlProblem(text);
		if (problem) context.addIssue({ code: z.ZodIssueCode.custom, message: problem });
	});

/** A list of asset URLs as one request carries it: 1 to 50 entries. */
export const assetUrlListSchema = z
	.array(publicMediaUrlSchema, { invalid_type_error: 'must be a list of URLs' })
	.min(1, 'must contain at least 1 URL')
	.max(
		MAX_ASSETS_PER_REQUEST,
		`must have at most ${MAX_ASSETS_PER_REQUEST} URLs per request (use "Aggregate Items" mode to have larger sets split into several requests)`,
	);

/**
 * One input item's URLs in "aggregate items" mode, checked under the field they will be sent
 * as; the 50-URL limit applies to the gathered requests, not to one item.
 */
export const itemAssetUrlsSchema = (field: AssetUrlField) =>
	z
		.object({
			[field]: z.array(publicMediaUrlSchema).min(1, 'must contain at least 1 URL for this item'),
		})
		.transform((value) => value[field]);

export const assetReviewRequestSchema = z
	.object({
		images: assetUrlListSchema.optional(),
		asset_url_list: assetUrlListSchema.optional(),
		asset_type: z.enum(ASSET_TYPES, {
			errorMap: () => ({ message: `must be one of ${ASSET_TYPES.join(', ')}` }),
		}),
		callback_url: httpUrl().optional(),
		group_id: z
			.string({ invalid_type_error: 'must be text' })
			.trim()
			.min(1, 'must not be empty when given')
			.optional(),
		group_source: z
			.enum(GROUP_SOURCES, { errorMap: () => ({ message: 'must be empty or "real_person"' }) })
			.optional(),
	})
	.strict()
	.superRefine((request, context) => {
		// The gateway would let asset_url_list win silently; the node sends exactly one.
		if ((request.images === undefined) === (request.asset_url_list === undefined)) {
			context.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['images'],
				message: 'exactly one of "images" and "asset_url_list" must be sent',
			});
		}
		if (request.group_source !== undefined && request.group_id === undefined) {
			context.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['group_source'],
				message: `"${request.group_source}" is only allowed together with a Group ID ("group_id")`,
			});
		}
	});

export type AssetReviewRequest = z.infer<typeof assetReviewRequestSchema>;

const text = z.string().optional().catch(undefined);

/** One reviewed asset, as the spec lists its fields. Unknown fields are kept. */
export const assetReviewItemSchema = z
	.object({
		asset_id: text,
		source_url: text,
		asset_url: text,
		downstream_asset_id: text,
		downstream_final_url: text,
		downstream_url_expire_at: text,
		error_code: z.union([z.string(), z.number()]).optional().catch(undefined),
		error_message: text,
		createtime: text,
		effective_group_id: text,
		group_source: text,
		submit_review_status: z.union([z.number(), z.string()]).optional().catch(undefined),
	})
	.passthrough();

export type AssetReviewItem = z.infer<typeof assetReviewItemSchema>;

/** The review answer. Lenient on purpose: the node reads it, the gateway owns it. */
export const assetReviewResultSchema = z
	.object({
		code: z.union([z.number(), z.string()]).optional(),
		task_id: text,
		track_id: text,
		status: text,
		message: text,
		error_message: text,
		result: z
			.object({
				review_batch_id: text,
				items: z.array(assetReviewItemSchema).optional().catch(undefined),
			})
			.passthrough()
			.nullish()
			.catch(undefined),
	})
	.passthrough();

export type AssetReviewResult = z.infer<typeof assetReviewResultSchema>;

export const NOT_A_REVIEW_RESULT =
	'The identity host answered with something that is not an asset review result';

/** The fields by which an answer is a review result at all (its `code` is checked first). */
const REVIEW_RESULT_FIELDS = ['code', 'status', 'task_id', 'track_id', 'result', 'error_message'];

/**
 * What a success of the review carries: `code` 200 (finished) or 202 (accepted, unfinished);
 * any other code is the service's failure in its own words. An answer without a code must
 * still be a review result (its status, ids, result or error message, which the node reads
 * and reports): an HTTP 200 `{"error": {...}}` body was a finished review of nothing
 * (issue 39). A failed review is a result, not a failure here: its verdicts are output.
 */
export const assetReviewFailure: BusinessFailureCheck = firstFailure(
	codeMemberFailure((code) => [200, 202].includes(Number(code)), 'Asset review error code'),
	answerRule(
		z
			.record(z.unknown())
			.refine((body) =>
				REVIEW_RESULT_FIELDS.some((field) => body[field] !== undefined && body[field] !== null),
			),
		() => NOT_A_REVIEW_RESULT,
	),
);

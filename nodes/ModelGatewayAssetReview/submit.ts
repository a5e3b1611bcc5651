import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { gatewayApiError } from '../shared/gateway/gatewayError';

import type {
	AssetReviewRequest,
	AssetReviewResult,
	AssetUrlField,
} from '../shared/schemas/assetReview';
import {
	ASSET_REVIEW_PATH,
	assetReviewFailure,
	assetReviewRequestSchema,
	assetReviewResultSchema,
	NOT_A_REVIEW_RESULT,
} from '../shared/schemas/assetReview';
import { validateRequest } from '../shared/schemas/validate';
import type { GatewayResponse } from '../shared/gateway/transport';
import { gatewayRequest } from '../shared/gateway/transport';
import { isBlank } from '../shared/items/values';

/** The request fields besides the URLs, as read from the node's parameters. */
export interface ReviewFields {
	assetType: unknown;
	callbackUrl?: unknown;
	groupId?: unknown;
	groupSource?: unknown;
}

export interface SubmittedReview {
	request: AssetReviewRequest;
	field: AssetUrlField;
	urls: string[];
	result: AssetReviewResult;
	/** False for code 202: accepted, the final result comes later. */
	finished: boolean;
}

/** Reads the review fields of one item; blank optional fields are left out of the request. */
export function readReviewFields(context: IExecuteFunctions, itemIndex: number): ReviewFields {
	const options = context.getNodeParameter('options', itemIndex, {}) as IDataObject;
	return {
		assetType: context.getNodeParameter('assetType', itemIndex, 'Image'),
		callbackUrl: options.callbackUrl,
		groupId: options.groupId,
		groupSource: options.groupSource,
	};
}

/** Builds and validates the body: exactly one URL field, nothing blank. Throws before sending. */
export function buildReviewRequest(
	context: IExecuteFunctions,
	field: AssetUrlField,
	urls: unknown[],
	fields: ReviewFields,
	itemIndex: number,
): AssetReviewRequest {
	return validateRequest(
		assetReviewRequestSchema,
		{
			[field]: urls,
			asset_type: isBlank(fields.assetType) ? 'Image' : fields.assetType,
			...(isBlank(fields.callbackUrl) ? {} : { callback_url: fields.callbackUrl }),
			...(isBlank(fields.groupId) ? {} : { group_id: fields.groupId }),
			...(isBlank(fields.groupSource) ? {} : { group_source: fields.groupSource }),
		},
		context.getNode(),
		itemIndex,
	);
}

function isUnfinished(result: AssetReviewResult): boolean {
	return Number(result.code) === 202 || (result.status ?? '').toLowerCase() === 'processing';
}

function reviewIds(result: AssetReviewResult): string {
	return [`task_id ${result.task_id ?? '-'}`, `track_id ${result.track_id ?? '-'}`].join(', ');
}

/**
 * Sends one review request. Returns the result for code 200 and 202, and for a `failed`
 * review that carries per-asset results (rejected assets are results, with their verdicts).
 * A wrong token, or a failed review with no per-asset results, become a NodeApiError. Every
 * text of the identity host leaves through the request's redactor, so the token never does.
 */
export async function submitReview(
	context: IExecuteFunctions,
	request: AssetReviewRequest,
	itemIndex: number,
): Promise<SubmittedReview> {
	let response: GatewayResponse<unknown>;
	try {
		response = await gatewayRequest<unknown>(context, {
			method: 'POST',
			path: ASSET_REVIEW_PATH,
			kind: 'create',
			host: 'identity',
			// `code` 200 (finished) or 202 (accepted, unfinished), and a review result at all.
			businessFailure: assetReviewFailure,
			body: request,
			itemIndex,
		});
	} catch (error) {
		throw explainAuthFailure(error);
	}
	const { body, redactor } = response;
	const parsed = assetReviewResultSchema.safeParse(body);
	if (!parsed.success) {
		throw gatewayApiError(
			context.getNode(),
			{
				// A review field of a type the reader cannot take (the rule saw a review result).
				message: NOT_A_REVIEW_RESULT,
				description: `Received: ${JSON.stringify(body ?? null).slice(0, 200)}. The review may still have been submitted; it was not sent again.`,
				itemIndex,
			},
			redactor,
		);
	}
	const result = redactor.value(parsed.data);
	const errorMessage = result.error_message?.trim();
	const reviewed = (result.result?.items?.length ?? 0) > 0;
	if (((result.status ?? '').toLowerCase() === 'failed' || errorMessage) && !reviewed) {
		const reason = errorMessage || result.message?.trim() || `status ${result.status ?? 'failed'}`;
		throw gatewayApiError(
			context.getNode(),
			{
				message: `The asset review failed: ${reason}`,
				description: `The identity host answered code ${String(result.code ?? '-')} with status "${result.status ?? '-'}" (${reviewIds(result)}) and no per-asset results. No asset of this request was reviewed.`,
				body: result,
				itemIndex,
			},
			redactor,
		);
	}
	const field: AssetUrlField = request.asset_url_list ? 'asset_url_list' : 'images';
	return {
		request,
		field,
		urls: request[field] ?? [],
		result,
		finished: !isUnfinished(result),
	};
}

/** A 401/403 from the identity host means the credential, not the request, is wrong. */
function explainAuthFailure(error: unknown): unknown {
	if (!(error instanceof NodeApiError) || !['401', '403'].includes(String(error.httpCode)))
		return error;
	const said = error.message;
	error.message =
		error.httpCode === '401'
			? `The identity host rejected the access token (HTTP 401: ${said})`
			: `The access token is not allowed to submit asset reviews (HTTP 403: ${said})`;
	error.description =
		'Check the Access Token (and Identity URL) in the "Model Gateway Asset Review API" credential. It is assigned by an administrator and sent as the X-Access-Token header. Nothing was reviewed.';
	return error;
}

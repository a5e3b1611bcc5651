import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { TRANSIENT_NETWORK_CODES, asNetworkFailure } from '../gateway/transport';

/**
 * Whether a failed result-file download may succeed when asked again. A GET of a result file is
 * safe to repeat, so what the file host could not serve for a moment (a 5xx, a 408, a 429, a
 * timeout, a connection reset or refused, a body that broke off) is worth another try; what it
 * refused (a 404 of an expired link, a 403, a 410) or what this node refused to follow (a
 * scheme, a redirect) is not.
 */

/** 4xx statuses that mean "not now" rather than "not this": every other 4xx is final. */
const TRANSIENT_CLIENT_STATUSES = new Set([408, 429]);

/**
 * Connection failures of a request or of a body while it arrives: the transport's, and a body
 * that broke off. ENOTFOUND is left out: a host name that does not resolve will not resolve a
 * few seconds later (EAI_AGAIN is the resolver's own "try again").
 */
const TRANSIENT_DOWNLOAD_CODES: ReadonlySet<string> = new Set([
	...[...TRANSIENT_NETWORK_CODES].filter((code) => code !== 'ENOTFOUND'),
	'ERR_STREAM_PREMATURE_CLOSE',
]);

export function isTransientStatus(statusCode: number): boolean {
	return statusCode >= 500 || TRANSIENT_CLIENT_STATUSES.has(statusCode);
}

/** A request that got no answer, or a body that broke off, for a reason that may pass. */
export function isTransientNetworkError(error: unknown): boolean {
	return TRANSIENT_DOWNLOAD_CODES.has(asNetworkFailure(error).code);
}

/**
 * A download that failed for good in this run: `retryable` says whether its last failure was
 * transient (a later run may well succeed), `attempts` how many requests were tried.
 */
export class DownloadError extends NodeOperationError {
	readonly retryable: boolean;

	readonly attempts: number;

	constructor(
		node: INode,
		message: string,
		options: { itemIndex: number; description: string; retryable: boolean; attempts: number },
	) {
		super(node, message, { itemIndex: options.itemIndex, description: options.description });
		this.retryable = options.retryable;
		this.attempts = options.attempts;
	}
}

/** True for a download failure that trying again later may well cure. */
export function isRetryableDownloadFailure(error: unknown): boolean {
	return error instanceof DownloadError && error.retryable;
}

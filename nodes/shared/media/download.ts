import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { REDIRECT_STATUSES, discardStream, resolveRedirect } from '../gateway/transport';
import { extensionFor } from './binary';

/**
 * Downloads a result file (public, expiring URL: no credentials are sent) into n8n binary
 * data, as a stream: the file is never held whole (in n8n's filesystem mode it goes straight
 * to disk). A failure names what was being downloaded.
 *
 * Only http and https URLs are fetched, redirects included: a result URL comes from the gateway
 * or from a callback, and n8n's HTTP client would also read a `data:` URL (its bytes stored as
 * the video, issue 54) or follow a redirect wherever it points. Redirects are therefore followed
 * here, one at a time, each target checked before it is asked.
 */

const DOWNLOAD_TIMEOUT_MS = 300_000;
const MAX_REDIRECTS = 5;
const FETCHED_SCHEMES = new Set(['http:', 'https:']);
const EXPIRY_NOTE =
	'Result URLs expire after a few hours; download them soon after the task finishes.';
const SCHEME_NOTE =
	'Downloads follow http and https URLs only, redirects included: nothing was fetched from it and nothing was stored.';

/** A URL's scheme ("data:"), or undefined when the text is no absolute URL. */
function schemeOf(url: string): string | undefined {
	try {
		return new URL(url.trim()).protocol.toLowerCase();
	} catch {
		return undefined;
	}
}

export async function downloadToBinary(
	context: IExecuteFunctions,
	url: string,
	options: { fileNameBase: string; what: string; itemIndex: number; fallbackMimeType?: string },
): Promise<IBinaryData> {
	const failure = (message: string, description = EXPIRY_NOTE) =>
		new NodeOperationError(context.getNode(), `Could not download ${options.what}${message}`, {
			itemIndex: options.itemIndex,
			description,
		});
	const scheme = schemeOf(url);
	if (scheme === undefined) throw failure(': its URL is not an absolute URL', SCHEME_NOTE);
	// Not the URL itself: a data: URL is the file, and may be megabytes long.
	if (!FETCHED_SCHEMES.has(scheme)) throw failure(`: its URL is a ${scheme} URL`, SCHEME_NOTE);
	const failed = (error: unknown) => failure(` from ${url}: ${(error as Error).message}`);

	// `body` is the response as a Node.js stream (an IncomingMessage), which n8n stores as such.
	let response: { body: Buffer; headers: Record<string, unknown>; statusCode: number };
	let current = url;
	for (let redirects = 0; ; redirects++) {
		try {
			response = (await context.helpers.httpRequest({
				method: 'GET',
				url: current,
				encoding: 'stream',
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				disableFollowRedirect: true,
				timeout: DOWNLOAD_TIMEOUT_MS,
				abortSignal: context.getExecutionCancelSignal(),
			})) as typeof response;
		} catch (error) {
			throw failed(error);
		}
		if (!REDIRECT_STATUSES.has(response.statusCode)) break;
		discardStream(response.body);
		const location = response.headers.location;
		const target = resolveRedirect(current, typeof location === 'string' ? location : undefined);
		const targetScheme = target === undefined ? undefined : schemeOf(target);
		if (target === undefined || targetScheme === undefined) {
			throw failed(new Error(`HTTP ${response.statusCode} named no address to go to`));
		}
		if (!FETCHED_SCHEMES.has(targetScheme)) {
			throw failure(
				` from ${url}: it redirected (HTTP ${response.statusCode}) to a ${targetScheme} URL, which was not followed`,
				SCHEME_NOTE,
			);
		}
		if (redirects >= MAX_REDIRECTS) {
			throw failed(new Error(`more than ${MAX_REDIRECTS} redirects`));
		}
		current = target;
	}
	if (response.statusCode < 200 || response.statusCode >= 300) {
		discardStream(response.body);
		throw failed(new Error(`HTTP ${response.statusCode}`));
	}

	const contentType = String(response.headers['content-type'] ?? '')
		.split(';')[0]
		.trim();
	const mimeType =
		contentType && contentType !== 'application/octet-stream'
			? contentType
			: (options.fallbackMimeType ?? 'application/octet-stream');
	const fileName = `${options.fileNameBase}.${extensionFor(mimeType)}`;
	try {
		return await context.helpers.prepareBinaryData(response.body, fileName, mimeType);
	} catch (error) {
		// The connection broke off while the file was arriving.
		throw failed(error);
	}
}

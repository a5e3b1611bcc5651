import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { REDIRECT_STATUSES, discardStream, resolveRedirect } from '../gateway/transport';
import { realClock } from '../polling/scheduler';
import { extensionFor } from './binary';
import { DownloadError, isTransientNetworkError, isTransientStatus } from './downloadFailure';

/**
 * Downloads a result file (public, expiring URL: no credentials are sent) into n8n binary
 * data, as a stream: the file is never held whole (in n8n's filesystem mode it goes straight
 * to disk). A failure names what was being downloaded.
 *
 * Only http and https URLs are fetched, redirects included: a result URL comes from the gateway
 * or from a callback, and n8n's HTTP client would also read a `data:` URL (its bytes stored as
 * the video, issue 54) or follow a redirect wherever it points. Redirects are therefore followed
 * here, one at a time, each target checked before it is asked.
 *
 * A GET of a result file is safe to repeat: a transient failure (see downloadFailure.ts) is
 * tried again after each pause of DOWNLOAD_RETRY_PAUSES_MS, from the URL itself (a redirect's
 * target may be a signed link of its own moment). The error thrown at the end is a
 * DownloadError, which says whether a later run may well succeed.
 */

const DOWNLOAD_TIMEOUT_MS = 300_000;
const MAX_REDIRECTS = 5;
/**
 * The pauses before the second and the third attempt: 3 attempts in all, 10 s of waiting at
 * most, so a CDN's bad moment is waited out without holding a batch for long.
 */
export const DOWNLOAD_RETRY_PAUSES_MS: readonly number[] = [2_000, 8_000];
const FETCHED_SCHEMES = new Set(['http:', 'https:']);
const EXPIRY_NOTE =
	'Result URLs expire after a few hours; download them soon after the task finishes.';
const SCHEME_NOTE =
	'Downloads follow http and https URLs only, redirects included: nothing was fetched from it and nothing was stored.';

/** Why one attempt stored nothing: the words after "Could not download <what>", and whether to try again. */
interface AttemptFailure {
	text: string;
	description: string;
	transient: boolean;
}

type Attempt = { binary: IBinaryData } | { failure: AttemptFailure };

interface DownloadOptions {
	fileNameBase: string;
	what: string;
	itemIndex: number;
	fallbackMimeType?: string;
}

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
	options: DownloadOptions,
): Promise<IBinaryData> {
	const signal = context.getExecutionCancelSignal();
	const fail = (failure: AttemptFailure, attempts: number) => {
		const tries = attempts > 1 ? `, after ${attempts} attempts` : '';
		return new DownloadError(
			context.getNode(),
			`Could not download ${options.what}${failure.text}${tries}`,
			{
				itemIndex: options.itemIndex,
				description:
					failure.transient && attempts > 1
						? `The file host failed ${attempts} times in a row; a later run may well succeed. ${failure.description}`
						: failure.description,
				retryable: failure.transient,
				attempts,
			},
		);
	};
	const scheme = schemeOf(url);
	if (scheme === undefined) {
		throw fail(
			{ text: ': its URL is not an absolute URL', description: SCHEME_NOTE, transient: false },
			1,
		);
	}
	if (!FETCHED_SCHEMES.has(scheme)) {
		// Not the URL itself: a data: URL is the file, and may be megabytes long.
		throw fail(
			{ text: `: its URL is a ${scheme} URL`, description: SCHEME_NOTE, transient: false },
			1,
		);
	}

	for (let attempt = 1; ; attempt++) {
		const outcome = await attemptDownload(context, url, options);
		if ('binary' in outcome) return outcome.binary;
		const pause = DOWNLOAD_RETRY_PAUSES_MS[attempt - 1];
		if (!outcome.failure.transient || pause === undefined || signal?.aborted) {
			throw fail(outcome.failure, attempt);
		}
		// Sliced, so a cancelled execution stops waiting at once.
		await realClock.sleep(pause, signal ?? new AbortController().signal);
		if (signal?.aborted) throw fail(outcome.failure, attempt);
	}
}

/** One GET of the file, its redirects followed: the stored file, or why there is none. */
async function attemptDownload(
	context: IExecuteFunctions,
	url: string,
	options: DownloadOptions,
): Promise<Attempt> {
	const failed = (reason: string, transient: boolean): Attempt => ({
		failure: { text: ` from ${url}: ${reason}`, description: EXPIRY_NOTE, transient },
	});
	const errorFailure = (error: unknown) =>
		failed((error as Error).message, isTransientNetworkError(error));

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
			return errorFailure(error);
		}
		if (!REDIRECT_STATUSES.has(response.statusCode)) break;
		discardStream(response.body);
		const location = response.headers.location;
		const target = resolveRedirect(current, typeof location === 'string' ? location : undefined);
		const targetScheme = target === undefined ? undefined : schemeOf(target);
		if (target === undefined || targetScheme === undefined) {
			return failed(`HTTP ${response.statusCode} named no address to go to`, false);
		}
		if (!FETCHED_SCHEMES.has(targetScheme)) {
			return {
				failure: {
					text: ` from ${url}: it redirected (HTTP ${response.statusCode}) to a ${targetScheme} URL, which was not followed`,
					description: SCHEME_NOTE,
					transient: false,
				},
			};
		}
		if (redirects >= MAX_REDIRECTS) return failed(`more than ${MAX_REDIRECTS} redirects`, false);
		current = target;
	}
	if (response.statusCode < 200 || response.statusCode >= 300) {
		discardStream(response.body);
		return failed(`HTTP ${response.statusCode}`, isTransientStatus(response.statusCode));
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
		return { binary: await context.helpers.prepareBinaryData(response.body, fileName, mimeType) };
	} catch (error) {
		// The connection broke off while the file was arriving (transient), or n8n could not
		// store it (not cured by asking the file host again).
		return errorFailure(error);
	}
}

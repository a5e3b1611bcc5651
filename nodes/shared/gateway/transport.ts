import { randomUUID } from 'crypto';
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INodeProperties,
	IPollFunctions,
	ISupplyDataFunctions,
	ITriggerFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import {
	EMPTY_KEY_PROBLEM,
	canMakeCallbackSecret,
	deriveCallbackSecret,
} from '../callbacks/callbackSecret';
import type { GatewayErrorDetails, Redactor } from './gatewayError';
import { gatewayErrorMessage } from './gatewayError';
import { itemParameter } from '../items/itemParameters';
import {
	createRedactor,
	gatewayApiError,
	htmlText,
	httpAnswer,
	httpStatusTitle,
	isHtml,
} from './gatewayError';

/**
 * The one way every node talks to the gateway: URL building, authentication through the
 * node's credential, X-Trace-ID, timeout, the execution's cancel signal, safe retries and
 * the mapping of gateway failures (HTTP errors and business errors inside HTTP 200) onto
 * NodeApiError (through gatewayError.ts, which redacts the credential's secret).
 *
 * Rate limits: a 429 means the gateway did not process the request, so every request kind,
 * creates included, waits as `retry-after-ms` / `Retry-After` says (or backs off when it
 * says nothing) and is sent again; at most `maxRateLimitWaits` times per request, each wait
 * at most `maxDelayMs`, and never past the execution's cancel signal. While one request of a
 * node's execution waits out a 429, the node's other requests in flight wait too.
 */

export const GATEWAY_CREDENTIAL = 'modelGatewayApi';
export const ASSET_REVIEW_CREDENTIAL = 'modelGatewayAssetReviewApi';

export type GatewayHost = 'base' | 'identity';

/** A failure the gateway reported inside an HTTP 200 answer. */
export interface BusinessFailure {
	code: string;
	message: string;
}

/**
 * Reads a business failure out of an HTTP 200 body, or undefined when the answer is a
 * success: one that carries what a success of its endpoint carries (answerRule.ts).
 * Supplied with the request by the module that knows the answer's shape (a text API, a
 * video family, image edit, asset review), so the transport knows none of them.
 */
export type BusinessFailureCheck = (body: unknown) => BusinessFailure | undefined;

/**
 * `read` requests are safe to repeat; `create` requests may bill the user, so they are only
 * repeated when the gateway provably never saw them.
 */
export type RequestKind = 'read' | 'create';

export interface GatewayRequest {
	method: IHttpRequestMethods;
	/** Path below the host's URL, starting with `/`. */
	path: string;
	kind: RequestKind;
	host?: GatewayHost;
	body?: object;
	/**
	 * Sent as X-Trace-ID on the base host; a fresh UUID when empty, so every request can be
	 * found by support. Not sent to the identity host, which does not list it.
	 */
	traceId?: string;
	/**
	 * What a success of the endpoint carries, and how its answer reports a failure inside HTTP
	 * 200. Required, so no request is sent without its endpoint's rule (issue 39: answers
	 * without one were handed on as empty successes). Streamed answers are held to it by their
	 * aggregator (sse.ts).
	 */
	businessFailure: BusinessFailureCheck;
	/** Index of the item this request serves, for error messages. */
	itemIndex?: number;
	timeoutMs?: number;
	/** Return the body as a Node.js stream (server-sent events) instead of parsed JSON. */
	stream?: boolean;
	/**
	 * Reads a JSON answer from its byte stream instead of having n8n hold and parse it whole
	 * (answers with inline media, see jsonMediaStream.ts). Its result is the response body;
	 * a SyntaxError it throws is reported as an answer that is not valid JSON.
	 */
	readJson?: (body: AsyncIterable<Buffer>) => Promise<unknown>;
}

export interface GatewayResponse<TBody> {
	body: TBody;
	statusCode: number;
	headers: Record<string, string>;
	/** The X-Trace-ID that was sent, if any. */
	traceId?: string;
	/** Redacts this request's credential secret from gateway text read later (streams). */
	redactor: Redactor;
}

export interface RetryPolicy {
	/** Further attempts after the first one. */
	maxRetries: number;
	/** First backoff when the gateway gives no Retry-After; doubles each time. */
	baseDelayMs: number;
	/** A Retry-After longer than this is not waited for: the error is reported instead. */
	maxDelayMs: number;
	/** How many 429 answers one request waits out (any request kind) before reporting one. */
	maxRateLimitWaits: number;
}

/** The option through which a user sets the X-Trace-ID this transport sends. */
export const traceIdOption: INodeProperties = {
	displayName: 'Trace ID',
	name: 'traceId',
	type: 'string',
	default: '',
	description:
		'Sent as X-Trace-ID to help support find this request. Leave empty for a new unique ID per request.',
};

export const DEFAULT_TIMEOUT_SECONDS = 120;
export const DEFAULT_TIMEOUT_MS = DEFAULT_TIMEOUT_SECONDS * 1000;

/**
 * The "Timeout (Seconds)" option, for a node's options collection. The transport reads
 * `options.timeout` of the item itself whenever a request does not set its own timeout.
 */
export const timeoutOption = (defaultSeconds = DEFAULT_TIMEOUT_SECONDS): INodeProperties => ({
	displayName: 'Timeout (Seconds)',
	name: 'timeout',
	type: 'number',
	typeOptions: { minValue: 1, numberPrecision: 0 },
	default: defaultSeconds,
	description:
		'How long to wait for the gateway to answer. A request that creates something and times out is not sent again, as the gateway may still process (and bill) it.',
});

/**
 * The documented maximum for rate limits: each wait at most 60 s, at most 10 waits per
 * request, so one request waits out 429s for at most 10 minutes.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxRetries: 3,
	baseDelayMs: 1_000,
	maxDelayMs: 60_000,
	maxRateLimitWaits: 10,
};

/** How often a wait looks at the execution's cancel signal. */
const CANCEL_CHECK_MS = 100;

/** Statuses after which a read may be repeated (429 is handled for every kind, below). */
const RETRYABLE_STATUSES = new Set([408, 409, 425, 500, 502, 503, 504]);

const RATE_LIMITED = 429;

/**
 * Redirects are never followed by n8n's helper, which would re-send the credential's header to
 * whatever origin a gateway, a proxy or a hostile network names. A read follows one to the
 * credential's own origin; any other redirect is reported (see redirectFailureDetails).
 */
export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;

/** Connection failures after which the gateway may or may not have seen the request. */
export const TRANSIENT_NETWORK_CODES: ReadonlySet<string> = new Set([
	'ECONNRESET',
	'ETIMEDOUT',
	'ECONNABORTED',
	'EPIPE',
	'EAI_AGAIN',
	'ENOTFOUND',
	'ECONNREFUSED',
	'UND_ERR_SOCKET',
]);

/** Failures where the request provably never left this machine, so even a create is safe to repeat. */
const NEVER_SENT_NETWORK_CODES = new Set(['ECONNREFUSED']);

export type GatewayContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| ISupplyDataFunctions
	| ITriggerFunctions
	| IWebhookFunctions;

interface CredentialShape {
	url: string;
	secret: string;
	/**
	 * The callback secret made from the API key (base host only; none from an empty key, whose
	 * secret anyone could compute); redacted like the key.
	 */
	callbackSecret?: string;
}

/** The header each host takes its secret in, as the credential types' `authenticate` declares. */
function authenticationHeader(host: GatewayHost, secret: string): Record<string, string> {
	return host === 'identity' ? { 'X-Access-Token': secret } : { Authorization: `Bearer ${secret}` };
}

async function readCredential(
	context: GatewayContext,
	host: GatewayHost,
): Promise<CredentialShape> {
	if (host === 'identity') {
		const credential = await context.getCredentials<{ identityUrl: string; accessToken: string }>(
			ASSET_REVIEW_CREDENTIAL,
		);
		return { url: credential.identityUrl, secret: credential.accessToken };
	}
	const credential = await context.getCredentials<{ baseUrl: string; apiKey: string }>(
		GATEWAY_CREDENTIAL,
	);
	return {
		url: credential.baseUrl,
		secret: credential.apiKey,
		callbackSecret: canMakeCallbackSecret(credential.apiKey)
			? deriveCallbackSecret(credential.apiKey)
			: undefined,
	};
}

/**
 * The Task Callback Trigger's secret made from this node's Model Gateway credential (see
 * callbackSecret.ts), read through the same one credential read per node run.
 */
export async function callbackSecretOf(context: GatewayContext): Promise<string> {
	const { callbackSecret } = await credentialOf(context, 'base');
	if (callbackSecret === undefined) throw new Error(EMPTY_KEY_PROBLEM);
	return callbackSecret;
}

// n8n reads and decrypts a credential from its database on every getCredentials (and again in
// httpRequestWithAuthentication, then resolves its authenticate expression): ~3 ms of the
// one main thread per request, which is what held 16 requests in flight back. One read per
// node run, shared by every item (and every request) of that run, keyed by its context.
const credentialReads = new WeakMap<object, Map<GatewayHost, Promise<CredentialShape>>>();

function credentialOf(context: GatewayContext, host: GatewayHost): Promise<CredentialShape> {
	const reads = credentialReads.get(context) ?? new Map<GatewayHost, Promise<CredentialShape>>();
	credentialReads.set(context, reads);
	let read = reads.get(host);
	if (!read) {
		read = readCredential(context, host);
		// A failed read is not kept: the next request reports it for its own item.
		read.catch(() => reads.delete(host));
		reads.set(host, read);
	}
	return read;
}

export function joinUrl(base: string, path: string): string {
	return `${base.trim().replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

function lowerCaseHeaders(headers: unknown): Record<string, string> {
	const result: Record<string, string> = {};
	if (headers && typeof headers === 'object') {
		for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
			if (value !== undefined && value !== null) result[name.toLowerCase()] = String(value);
		}
	}
	return result;
}

/**
 * How long the gateway asks us to wait, from `retry-after-ms`, or `Retry-After` in seconds
 * or as an HTTP date. Undefined when it says nothing usable.
 */
export function retryAfterMs(
	headers: Record<string, string>,
	now = Date.now(),
): number | undefined {
	const milliseconds = Number(headers['retry-after-ms']);
	if (
		headers['retry-after-ms'] !== undefined &&
		Number.isFinite(milliseconds) &&
		milliseconds >= 0
	) {
		return milliseconds;
	}
	const retryAfter = headers['retry-after'];
	if (retryAfter === undefined || retryAfter.trim() === '') return undefined;
	const seconds = Number(retryAfter);
	if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
	const date = Date.parse(retryAfter);
	if (!Number.isNaN(date)) return Math.max(0, date - now);
	return undefined;
}

/**
 * A business-failure check for answers that carry a `code` member beside their data: no
 * `code`, or one `isSuccess` accepts, is a success; any other code is a failure described
 * in the gateway's own words.
 */
export function codeMemberFailure(
	isSuccess: (code: unknown) => boolean,
	fallbackLabel = 'Gateway error code',
): BusinessFailureCheck {
	return (body) => {
		if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
		const code = (body as Record<string, unknown>).code;
		if (code === undefined || code === null || isSuccess(code)) return undefined;
		return {
			code: String(code),
			message: gatewayErrorMessage(body) ?? `${fallbackLabel} ${String(code)}`,
		};
	};
}

export interface NetworkFailure {
	code: string;
	message: string;
}

/** The network code of a failed request (ECONNRESET, ECONNABORTED, …; UNKNOWN if none) and its message. */
export function asNetworkFailure(error: unknown): NetworkFailure {
	// n8n's helpers wrap the underlying client error in a NodeApiError that keeps the
	// network code (ECONNREFUSED, ECONNABORTED, ...) in `httpCode`.
	const record = (error ?? {}) as {
		code?: unknown;
		httpCode?: unknown;
		message?: unknown;
		cause?: { code?: unknown };
	};
	const candidates = [record.code, record.cause?.code, record.httpCode];
	const code = candidates.find(
		(candidate): candidate is string =>
			typeof candidate === 'string' && /^[A-Z_]+$/.test(candidate),
	);
	const message = typeof record.message === 'string' ? record.message : String(error);
	return { code: code ?? 'UNKNOWN', message };
}

function isCancelled(error: NetworkFailure, signal?: AbortSignal): boolean {
	return signal?.aborted === true || error.code === 'ERR_CANCELED';
}

/** Per node execution: while one request waits out a 429, the others wait with it. */
class RateLimitGate {
	private resumeAt = 0;

	pause(ms: number): void {
		this.resumeAt = Math.max(this.resumeAt, Date.now() + ms);
	}

	remainingMs(): number {
		return Math.max(0, this.resumeAt - Date.now());
	}
}

// Keyed by the node's execution context: every item of one node run shares one gate.
const rateLimitGates = new WeakMap<object, RateLimitGate>();

function rateLimitGateOf(context: GatewayContext): RateLimitGate {
	let gate = rateLimitGates.get(context);
	if (!gate) {
		gate = new RateLimitGate();
		rateLimitGates.set(context, gate);
	}
	return gate;
}

/**
 * Waits `ms` (or until the gate opens) in short slices, so a cancelled execution stops
 * waiting promptly. Returns false when the execution was cancelled.
 */
async function waitUnlessCancelled(until: () => number, signal?: AbortSignal): Promise<boolean> {
	for (let remaining = until(); remaining > 0; remaining = until()) {
		if (signal?.aborted) return false;
		await sleep(Math.min(remaining, CANCEL_CHECK_MS));
	}
	return signal?.aborted !== true;
}

/** The timeout of a request: its own, else the item's "Timeout (Seconds)" option, else 120 s. */
function timeoutOf(context: GatewayContext, request: GatewayRequest): number {
	if (request.timeoutMs !== undefined) return request.timeoutMs;
	if ('getExecutionCancelSignal' in context && request.itemIndex !== undefined) {
		// An action node's option; the Chat Model sub-node always passes its timeout itself.
		const node = context as IExecuteFunctions;
		const seconds = Number(itemParameter(node, 'options.timeout', request.itemIndex, 0));
		if (Number.isFinite(seconds) && seconds > 0) return seconds * 1000;
	}
	return DEFAULT_TIMEOUT_MS;
}

/**
 * Sends one request to the gateway and returns its parsed answer, or throws NodeApiError
 * with the gateway's own message.
 */
export async function gatewayRequest<TBody = IDataObject>(
	context: GatewayContext,
	request: GatewayRequest,
	retryPolicy: RetryPolicy = DEFAULT_RETRY_POLICY,
): Promise<GatewayResponse<TBody>> {
	const host = request.host ?? 'base';
	const credential = await credentialOf(context, host);
	const redactor = createRedactor([credential.secret, credential.callbackSecret]);
	const traceId =
		host === 'base' ? (request.traceId?.trim() ? request.traceId.trim() : randomUUID()) : undefined;
	const signal =
		'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
	const timeoutMs = timeoutOf(context, request);
	const streamed = request.stream === true || request.readJson !== undefined;
	const options: IHttpRequestOptions = {
		method: request.method,
		url: joinUrl(credential.url, request.path),
		headers: {
			Accept: request.stream ? 'text/event-stream' : 'application/json',
			...(traceId ? { 'X-Trace-ID': traceId } : {}),
			...authenticationHeader(host, credential.secret),
		},
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		disableFollowRedirect: true,
		timeout: timeoutMs,
		// Plain answers come as bytes and are decoded here, once (see decodeAnswer).
		encoding: streamed ? ('stream' as const) : ('arraybuffer' as const),
		...(request.body !== undefined ? { body: request.body as IDataObject } : {}),
		...(signal ? { abortSignal: signal } : {}),
	};
	const describe = `${request.method} ${request.path}`;
	const traceNote = traceId ? ` (X-Trace-ID ${traceId})` : '';
	const fail = (details: Omit<GatewayErrorDetails, 'itemIndex'>) =>
		gatewayApiError(context.getNode(), { ...details, itemIndex: request.itemIndex }, redactor);
	const cancelled = () => fail({ message: 'The execution was cancelled', code: 'CANCELLED' });
	const gate = rateLimitGateOf(context);
	let rateLimitWaits = 0;
	let redirects = 0;

	for (let attempt = 0; ; ) {
		if (!(await waitUnlessCancelled(() => gate.remainingMs(), signal))) throw cancelled();
		let raw: { body: unknown; statusCode: number; headers: unknown };
		try {
			// n8n's own HTTP helper; the credential's header is set above from the one read per
			// run (the credential types still declare `authenticate` for n8n's credential test).
			raw = (await context.helpers.httpRequest(options)) as typeof raw;
		} catch (error) {
			const failure = asNetworkFailure(error);
			if (isCancelled(failure, signal)) throw cancelled();
			const retryable =
				request.kind === 'read'
					? TRANSIENT_NETWORK_CODES.has(failure.code)
					: NEVER_SENT_NETWORK_CODES.has(failure.code);
			if (retryable && attempt < retryPolicy.maxRetries) {
				const delay = backoffMs(retryPolicy, attempt++);
				if (!(await waitUnlessCancelled(deadline(delay), signal))) throw cancelled();
				continue;
			}
			throw fail(networkFailureDetails(failure, request, describe, timeoutMs, attempt));
		}

		const headers = lowerCaseHeaders(raw.headers);
		if (REDIRECT_STATUSES.has(raw.statusCode)) {
			if (streamed) discardStream(raw.body);
			const target = resolveRedirect(options.url, headers.location);
			if (
				target !== undefined &&
				request.kind === 'read' &&
				sameOrigin(target, credential.url) &&
				redirects < MAX_REDIRECTS
			) {
				redirects++;
				options.url = target;
				continue;
			}
			throw fail(redirectFailureDetails(raw.statusCode, target, credential.url, request, describe));
		}
		if (!streamed) raw.body = decodeAnswer(raw.body);
		if (raw.statusCode >= 400) {
			const body = streamed ? await readStreamText(raw.body) : raw.body;
			const waitMs = retryAfterMs(headers);
			if (
				raw.statusCode === RATE_LIMITED &&
				rateLimitWaits < retryPolicy.maxRateLimitWaits &&
				(waitMs ?? 0) <= retryPolicy.maxDelayMs
			) {
				// The gateway did not process it: safe to repeat, even a create.
				gate.pause(waitMs ?? backoffMs(retryPolicy, rateLimitWaits));
				rateLimitWaits++;
				continue;
			}
			const readWaitMs = waitMs ?? backoffMs(retryPolicy, attempt);
			if (
				request.kind === 'read' &&
				RETRYABLE_STATUSES.has(raw.statusCode) &&
				attempt < retryPolicy.maxRetries &&
				readWaitMs <= retryPolicy.maxDelayMs
			) {
				attempt++;
				if (!(await waitUnlessCancelled(deadline(readWaitMs), signal))) throw cancelled();
				continue;
			}
			throw fail({
				...httpFailureDetails(raw.statusCode, body, `${describe}${traceNote}`),
				answer: httpAnswer(raw.statusCode, headers['content-type'], body, credential.url),
			});
		}

		if (request.readJson) {
			try {
				raw.body = await request.readJson(raw.body as AsyncIterable<Buffer>);
			} catch (error) {
				throw fail(
					error instanceof SyntaxError
						? {
								message: 'The gateway answered with a body that is not valid JSON',
								description: `${describe} returned it (${error.message})`,
								httpCode: String(raw.statusCode),
							}
						: {
								// The connection broke off, or n8n could not store media, mid-answer.
								message: `The answer to ${describe} could not be read: ${(error as Error).message}`,
								code: asNetworkFailure(error).code,
							},
				);
			}
		} else if (!request.stream && typeof raw.body === 'string' && raw.body.trim() !== '') {
			throw fail({
				message: 'The gateway answered with a body that is not valid JSON',
				description: `${describe} returned: ${isHtml(raw.body) ? htmlText(raw.body, 200) : raw.body.slice(0, 200)}`,
				httpCode: String(raw.statusCode),
				// An HTML page on HTTP 200 (a web server at a wrong Base URL path) is not the gateway's.
				answer: httpAnswer(raw.statusCode, headers['content-type'], raw.body, credential.url),
			});
		}

		const failure = request.stream ? undefined : request.businessFailure(raw.body);
		if (failure) {
			throw fail({
				message: failure.message,
				code: failure.code,
				body: raw.body,
				description: `${describe} answered HTTP ${raw.statusCode} with error code ${failure.code}${traceNote}`,
			});
		}

		return { body: raw.body as TBody, statusCode: raw.statusCode, headers, traceId, redactor };
	}
}

function deadline(ms: number): () => number {
	const end = Date.now() + ms;
	return () => end - Date.now();
}

function backoffMs(policy: RetryPolicy, attempt: number): number {
	return Math.min(policy.baseDelayMs * 2 ** attempt, policy.maxDelayMs);
}

/** The absolute URL a redirect names, or undefined when it names none. */
export function resolveRedirect(from: string, location: string | undefined): string | undefined {
	if (location === undefined || location.trim() === '') return undefined;
	try {
		return new URL(location.trim(), from).toString();
	} catch {
		return undefined;
	}
}

function originOf(url: string): string | undefined {
	try {
		return new URL(url.trim()).origin;
	} catch {
		return undefined;
	}
}

function sameOrigin(url: string, base: string): boolean {
	const origin = originOf(url);
	return origin !== undefined && origin === originOf(base);
}

/** A redirect not followed: where it pointed, and why the request was not sent there. */
function redirectFailureDetails(
	statusCode: number,
	target: string | undefined,
	baseUrl: string,
	request: GatewayRequest,
	describe: string,
): Omit<GatewayErrorDetails, 'itemIndex'> {
	const targetOrigin = target === undefined ? undefined : originOf(target);
	const baseOrigin = originOf(baseUrl) ?? baseUrl;
	let description: string;
	if (targetOrigin === undefined) {
		description = 'The answer named no address to go to.';
	} else if (targetOrigin !== baseOrigin) {
		description = `The credential is only sent to its own URL (${baseOrigin}), so the request was not sent to ${targetOrigin}. If the gateway has moved, put its new address into the credential's Base URL.`;
	} else if (request.kind === 'create') {
		description =
			'A request that may bill is not sent again to another address, as the gateway may already have processed it; check the gateway before retrying.';
	} else {
		description = `Followed ${MAX_REDIRECTS} redirects without reaching an answer.`;
	}
	return {
		message: `The gateway answered ${describe} with a redirect (HTTP ${statusCode}${targetOrigin ? ` to ${targetOrigin}` : ''}), which was not followed`,
		httpCode: String(statusCode),
		description,
	};
}

/** A streamed answer not read (a redirect's): its connection is released. */
export function discardStream(body: unknown): void {
	const destroy = (body as { destroy?: () => void } | null)?.destroy;
	if (typeof destroy === 'function') destroy.call(body);
}

/** An HTTP error: the gateway's words, or the status when it sent an HTML page or nothing. */
function httpFailureDetails(
	statusCode: number,
	body: unknown,
	requestNote: string,
): Omit<GatewayErrorDetails, 'itemIndex'> {
	const page = typeof body === 'string' && isHtml(body) ? htmlText(body) : undefined;
	return {
		message:
			(page === undefined ? gatewayErrorMessage(body) : undefined) ?? httpStatusTitle(statusCode),
		httpCode: String(statusCode),
		body,
		description:
			`HTTP ${statusCode} from ${requestNote}` +
			(page === undefined ? '' : `. The answer was an HTML page: "${page}"`),
	};
}

/** A request that got no answer: one message that says whether it was repeated and why. */
function networkFailureDetails(
	failure: NetworkFailure,
	request: GatewayRequest,
	describe: string,
	timeoutMs: number,
	attempts: number,
): Omit<GatewayErrorDetails, 'itemIndex'> {
	const timedOut = failure.code === 'ECONNABORTED' || /timeout/i.test(failure.message);
	const dropped =
		failure.code === 'ECONNRESET' || failure.code === 'UND_ERR_SOCKET' || failure.code === 'EPIPE';
	const message = timedOut
		? `The gateway did not answer ${describe} within ${Math.round(timeoutMs / 1000)} s`
		: dropped
			? `The connection to the gateway broke off during ${describe} (${failure.code})`
			: `The gateway could not be reached for ${describe} (${failure.code})`;
	const mayHaveArrived = !NEVER_SENT_NETWORK_CODES.has(failure.code);
	let description: string;
	if (request.kind === 'create' && mayHaveArrived) {
		description =
			'It was not sent again, because the gateway may already have received it and repeating it could bill twice; check the gateway before retrying.';
	} else if (attempts > 0) {
		description = `Tried ${attempts + 1} times. Check the credential's URL and that the gateway is running.`;
	} else {
		description = "Check the credential's URL and that the gateway is running.";
	}
	return { message, code: failure.code, description };
}

const utf8 = new TextDecoder('utf-8');

/**
 * A plain answer's bytes → its JSON value, or its text when it is not JSON (an HTML page, a
 * proxy's words). Decoded here in one piece, so a character split across network chunks
 * cannot break: answers whose multi-byte characters reached a workflow replaced by U+FFFD on
 * n8n 2.41 were reported (issue 34), and which n8n line decodes how is n8n's, not ours.
 */
function decodeAnswer(body: unknown): unknown {
	let text: string;
	if (body instanceof ArrayBuffer) text = utf8.decode(new Uint8Array(body));
	else if (ArrayBuffer.isView(body))
		text = utf8.decode(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
	else return body;
	if (text.trim() === '') return text;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

async function readStreamText(body: unknown): Promise<unknown> {
	if (!body || typeof body !== 'object' || !(Symbol.asyncIterator in body)) return body;
	const chunks: Buffer[] = [];
	for await (const chunk of body as AsyncIterable<Buffer | string>) {
		chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
	}
	const text = Buffer.concat(chunks).toString('utf8');
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

import { randomUUID } from 'crypto';
import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INodeProperties,
	IPollFunctions,
	ITriggerFunctions,
	IWebhookFunctions,
	JsonObject,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

/**
 * The one way every node talks to the gateway: URL building, authentication through the
 * node's credential, X-Trace-ID, timeout, the execution's cancel signal, safe retries and
 * the mapping of gateway failures (HTTP errors and business errors inside HTTP 200) onto
 * NodeApiError.
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
 * success. Supplied with the request by the module that knows the answer's shape (a video
 * family, the asset review operation), so the transport knows none of them.
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
	/** How the answer reports a failure inside HTTP 200; without it the HTTP status says it all. */
	businessFailure?: BusinessFailureCheck;
	/** Index of the item this request serves, for error messages. */
	itemIndex?: number;
	timeoutMs?: number;
	/** Return the body as a Node.js stream (server-sent events) instead of parsed JSON. */
	stream?: boolean;
}

export interface GatewayResponse<TBody> {
	body: TBody;
	statusCode: number;
	headers: Record<string, string>;
	/** The X-Trace-ID that was sent, if any. */
	traceId?: string;
}

export interface RetryPolicy {
	/** Further attempts after the first one. */
	maxRetries: number;
	/** First backoff when the gateway gives no Retry-After; doubles each time. */
	baseDelayMs: number;
	/** A Retry-After longer than this is not waited for: the error is reported instead. */
	maxDelayMs: number;
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

export const DEFAULT_TIMEOUT_MS = 120_000;

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
	maxRetries: 3,
	baseDelayMs: 1_000,
	maxDelayMs: 60_000,
};

/** Statuses after which a read may be repeated. */
const RETRYABLE_STATUSES = new Set([408, 409, 425, 429, 500, 502, 503, 504]);

/** Connection failures after which the gateway may or may not have seen the request. */
const TRANSIENT_NETWORK_CODES = new Set([
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

type GatewayContext =
	| IExecuteFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| ITriggerFunctions
	| IWebhookFunctions;

interface CredentialShape {
	url: string;
	secret: string;
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
	return { url: credential.baseUrl, secret: credential.apiKey };
}

export function joinUrl(base: string, path: string): string {
	return `${base.trim().replace(/\/+$/, '')}${path.startsWith('/') ? path : `/${path}`}`;
}

/** Removes a secret, and anything that looks like a bearer token, from text meant for people. */
export function redactSecret(text: string, secret: string): string {
	let redacted = text.replace(/Bearer\s+[^\s"',]+/gi, 'Bearer ***');
	if (secret.length >= 4) redacted = redacted.split(secret).join('***');
	return redacted;
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

/** The gateway's own words for a failure, whatever envelope it used. */
export function gatewayErrorMessage(body: unknown): string | undefined {
	if (typeof body === 'string') return body.trim() === '' ? undefined : body.trim().slice(0, 500);
	if (!body || typeof body !== 'object') return undefined;
	const record = body as Record<string, unknown>;
	const error = record.error;
	if (error && typeof error === 'object') {
		const message = (error as Record<string, unknown>).message;
		if (typeof message === 'string' && message !== '') return message;
	}
	if (typeof error === 'string' && error !== '') return error;
	for (const key of ['message', 'error_message', 'msg']) {
		const value = record[key];
		if (typeof value === 'string' && value !== '') return value;
	}
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

interface NetworkFailure {
	code: string;
	message: string;
}

function asNetworkFailure(error: unknown): NetworkFailure {
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
	const credential = await readCredential(context, host);
	const traceId =
		host === 'base' ? (request.traceId?.trim() ? request.traceId.trim() : randomUUID()) : undefined;
	const signal =
		'getExecutionCancelSignal' in context ? context.getExecutionCancelSignal() : undefined;
	const options: IHttpRequestOptions = {
		method: request.method,
		url: joinUrl(credential.url, request.path),
		headers: {
			Accept: request.stream ? 'text/event-stream' : 'application/json',
			...(traceId ? { 'X-Trace-ID': traceId } : {}),
		},
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		timeout: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		...(request.stream ? { encoding: 'stream' as const } : { json: true }),
		...(request.body !== undefined ? { body: request.body as IDataObject } : {}),
		...(signal ? { abortSignal: signal } : {}),
	};
	const credentialType = host === 'identity' ? ASSET_REVIEW_CREDENTIAL : GATEWAY_CREDENTIAL;
	const describe = `${request.method} ${request.path}`;

	for (let attempt = 0; ; attempt++) {
		let raw: { body: unknown; statusCode: number; headers: unknown };
		try {
			raw = (await context.helpers.httpRequestWithAuthentication.call(
				context,
				credentialType,
				options,
			)) as typeof raw;
		} catch (error) {
			const failure = asNetworkFailure(error);
			if (isCancelled(failure, signal))
				throw apiError(context, request, 'The execution was cancelled', credential.secret, {
					code: 'CANCELLED',
				});
			const retryable =
				request.kind === 'read'
					? TRANSIENT_NETWORK_CODES.has(failure.code)
					: NEVER_SENT_NETWORK_CODES.has(failure.code);
			if (retryable && attempt < retryPolicy.maxRetries) {
				await sleep(backoffMs(retryPolicy, attempt));
				continue;
			}
			const timedOut = failure.code === 'ECONNABORTED' || /timeout/i.test(failure.message);
			const reason = timedOut
				? `The gateway did not answer ${describe} within ${Math.round((request.timeoutMs ?? DEFAULT_TIMEOUT_MS) / 1000)} s`
				: `The gateway could not be reached for ${describe} (${failure.code})`;
			const notRepeated =
				request.kind === 'create' && !NEVER_SENT_NETWORK_CODES.has(failure.code)
					? ' It was not sent again, because the gateway may already have received it and repeating it could bill twice; check the gateway before retrying.'
					: '';
			throw apiError(context, request, reason, credential.secret, {
				code: failure.code,
				description: `${redactSecret(failure.message, credential.secret)}.${notRepeated}`,
			});
		}

		const headers = lowerCaseHeaders(raw.headers);
		if (raw.statusCode >= 400) {
			const body = request.stream ? await readStreamText(raw.body) : raw.body;
			const waitMs = retryAfterMs(headers) ?? backoffMs(retryPolicy, attempt);
			if (
				request.kind === 'read' &&
				RETRYABLE_STATUSES.has(raw.statusCode) &&
				attempt < retryPolicy.maxRetries &&
				waitMs <= retryPolicy.maxDelayMs
			) {
				await sleep(waitMs);
				continue;
			}
			const message = gatewayErrorMessage(body) ?? `The gateway answered HTTP ${raw.statusCode}`;
			throw apiError(context, request, message, credential.secret, {
				httpCode: String(raw.statusCode),
				body,
				description: `HTTP ${raw.statusCode} from ${describe}${traceId ? ` (X-Trace-ID ${traceId})` : ''}`,
			});
		}

		if (!request.stream && typeof raw.body === 'string' && raw.body.trim() !== '') {
			throw apiError(
				context,
				request,
				'The gateway answered with a body that is not valid JSON',
				credential.secret,
				{
					description: `${describe} returned: ${raw.body.slice(0, 200)}`,
					httpCode: String(raw.statusCode),
				},
			);
		}

		const failure = request.stream ? undefined : request.businessFailure?.(raw.body);
		if (failure) {
			throw apiError(context, request, failure.message, credential.secret, {
				code: failure.code,
				body: raw.body,
				description: `${describe} answered HTTP ${raw.statusCode} with error code ${failure.code}${traceId ? ` (X-Trace-ID ${traceId})` : ''}`,
			});
		}

		return { body: raw.body as TBody, statusCode: raw.statusCode, headers, traceId };
	}
}

function backoffMs(policy: RetryPolicy, attempt: number): number {
	return Math.min(policy.baseDelayMs * 2 ** attempt, policy.maxDelayMs);
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

function apiError(
	context: GatewayContext,
	request: GatewayRequest,
	message: string,
	secret: string,
	details: { httpCode?: string; code?: string; body?: unknown; description?: string },
): NodeApiError {
	const safeMessage = redactSecret(message, secret);
	const response: JsonObject = {
		message: safeMessage,
		...(details.code ? { code: details.code } : {}),
		...(details.body && typeof details.body === 'object'
			? { body: JSON.parse(redactSecret(JSON.stringify(details.body), secret)) as JsonObject }
			: {}),
	};
	const error = new NodeApiError(context.getNode(), response, {
		message: safeMessage,
		description: details.description ? redactSecret(details.description, secret) : undefined,
		httpCode: details.httpCode,
		itemIndex: request.itemIndex,
	});
	// NodeApiError replaces messages of well-known HTTP codes with generic text; the
	// gateway's own words are what the user needs.
	error.message = safeMessage;
	return error;
}

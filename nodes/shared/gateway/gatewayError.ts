import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/**
 * The one way gateway text leaves the package: every NodeApiError built from the gateway's
 * words (HTTP errors, business errors, in-stream errors) is made here, with the credential's
 * secret and bearer tokens redacted from every value (message, description, nested body
 * fields), long pre-signed URLs shortened, and HTML error pages reduced to a readable title.
 */

const REDACTED = '***';
const BEARER_TOKEN = /Bearer\s+[^\s"',]+/gi;
/** A URL with a query string: the query (signatures, tokens) is dropped for display. */
const URL_WITH_QUERY = /\b(https?:\/\/[^\s"'<>?#]+)\?[^\s"'<>]*/gi;

/** Redacts secrets from text and from every string inside a JSON-like value. */
export interface Redactor {
	text(text: string): string;
	/** A deep copy with every string redacted (keys too); structure and JSON validity stay. */
	value<T>(value: T): T;
}

export function createRedactor(secrets: ReadonlyArray<string | undefined>): Redactor {
	// Shorter "secrets" would redact ordinary words; a real key is never that short.
	const known = secrets.filter((secret): secret is string => !!secret && secret.length >= 4);
	const text = (input: string): string => {
		// The known secrets first: a token pattern could cut one in half and hide it from the split.
		let redacted = input;
		for (const secret of known) redacted = redacted.split(secret).join(REDACTED);
		return redacted.replace(BEARER_TOKEN, `Bearer ${REDACTED}`);
	};
	const value = <T>(input: T): T => redactValue(input, text) as T;
	return { text, value };
}

function redactValue(input: unknown, text: (value: string) => string): unknown {
	if (typeof input === 'string') return text(input);
	if (Array.isArray(input)) return input.map((entry) => redactValue(entry, text));
	if (input !== null && typeof input === 'object') {
		const copy: Record<string, unknown> = {};
		for (const [key, entry] of Object.entries(input as Record<string, unknown>)) {
			copy[text(key)] = redactValue(entry, text);
		}
		return copy;
	}
	return input;
}

/** Keeps host and path of URLs with a query (pre-signed links), drops the query. */
export function shortenSignedUrls(text: string): string {
	return text.replace(URL_WITH_QUERY, '$1?…');
}

/** Whether a text body is an HTML page, as a proxy in front of the gateway sends. */
export function isHtml(text: string): boolean {
	return /^\s*<(!doctype\s+html|html[\s>]|head[\s>]|body[\s>])/i.test(text);
}

/** The readable text of an HTML page: tags, scripts and styles removed, space collapsed. */
export function htmlText(html: string, maxLength = 300): string {
	const text = html
		.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
		.replace(/<[^>]+>/g, ' ')
		.replace(/&nbsp;/g, ' ')
		.replace(/&amp;/g, '&')
		.replace(/&lt;/g, '<')
		.replace(/&gt;/g, '>')
		.replace(/\s+/g, ' ')
		.trim();
	return text.length > maxLength ? `${text.slice(0, maxLength)}…` : text;
}

/** Reason phrases of the statuses a gateway or its proxy answers with. */
const STATUS_TEXT: Record<number, string> = {
	400: 'Bad Request',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	408: 'Request Timeout',
	409: 'Conflict',
	413: 'Payload Too Large',
	422: 'Unprocessable Entity',
	429: 'Too Many Requests',
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

/** "The gateway answered HTTP 502 Bad Gateway". */
export function httpStatusTitle(statusCode: number): string {
	const reason = STATUS_TEXT[statusCode];
	return `The gateway answered HTTP ${statusCode}${reason ? ` ${reason}` : ''}`;
}

export interface GatewayErrorDetails {
	/** The gateway's own words (or ours when it gave none). */
	message: string;
	description?: string;
	httpCode?: string;
	code?: string;
	/** The gateway's answer, kept for the error's details. */
	body?: unknown;
	itemIndex?: number;
	/** Who answered an HTTP failure, and how (see HttpAnswer); kept in the error's context. */
	answer?: HttpAnswer;
}

/**
 * What answered a request that failed over HTTP: its status, its content type, and whether its
 * body speaks the gateway's error envelope. A proxy in front of the gateway (a deploy's 404 page,
 * a 502 with nothing in it) does not: its refusal says nothing about the task asked for.
 */
export interface HttpAnswer {
	statusCode: number;
	/** The media type without parameters (`text/html`), or '' when none was sent. */
	contentType: string;
	body: 'json' | 'html' | 'text' | 'empty';
	/** True when the body is the gateway's error envelope, in its own words (isGatewayEnvelope). */
	fromGateway: boolean;
	/** The credential's Base URL, without user info, query or fragment: safe to show. */
	baseUrl: string;
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
 * Whether a parsed body is the gateway's error envelope: a JSON object whose words
 * gatewayErrorMessage finds (`error` with a message, `error_message`, `msg`, or `message`). A bare
 * `message` counts only beside the gateway's `code`: `{"message": "Not Found"}` is what many
 * proxies answer. An HTML page, an empty body, plain text, an array, or an object without such
 * members is someone else's answer.
 */
export function isGatewayEnvelope(body: unknown): boolean {
	if (!body || typeof body !== 'object' || Array.isArray(body)) return false;
	const { message, ...rest } = body as Record<string, unknown>;
	const hasCode = typeof rest.code === 'string' || typeof rest.code === 'number';
	return gatewayErrorMessage(hasCode ? { ...rest, message } : rest) !== undefined;
}

function bodyKind(body: unknown): HttpAnswer['body'] {
	if (body === undefined || body === null) return 'empty';
	if (typeof body !== 'string') return 'json';
	if (body.trim() === '') return 'empty';
	return isHtml(body) ? 'html' : 'text';
}

/** The answer's facts, for an HTTP failure's error (see HttpAnswer). */
export function httpAnswer(
	statusCode: number,
	contentType: string | undefined,
	body: unknown,
	baseUrl: string,
): HttpAnswer {
	return {
		statusCode,
		contentType: (contentType ?? '').split(';')[0].trim().toLowerCase(),
		body: bodyKind(body),
		fromGateway: isGatewayEnvelope(body),
		baseUrl: displayedBaseUrl(baseUrl),
	};
}

/** A Base URL as it may be shown: no user info, query or fragment (where a key could hide). */
export function displayedBaseUrl(baseUrl: string): string {
	try {
		const url = new URL(baseUrl.trim());
		return `${url.origin}${url.pathname}`;
	} catch {
		return '(not a valid URL)';
	}
}

/** The facts of the answer an HTTP failure's error was made from, when it was one. */
export function httpAnswerOf(error: unknown): HttpAnswer | undefined {
	if (!(error instanceof NodeApiError)) return undefined;
	const answer = (error.context as { httpAnswer?: unknown }).httpAnswer;
	return answer && typeof answer === 'object' ? (answer as HttpAnswer) : undefined;
}

/** The NodeApiError for a gateway failure; nothing in it can carry a secret. */
export function gatewayApiError(
	node: INode,
	details: GatewayErrorDetails,
	redactor: Redactor,
): NodeApiError {
	const readable = (text: string) => shortenSignedUrls(redactor.text(text));
	const message = readable(details.message);
	const description = details.description !== undefined ? readable(details.description) : '';
	const body =
		details.body !== undefined && details.body !== null && typeof details.body === 'object'
			? (redactor.value(details.body) as JsonObject)
			: undefined;
	const response: JsonObject = {
		message,
		...(details.code ? { code: details.code } : {}),
		...(body ? { body } : {}),
	};
	const error = new NodeApiError(node, response, {
		message,
		description: description || undefined,
		httpCode: details.httpCode,
		itemIndex: details.itemIndex,
	});
	// NodeApiError replaces messages of well-known HTTP and network codes with n8n's generic
	// text ("You can retry the request immediately", ...); the gateway's words are what the
	// user needs, and our own text already says whether repeating is safe.
	error.message = message;
	error.messages = [];
	error.description = description || null;
	if (details.answer) error.context.httpAnswer = { ...details.answer };
	return error;
}

/**
 * Reads a callback body. Callbacks are JSON objects: a body declared as another content type
 * (a form, text, XML) is refused with 415 before anything is read; a body without a content
 * type is parsed from its raw bytes. n8n has usually parsed JSON already (and answered 422
 * itself for broken JSON sent as application/json).
 */

export const DEFAULT_MAX_BODY_KB = 1024;

export interface CallbackRequest {
	/** What n8n parsed (`getBodyData()`): an object for JSON, a string for text/plain, `{}` otherwise. */
	parsedBody: unknown;
	/** The bytes as received (`getRequestObject().rawBody`), when n8n read them. */
	rawBody?: Buffer;
	contentLength?: string;
	contentType?: string;
}

export type BodyReading =
	| { ok: true; body: Record<string, unknown>; size: number }
	| { ok: false; statusCode: 400 | 413 | 415; reason: string };

/** `application/json`, or a JSON-based type such as `application/problem+json`. */
function isJsonType(contentType: string): boolean {
	const type = contentType.split(';')[0].trim().toLowerCase();
	return type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type);
}

export function readCallbackBody(request: CallbackRequest, maxBodyKb: number): BodyReading {
	if (request.contentType && !isJsonType(request.contentType)) {
		return {
			ok: false,
			statusCode: 415,
			reason: `The callback body is ${request.contentType.split(';')[0].trim()}; this trigger accepts JSON (application/json)`,
		};
	}
	const limit = Math.max(1, maxBodyKb) * 1024;
	const declared = Number(request.contentLength);
	const size = request.rawBody?.length ?? (Number.isFinite(declared) ? declared : 0);
	if (size > limit) {
		return {
			ok: false,
			statusCode: 413,
			reason: `The callback body has ${size} bytes, more than the ${limit} bytes this trigger accepts (option Max Body Size)`,
		};
	}
	let body: unknown = request.parsedBody;
	if (!isObject(body) || Object.keys(body).length === 0) {
		const text =
			typeof body === 'string' && body !== '' ? body : (request.rawBody?.toString('utf8') ?? '');
		if (text.trim() === '') {
			return {
				ok: false,
				statusCode: 400,
				reason: 'The callback body is empty: a JSON object was expected',
			};
		}
		try {
			body = JSON.parse(text) as unknown;
		} catch {
			return { ok: false, statusCode: 400, reason: 'The callback body is not valid JSON' };
		}
	}
	if (!isObject(body)) {
		return { ok: false, statusCode: 400, reason: 'The callback body is not a JSON object' };
	}
	return { ok: true, body, size };
}

function isObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Reads a callback body. Callbacks are JSON objects: a body declared as another content type
 * (a form, text, XML) is refused with 415 before anything is read; a body without a content
 * type is parsed from its raw bytes. n8n has usually parsed JSON already (and answered 422
 * itself for broken JSON sent as application/json). For trigger version 2 n8n reads only the
 * content types it parses, so a body without one (or `application/…+json`) is read here from the
 * request, no further than the size limit.
 */

export const DEFAULT_MAX_BODY_KB = 1024;

export interface CallbackRequest {
	/** What n8n parsed (`getBodyData()`): an object for JSON, a string for text/plain, `{}` otherwise. */
	parsedBody: unknown;
	/** The bytes as received (`getRequestObject().rawBody`), when n8n read them. */
	rawBody?: Buffer;
	/** The request itself, read here when n8n left the body unread (no `rawBody`). */
	unread?: AsyncIterable<Buffer | string>;
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

export async function readCallbackBody(
	request: CallbackRequest,
	maxBodyKb: number,
): Promise<BodyReading> {
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
	let rawBody = request.rawBody;
	if (rawBody === undefined && request.unread !== undefined) {
		rawBody = await readAtMost(request.unread, limit);
		if (rawBody === undefined) {
			return {
				ok: false,
				statusCode: 413,
				reason: `The callback body has more than the ${limit} bytes this trigger accepts (option Max Body Size)`,
			};
		}
	}
	let body: unknown = request.parsedBody;
	if (!isObject(body) || Object.keys(body).length === 0) {
		const text = typeof body === 'string' && body !== '' ? body : (rawBody?.toString('utf8') ?? '');
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
	return { ok: true, body, size: rawBody?.length ?? size };
}

/** The bytes of a body, or undefined as soon as they pass `limit` (the rest is not read). */
async function readAtMost(
	source: AsyncIterable<Buffer | string>,
	limit: number,
): Promise<Buffer | undefined> {
	const chunks: Buffer[] = [];
	let length = 0;
	for await (const chunk of source) {
		const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
		length += bytes.length;
		if (length > limit) return undefined;
		chunks.push(bytes);
	}
	return Buffer.concat(chunks, length);
}

function isObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Reads a callback body. n8n has usually parsed JSON already (and answered 422 itself for
 * broken JSON sent as application/json); other content types arrive unparsed or as text,
 * so the raw bytes are parsed here. Callbacks are JSON objects; anything else is refused.
 */

export const DEFAULT_MAX_BODY_KB = 1024;

export interface CallbackRequest {
	/** What n8n parsed (`getBodyData()`): an object for JSON, a string for text/plain, `{}` otherwise. */
	parsedBody: unknown;
	/** The bytes as received (`getRequestObject().rawBody`), when n8n read them. */
	rawBody?: Buffer;
	contentLength?: string;
}

export type BodyReading =
	| { ok: true; body: Record<string, unknown>; size: number }
	| { ok: false; statusCode: 400 | 413; reason: string };

export function readCallbackBody(request: CallbackRequest, maxBodyKb: number): BodyReading {
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

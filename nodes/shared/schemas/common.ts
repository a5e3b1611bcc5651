import { z } from 'zod';

import { isBase64, parseDataUri, rawBase64 } from '../media/base64Text';
import { tryParseJsonText } from '../items/jsonText';

/** Building blocks shared by the operation schemas. Messages name the limit they enforce. */

/**
 * `stream_options` only with `stream: true`: OpenAI-compatible upstreams refuse it otherwise
 * (the simulator README's upstream notes). Shared by chat completions and responses.
 */
export function refuseStreamOptionsWithoutStream(
	request: { stream?: boolean; stream_options?: unknown },
	context: z.RefinementCtx,
): void {
	if (request.stream_options !== undefined && request.stream !== true) {
		context.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['stream_options'],
			message: 'is only allowed when streaming',
		});
	}
}

export const requiredText = (what: string) =>
	z
		.string({ required_error: `${what} is required`, invalid_type_error: `${what} must be text` })
		.trim()
		.min(1, `${what} is required and must not be empty`);

export const numberInRange = (min: number, max: number) =>
	z
		.number({ invalid_type_error: 'must be a number' })
		.min(min, `must be between ${min} and ${max} (got a smaller value)`)
		.max(max, `must be between ${min} and ${max} (got a larger value)`);

export const integerAtLeast = (min: number) =>
	z
		.number({ invalid_type_error: 'must be a number' })
		.int('must be a whole number')
		.min(min, `must be at least ${min}`);

export const jsonObject = z.record(z.string(), z.unknown(), {
	invalid_type_error: 'must be a JSON object',
});

export const jsonObjectList = z.array(jsonObject, {
	invalid_type_error: 'must be a JSON array of objects',
});

export const listAtMost = <T extends z.ZodTypeAny>(item: T, max: number) =>
	z
		.array(item, { invalid_type_error: 'must be a list' })
		.max(max, `must have at most ${max} entries`);

/**
 * Accepts a value as JSON text too (n8n JSON parameters arrive as strings): text that parses
 * is replaced by the parsed value; text that looks like JSON (starts with `{` or `[`) but does
 * not parse is refused with the parser's position, never passed on as a string.
 */
export const fromJsonText = <T extends z.ZodTypeAny>(schema: T) =>
	z.preprocess((value, context) => {
		if (typeof value !== 'string') return value;
		const text = value.trim();
		if (!text.startsWith('{') && !text.startsWith('[')) return value;
		const parsed = tryParseJsonText(text);
		if (parsed.ok) return parsed.value;
		// Fatal: the field's own schema has nothing to say about text that is not JSON.
		context.addIssue({
			code: z.ZodIssueCode.custom,
			message: `is not valid JSON: ${parsed.problem}`,
			fatal: true,
		});
		return z.NEVER;
	}, schema);

/**
 * For fields where plain text is a value of its own (a Responses input, a stop word): JSON
 * text is parsed when it parses, any other text stays text.
 */
export const textOrJsonText = <T extends z.ZodTypeAny>(schema: T) =>
	z.preprocess((value) => {
		if (typeof value !== 'string') return value;
		const text = value.trim();
		if (!text.startsWith('{') && !text.startsWith('[')) return value;
		const parsed = tryParseJsonText(text);
		return parsed.ok ? parsed.value : value;
	}, schema);

/*
 * Media fields: what the spec types as a URL, as "URL or Base64", or as Base64 is checked
 * here before sending, so the gateway is never the first to say no. Messages show at most
 * the start of a bad value: Base64 can be megabytes long.
 */

const SHOWN_CHARACTERS = 60;

/** The shortest bare Base64 taken as media where a URL could also be meant. */
const MIN_BARE_BASE64 = 16;

function shown(text: string): string {
	return text.length > SHOWN_CHARACTERS ? `"${text.slice(0, SHOWN_CHARACTERS)}…"` : `"${text}"`;
}

/** Why `text` is not an absolute http(s) URL, or undefined when it is one. */
export function httpUrlProblem(text: string): string | undefined {
	if (/^data:/i.test(text)) return `must be an http or https URL, not a data: URI`;
	let url: URL;
	try {
		url = new URL(text);
	} catch {
		return `must be a full http or https URL (got ${shown(text)}, which is not an absolute URL)`;
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return `must be an http or https URL (got the ${url.protocol.replace(/:$/, '')}: scheme in ${shown(text)})`;
	}
	if (url.hostname === '')
		return `must be a full http or https URL with a host (got ${shown(text)})`;
	return undefined;
}

/** A media text field: trimmed, not empty, and free of the `problem` the check finds. */
const mediaText = (expected: string, problem: (text: string) => string | undefined) =>
	z
		.string({
			required_error: `is required: give ${expected}`,
			invalid_type_error: `must be text (${expected})`,
		})
		.trim()
		.superRefine((text, context) => {
			const found = text === '' ? `must not be empty: give ${expected}` : problem(text);
			if (found) context.addIssue({ code: z.ZodIssueCode.custom, message: found });
		});

/** "http(s) URL": an absolute http or https address; relative paths and other schemes are refused. */
export const httpUrl = () => mediaText('an http or https URL', httpUrlProblem);

/** How a field that takes Base64 wants it: bare (`raw`), or as pasted, data: URIs included. */
export type Base64Form = 'raw' | 'dataUriAllowed';

/** Normalizes pasted Base64: line breaks dropped; a data: URI reduced to its payload for `raw`. */
const pastedBase64 = (form: Base64Form) => (value: unknown) => {
	if (typeof value !== 'string') return value;
	const text = value.trim();
	if (form === 'raw') return rawBase64(text);
	const dataUri = parseDataUri(text);
	return dataUri ? `${text.slice(0, text.indexOf(',') + 1)}${dataUri.base64}` : rawBase64(text);
};

/** "Base64": raw Base64; a pasted `data:...;base64,` URI is converted to its payload, not refused. */
export const base64Data = () =>
	z.preprocess(
		pastedBase64('raw'),
		mediaText('Base64 data', (text) =>
			isBase64(text)
				? undefined
				: `must be Base64 data (letters, digits, +, / and = padding); got ${shown(text)}`,
		),
	);

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

function urlOrBase64Problem(text: string): string | undefined {
	const dataUri = parseDataUri(text);
	if (!dataUri && HAS_SCHEME.test(text)) {
		return /^data:/i.test(text)
			? `must be an http or https URL or Base64 data; a data: URI must have the form data:<type>;base64,<data> (got ${shown(text)})`
			: httpUrlProblem(text);
	}
	// Bare Base64 this short is a relative path or a typo, not media.
	if (isBase64(dataUri?.base64 ?? text, dataUri ? 4 : MIN_BARE_BASE64)) return undefined;
	return `must be an http or https URL or Base64 data (got ${shown(text)}, which is neither: a relative path or a host without http:// or https:// is not a URL)`;
}

/**
 * "URL or Base64": an http(s) URL, or Base64. With `raw`, a pasted data: URI is converted to
 * its bare payload (for upstreams that take only that); with `dataUriAllowed` it is kept.
 */
export const urlOrBase64 = (form: Base64Form) =>
	z.preprocess(
		(value) =>
			typeof value === 'string' && /^\s*https?:/i.test(value) ? value : pastedBase64(form)(value),
		mediaText('an http or https URL or Base64 data', urlOrBase64Problem),
	);

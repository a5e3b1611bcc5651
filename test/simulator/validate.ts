/**
 * Loose request validation, the way a real gateway checks bodies: each check returns an
 * Issue or undefined, and each family turns the first Issue into its own error shape.
 * Optional fields set to null count as absent (OpenAI-style gateways accept that).
 */

export type JsonObject = Record<string, unknown>;

export interface Issue {
	/** The offending field, dotted for nested ones; null when the body itself is wrong. */
	param: string | null;
	message: string;
}

export function isRecord(value: unknown): value is JsonObject {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isString(value: unknown): value is string {
	return typeof value === 'string';
}

export function isHttpUrl(value: string): boolean {
	try {
		const url = new URL(value);
		return url.protocol === 'http:' || url.protocol === 'https:';
	} catch {
		return false;
	}
}

/**
 * An http(s) URL whose host is not local or private (loopback, RFC 1918, link-local, unique
 * local IPv6, `localhost`): the gateway must be able to fetch it from the internet.
 */
export function isPublicHttpUrl(value: string): boolean {
	if (!isHttpUrl(value)) return false;
	const host = new URL(value).hostname.toLowerCase().replace(/^\[|\]$/g, '');
	if (host === 'localhost' || host.endsWith('.localhost')) return false;
	const octets = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(host)?.slice(1).map(Number);
	if (octets !== undefined) {
		const [a, b] = octets;
		return !(
			a === 0 ||
			a === 10 ||
			a === 127 ||
			(a === 169 && b === 254) ||
			(a === 172 && b >= 16 && b <= 31) ||
			(a === 192 && b === 168) ||
			(a === 100 && b >= 64 && b <= 127)
		);
	}
	if (host.includes(':'))
		return !(host === '::' || host === '::1' || /^f[cd]|^fe[89ab]/.test(host));
	return true;
}

export function firstIssue(...checks: Array<Issue | undefined>): Issue | undefined {
	return checks.find((check): check is Issue => check !== undefined);
}

export function notAnObject(): Issue {
	return { param: null, message: 'The request body must be a JSON object.' };
}

function absent(value: unknown): boolean {
	return value === undefined || value === null;
}

export function requiredString(body: JsonObject, key: string): Issue | undefined {
	const value = body[key];
	if (absent(value)) return { param: key, message: `Missing required parameter: '${key}'.` };
	if (typeof value !== 'string')
		return { param: key, message: `Invalid type for '${key}': expected a string.` };
	if (value.trim() === '') return { param: key, message: `'${key}' must not be empty.` };
	return undefined;
}

export function optionalString(body: JsonObject, key: string): Issue | undefined {
	const value = body[key];
	if (absent(value) || typeof value === 'string') return undefined;
	return { param: key, message: `Invalid type for '${key}': expected a string.` };
}

export function optionalBoolean(body: JsonObject, key: string): Issue | undefined {
	const value = body[key];
	if (absent(value) || typeof value === 'boolean') return undefined;
	return { param: key, message: `Invalid type for '${key}': expected a boolean.` };
}

export function optionalObject(body: JsonObject, key: string): Issue | undefined {
	const value = body[key];
	if (absent(value) || isRecord(value)) return undefined;
	return { param: key, message: `Invalid type for '${key}': expected an object.` };
}

export interface NumberRule {
	min?: number;
	max?: number;
	integer?: boolean;
}

export function optionalNumber(
	body: JsonObject,
	key: string,
	rule: NumberRule = {},
): Issue | undefined {
	const value = body[key];
	if (absent(value)) return undefined;
	if (typeof value !== 'number' || !Number.isFinite(value)) {
		return { param: key, message: `Invalid type for '${key}': expected a number.` };
	}
	if (rule.integer === true && !Number.isInteger(value)) {
		return { param: key, message: `Invalid type for '${key}': expected an integer.` };
	}
	if (rule.min !== undefined && value < rule.min) {
		return { param: key, message: `'${key}' must be >= ${rule.min}, got ${value}.` };
	}
	if (rule.max !== undefined && value > rule.max) {
		return { param: key, message: `'${key}' must be <= ${rule.max}, got ${value}.` };
	}
	return undefined;
}

export function optionalOneOf(
	body: JsonObject,
	key: string,
	allowed: ReadonlyArray<string | number>,
): Issue | undefined {
	const value = body[key];
	if (absent(value)) return undefined;
	if ((typeof value === 'string' || typeof value === 'number') && allowed.includes(value))
		return undefined;
	return {
		param: key,
		message: `'${key}' must be one of ${allowed.map((a) => JSON.stringify(a)).join(', ')}.`,
	};
}

export interface ArrayRule {
	min?: number;
	max?: number;
	items?: 'string' | 'object';
}

export function optionalArray(
	body: JsonObject,
	key: string,
	rule: ArrayRule = {},
): Issue | undefined {
	const value = body[key];
	if (absent(value)) return undefined;
	if (!Array.isArray(value))
		return { param: key, message: `Invalid type for '${key}': expected an array.` };
	if (rule.min !== undefined && value.length < rule.min) {
		return { param: key, message: `'${key}' must have at least ${rule.min} element(s).` };
	}
	if (rule.max !== undefined && value.length > rule.max) {
		return {
			param: key,
			message: `'${key}' must have at most ${rule.max} element(s), got ${value.length}.`,
		};
	}
	const badIndex = value.findIndex((item) =>
		rule.items === 'string'
			? typeof item !== 'string'
			: rule.items === 'object'
				? !isRecord(item)
				: false,
	);
	if (badIndex >= 0) {
		return {
			param: `${key}[${badIndex}]`,
			message: `Invalid type for '${key}[${badIndex}]': expected ${rule.items === 'string' ? 'a string' : 'an object'}.`,
		};
	}
	return undefined;
}

export function requiredArray(
	body: JsonObject,
	key: string,
	rule: ArrayRule = {},
): Issue | undefined {
	if (absent(body[key])) return { param: key, message: `Missing required parameter: '${key}'.` };
	return optionalArray(body, key, rule);
}

export function optionalHttpUrl(body: JsonObject, key: string): Issue | undefined {
	const value = body[key];
	if (absent(value)) return undefined;
	if (typeof value === 'string' && isHttpUrl(value)) return undefined;
	return { param: key, message: `'${key}' must be an http or https URL.` };
}

// Readers for fields of an already validated body.

export function stringField(body: JsonObject, key: string): string | undefined {
	const value = body[key];
	return typeof value === 'string' ? value : undefined;
}

export function numberField(body: JsonObject, key: string): number | undefined {
	const value = body[key];
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function booleanField(body: JsonObject, key: string): boolean | undefined {
	const value = body[key];
	return typeof value === 'boolean' ? value : undefined;
}

export function recordField(body: JsonObject, key: string): JsonObject | undefined {
	const value = body[key];
	return isRecord(value) ? value : undefined;
}

export function arrayField(body: JsonObject, key: string): unknown[] {
	const value = body[key];
	return Array.isArray(value) ? value : [];
}

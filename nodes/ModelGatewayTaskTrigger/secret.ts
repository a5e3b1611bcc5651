import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The callback secret. The spec documents no signature on callbacks and the URL must be
 * public, so the secret is the only thing that tells the gateway's calls from anyone else's.
 */

/** Where the caller presents the secret. */
export type SecretLocation = 'path' | 'query';

/** The query parameter (and header) that carry the secret in `query` mode. */
export const SECRET_QUERY_PARAMETER = 'secret';
export const SECRET_HEADER = 'x-callback-secret';

/** The webhook path segment in `query` mode, where the secret is not part of the path. */
export const QUERY_MODE_PATH = 'callback';

/** The webhook's path (after n8n's `<webhookId>/`): the secret, or `callback` in `query` mode. */
export const WEBHOOK_PATH = `={{ $parameter["secretLocation"] === "query" ? "${QUERY_MODE_PATH}" : $parameter["secret"] }}`;

/**
 * The same path computed from the node's parameters, for n8n 2.x: a webhook description may
 * carry resolvers under this key (n8n-workflow's `WEBHOOK_RESOLVERS`), which n8n uses instead of
 * evaluating the template when the node's parameters hold no expression. The default secret
 * (the node's id) is an expression, so only a typed secret is resolved this way.
 */
export const WEBHOOK_RESOLVERS = Symbol.for('n8n.webhookDescriptionResolvers');

export function webhookPath(parameters: Record<string, unknown>): string | undefined {
	if (parameters.secretLocation === 'query') return QUERY_MODE_PATH;
	return typeof parameters.secret === 'string' ? parameters.secret : undefined;
}

/**
 * Compares two secrets in constant time. Both sides are hashed first so that neither the
 * content nor the length of the expected secret leaks through timing.
 */
export function secretsMatch(presented: string, expected: string): boolean {
	const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
	return timingSafeEqual(digest(presented), digest(expected)) && expected !== '';
}

export type SecretCheck = { ok: true } | { ok: false; statusCode: 401 | 403; reason: string };

/**
 * Checks the secret a request presents. In `path` mode n8n only routes requests whose path
 * carries the secret, so the path segment is compared again here as a second line (it also
 * catches a secret changed while an old registration is still live). In `query` mode the
 * secret comes as `?secret=` or the X-Callback-Secret header.
 */
export function checkSecret(
	location: SecretLocation,
	expected: string,
	request: { pathSecret?: string; querySecret?: unknown; headerSecret?: unknown },
): SecretCheck {
	if (expected.trim() === '') {
		return { ok: false, statusCode: 403, reason: 'The trigger has no secret configured' };
	}
	const presented =
		location === 'path'
			? request.pathSecret
			: (firstString(request.querySecret) ?? firstString(request.headerSecret));
	if (presented === undefined || presented === '') {
		return { ok: false, statusCode: 401, reason: 'The callback secret is missing' };
	}
	return secretsMatch(presented, expected)
		? { ok: true }
		: { ok: false, statusCode: 403, reason: 'The callback secret is wrong' };
}

function firstString(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
	return undefined;
}

/** The last path segment of a request URL (without the query), decoded. */
export function lastPathSegment(url: string | undefined): string | undefined {
	if (!url) return undefined;
	const path = url.split('?')[0].replace(/\/+$/, '');
	const segment = path.slice(path.lastIndexOf('/') + 1);
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

import { createHash, timingSafeEqual } from 'node:crypto';

import { CALLBACK_SECRET_PARAMETER } from '../shared/callbacks/callbackSecret';

/**
 * The callback secret. The spec documents no signature on callbacks and the URL must be
 * public, so the secret is the only thing that tells the gateway's calls from anyone else's.
 */

/**
 * Where the secret comes from and how the caller presents it: a typed secret as the URL's last
 * path segment (`path`) or as `?secret=` / a header (`query`), or the secret made from the
 * credential (`credential`), presented like `query`.
 */
export type SecretLocation = 'path' | 'query' | 'credential';

/** The query parameter (and header) that carry the secret in `query` and `credential` mode. */
export const SECRET_QUERY_PARAMETER = CALLBACK_SECRET_PARAMETER;
export const SECRET_HEADER = 'x-callback-secret';

/** The webhook path segment when the secret is not part of the path. */
export const QUERY_MODE_PATH = 'callback';

/** The webhook's path (after n8n's `<webhookId>/`): the typed secret, or `callback`. */
export const WEBHOOK_PATH = `={{ $parameter["secretLocation"] === "path" ? $parameter["secret"] : "${QUERY_MODE_PATH}" }}`;

/**
 * The same path computed from the node's parameters, for n8n 2.x: a webhook description may
 * carry resolvers under this key (n8n-workflow's `WEBHOOK_RESOLVERS`), which n8n uses instead of
 * evaluating the template when the node's parameters hold no expression. The default secret
 * (the node's id) is an expression, so only a typed secret is resolved this way.
 */
export const WEBHOOK_RESOLVERS = Symbol.for('n8n.webhookDescriptionResolvers');

export function webhookPath(parameters: Record<string, unknown>): string | undefined {
	if (parameters.secretLocation !== 'path') return QUERY_MODE_PATH;
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
 * catches a secret changed while an old registration is still live). In `query` and
 * `credential` mode the secret comes as `?secret=` or the X-Callback-Secret header. The
 * expected secret is asked for only once one was presented: in `credential` mode that is a
 * credential read, which an anonymous request does not get to cause.
 */
export async function checkSecret(
	location: SecretLocation,
	expected: () => string | Promise<string>,
	request: { pathSecret?: string; querySecret?: unknown; headerSecret?: unknown },
): Promise<SecretCheck> {
	const presented =
		location === 'path'
			? request.pathSecret
			: (firstString(request.querySecret) ?? firstString(request.headerSecret));
	if (presented === undefined || presented === '') {
		return { ok: false, statusCode: 401, reason: 'The callback secret is missing' };
	}
	const secret = await expected();
	if (secret.trim() === '') {
		return { ok: false, statusCode: 403, reason: 'The trigger has no secret configured' };
	}
	return secretsMatch(presented, secret)
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

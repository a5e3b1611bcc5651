import { CALLBACK_PATH_SEGMENT } from './callbackSecret';

/**
 * Whether a Callback URL is one of this n8n's own Task Callback Triggers: the only address the
 * secret made from the credential may be sent to. There is one such secret per API key, and it
 * opens every trigger that makes its secret from that key, so a URL a table row or a request
 * cell names (issue 54) must not carry it anywhere else.
 *
 * n8n builds a trigger's Production (and test) URL from its webhook base URL (WEBHOOK_URL, which
 * n8n hands every node as `getInstanceBaseUrl()`, on 1.x and 2.x) and the webhook's path, which
 * for a Task Callback Trigger whose secret is not in the path is `<webhook id>/callback`
 * (`<base>webhook/<uuid>/callback`). A URL is taken as this n8n's own trigger when it has the
 * base URL's origin (scheme, host, port), lies under its path, and ends in `/<uuid>/callback`.
 */

/** n8n's webhook ids: the UUIDs the editor gives every webhook node. */
const WEBHOOK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function parsedUrl(value: string): URL | undefined {
	try {
		return new URL(value.trim());
	} catch {
		return undefined;
	}
}

/** Why the URL is not one of this n8n's Task Callback Triggers, or undefined when it is. */
export function notOwnTriggerReason(
	callbackUrl: string,
	instanceBaseUrl: string,
): string | undefined {
	const url = parsedUrl(callbackUrl);
	if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
		return 'it is not an http or https URL';
	}
	const base = parsedUrl(instanceBaseUrl);
	if (base === undefined) return `this n8n's webhook address ("${instanceBaseUrl}") is not a URL`;
	if (url.origin !== base.origin) {
		return `it points at ${url.origin}, not at this n8n (${base.origin})`;
	}
	const basePath = base.pathname.endsWith('/') ? base.pathname : `${base.pathname}/`;
	const segments = url.pathname.startsWith(basePath)
		? url.pathname.slice(basePath.length).split('/')
		: [];
	const [webhookId, last] = segments.slice(-2);
	if (segments.length < 3 || last !== CALLBACK_PATH_SEGMENT || !WEBHOOK_ID.test(webhookId)) {
		return `its path is not a Task Callback Trigger's (${base.origin}${basePath}webhook/<webhook id>/${CALLBACK_PATH_SEGMENT})`;
	}
	return undefined;
}

import { createHmac } from 'node:crypto';

/**
 * The callback secret made from the credential (a Task Callback Trigger set to "Made From the
 * Credential", a Video create with "Add Callback Secret"). The gateway signs no callback and
 * the trigger's URL is public, so a secret in the URL is what tells the gateway's calls from
 * anyone else's. Made from the API key with a keyed hash, it is as secret as the key (192 bits),
 * needs nothing typed, and lives only where n8n keeps credentials: nodes add it at the moment
 * they send or check a URL, so no node output, URL the editor shows or log line carries it.
 * Rotating the key rotates it.
 */

/** The query parameter that carries a callback secret. */
export const CALLBACK_SECRET_PARAMETER = 'secret';

/**
 * The last path segment of a Task Callback Trigger's URL whenever its secret is not in the path
 * (always, for a secret made from the credential): `<webhook base>/<webhookId>/callback`.
 */
export const CALLBACK_PATH_SEGMENT = 'callback';

/** What the key is hashed with: names this use, so the value serves no other purpose. */
const PURPOSE = 'n8n-nodes-model-gateway/task-callback-secret/v1';

/** 32 base64url characters: 192 bits. */
const SECRET_LENGTH = 32;

/**
 * Why no secret is made from an empty key: its keyed hash is the same on every install, so
 * anyone could compute it (issue 54).
 */
export const EMPTY_KEY_PROBLEM =
	"The Model Gateway credential's API Key is empty, and a secret made from an empty key is the same on every n8n: anyone could compute it";

/** Whether a secret may be made from this key: one that is not empty (or only spaces). */
export function canMakeCallbackSecret(apiKey: unknown): apiKey is string {
	return typeof apiKey === 'string' && apiKey.trim() !== '';
}

export function deriveCallbackSecret(apiKey: string): string {
	if (!canMakeCallbackSecret(apiKey)) throw new Error(EMPTY_KEY_PROBLEM);
	return createHmac('sha256', apiKey).update(PURPOSE).digest('base64url').slice(0, SECRET_LENGTH);
}

/** The URL with the secret as its `secret` query parameter (replacing one it had). */
export function withCallbackSecret(url: string, secret: string): string {
	const parsed = new URL(url);
	parsed.searchParams.set(CALLBACK_SECRET_PARAMETER, secret);
	return parsed.toString();
}

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

/** What the key is hashed with: names this use, so the value serves no other purpose. */
const PURPOSE = 'n8n-nodes-model-gateway/task-callback-secret/v1';

/** 32 base64url characters: 192 bits. */
const SECRET_LENGTH = 32;

export function deriveCallbackSecret(apiKey: string): string {
	return createHmac('sha256', apiKey).update(PURPOSE).digest('base64url').slice(0, SECRET_LENGTH);
}

/** The URL with the secret as its `secret` query parameter (replacing one it had). */
export function withCallbackSecret(url: string, secret: string): string {
	const parsed = new URL(url);
	parsed.searchParams.set(CALLBACK_SECRET_PARAMETER, secret);
	return parsed.toString();
}

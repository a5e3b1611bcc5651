import type { IExecuteFunctions } from 'n8n-workflow';

import { withCallbackSecret } from '../../shared/callbacks/callbackSecret';
import { notOwnTriggerReason } from '../../shared/callbacks/ownTriggerUrl';
import { callbackSecretOf } from '../../shared/gateway/transport';
import { itemInputError } from '../../shared/items/errors';
import { nodeOfRun } from '../../shared/items/itemParameters';
import type { CreateRequest } from '../../shared/tasks';

/**
 * The option Add Callback Secret: the secret made from the credential goes into a create's
 * `callback_url` only when that URL is a Task Callback Trigger of this n8n (ownTriggerUrl.ts),
 * and only when the key can make one (not empty).
 *
 * Any other URL fails its item while the batch is checked, before anything is sent, rather than
 * being sent without the secret: a create is billed, and one whose callbacks the trigger then
 * refuses (a URL meant for this n8n under another name) loses them without a word, while a
 * failed item loses nothing paid and says why. The secret never leaves either way. Under
 * Continue On Fail only that item fails; the others are created.
 */

function callbackUrlOf(body: CreateRequest['body']): string | undefined {
	const url = (body as Record<string, unknown>).callback_url;
	return typeof url === 'string' && url.trim() !== '' ? url.trim() : undefined;
}

/** Fails the item when its callback URL may not carry the secret. Sends nothing. */
export async function checkCallbackSecretTarget(
	context: IExecuteFunctions,
	body: CreateRequest['body'],
	itemIndex: number,
): Promise<void> {
	const url = callbackUrlOf(body);
	if (url === undefined) return;
	const reason = notOwnTriggerReason(url, context.getInstanceBaseUrl());
	if (reason !== undefined) {
		throw itemInputError(
			nodeOfRun(context),
			itemIndex,
			`"Add Callback Secret" adds the secret only to a Task Callback Trigger of this n8n, and the Callback URL (callback_url) is none: ${reason}. The secret would leave this n8n`,
			"Use the Production URL of a Task Callback Trigger of this n8n whose Secret is Made From the Credential, or turn Add Callback Secret off for other addresses. If this n8n receives webhooks at another address than its trigger shows, set n8n's WEBHOOK_URL to it.",
		);
	}
	try {
		await callbackSecretOf(context);
	} catch (error) {
		throw itemInputError(
			nodeOfRun(context),
			itemIndex,
			`"Add Callback Secret": ${(error as Error).message}`,
			"Put the gateway's API key into the Model Gateway credential, or turn Add Callback Secret off.",
		);
	}
}

/**
 * The body with the callback secret added to its `callback_url`, at the last moment: the
 * validated request and every output keep the URL as the workflow gave it.
 */
export async function withSecretInCallbackUrl(
	context: IExecuteFunctions,
	body: CreateRequest['body'],
): Promise<CreateRequest['body']> {
	const url = callbackUrlOf(body);
	if (url === undefined) return body;
	// Checked again here, so no path to this function can send the secret elsewhere.
	if (notOwnTriggerReason(url, context.getInstanceBaseUrl()) !== undefined) {
		throw new Error('The callback URL is no Task Callback Trigger of this n8n');
	}
	const secret = await callbackSecretOf(context);
	return { ...(body as Record<string, unknown>), callback_url: withCallbackSecret(url, secret) };
}

import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { EMPTY_KEY_PROBLEM, canMakeCallbackSecret } from '../shared/callbacks/callbackSecret';
import { GATEWAY_CREDENTIAL } from '../shared/gateway/transport';
import { PARAMETERS } from './description';
import { visibleSecretSource, visibleSecretWarning } from './visibleSecret';

/**
 * n8n's webhook lifecycle, for a callback URL that travels with each request: the gateway has
 * no registration API (the URL is sent as `callback_url` with every create), so there is
 * nothing to create, look up or delete on the gateway's side. What activation can still do is
 * refuse settings under which every callback would be refused: an unusable secret, or a secret
 * made from the credential, or Confirm with the Gateway, without the credential; refuse a secret
 * made from an empty API key (anyone could compute it); and warn in n8n's log about a typed
 * secret n8n shows (the node's or the workflow's id, see visibleSecret.ts).
 */

/** Letters, digits, "-" and "_": the secret is a URL path segment or query value. */
export const SECRET_PATTERN = /^[A-Za-z0-9_-]+$/;

type LifecycleContext = IHookFunctions | IWebhookFunctions;

async function checkSettings(context: LifecycleContext): Promise<void> {
	if (context.getNodeParameter(PARAMETERS.secretLocation, 'path') === 'credential') {
		const credential = await requireCredential(context, 'the secret is made from it');
		if (!canMakeCallbackSecret(credential.apiKey)) {
			throw new NodeOperationError(context.getNode(), EMPTY_KEY_PROBLEM, {
				description:
					'Put the gateway\'s API key into the Model Gateway credential, or set Secret to a typed secret (24 or more random letters, digits, "-" and "_"), then activate (publish) the workflow again.',
			});
		}
		return;
	}
	const secret = String(context.getNodeParameter(PARAMETERS.secret, '')).trim();
	if (!SECRET_PATTERN.test(secret)) {
		throw new NodeOperationError(
			context.getNode(),
			secret === ''
				? '"Secret" is empty: every callback would be refused'
				: '"Secret" may only hold letters, digits, "-" and "_"',
			{ description: 'Set a secret, then activate (publish) the workflow again.' },
		);
	}
	const shown = visibleSecretSource(context.getNode(), context.getWorkflow().id, secret);
	if (shown !== undefined) {
		context.logger.warn(visibleSecretWarning(context.getNode(), shown), {
			node: context.getNode().name,
			workflowId: context.getWorkflow().id,
		});
	}
	if (context.getNodeParameter(PARAMETERS.confirm, false) === true) {
		await requireCredential(context, 'Confirm with the Gateway queries the gateway with it');
	}
}

async function requireCredential(
	context: LifecycleContext,
	why: string,
): Promise<{ apiKey?: unknown }> {
	if (context.getNode().credentials?.modelGatewayApi === undefined) {
		throw new NodeOperationError(context.getNode(), `Select a Model Gateway credential: ${why}`, {
			description:
				'Pick the credential the Model Gateway Video node uses, then activate (publish) the workflow again.',
		});
	}
	return await context.getCredentials<{ apiKey?: unknown }>(GATEWAY_CREDENTIAL);
}

export const callbackLifecycle = {
	default: {
		/** Nothing is registered remotely, so there is never a registration to find. */
		async checkExists(this: IHookFunctions): Promise<boolean> {
			return false;
		},
		/** "Registering" is n8n serving the path; before that, the settings are checked. */
		async create(this: IHookFunctions): Promise<boolean> {
			await checkSettings(this);
			return true;
		},
		/** Nothing to remove remotely. The remembered events stay for the next activation. */
		async delete(this: IHookFunctions): Promise<boolean> {
			return true;
		},
	},
};

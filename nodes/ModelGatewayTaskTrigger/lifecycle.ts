import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { PARAMETERS } from './description';

/**
 * n8n's webhook lifecycle, for a callback URL that travels with each request: the gateway has
 * no registration API (the URL is sent as `callback_url` with every create), so there is
 * nothing to create, look up or delete on the gateway's side. What activation can still do is
 * refuse settings under which every callback would be refused: an unusable secret, or a secret
 * made from the credential, or Confirm with the Gateway, without the credential.
 */

/** Letters, digits, "-" and "_": the secret is a URL path segment or query value. */
export const SECRET_PATTERN = /^[A-Za-z0-9_-]+$/;

type LifecycleContext = IHookFunctions | IWebhookFunctions;

async function checkSettings(context: LifecycleContext): Promise<void> {
	if (context.getNodeParameter(PARAMETERS.secretLocation, 'path') === 'credential') {
		await requireCredential(context, 'the secret is made from it');
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
	if (context.getNodeParameter(PARAMETERS.confirm, false) === true) {
		await requireCredential(context, 'Confirm with the Gateway queries the gateway with it');
	}
}

async function requireCredential(context: LifecycleContext, why: string): Promise<void> {
	if (context.getNode().credentials?.modelGatewayApi === undefined) {
		throw new NodeOperationError(context.getNode(), `Select a Model Gateway credential: ${why}`, {
			description:
				'Pick the credential the Model Gateway Video node uses, then activate (publish) the workflow again.',
		});
	}
	await context.getCredentials('modelGatewayApi');
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

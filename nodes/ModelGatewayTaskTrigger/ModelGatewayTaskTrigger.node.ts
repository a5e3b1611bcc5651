import type {
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { credentialTest } from '../shared/gateway/credentialTests';
import { taskTriggerProperties } from './description';

import { callbackLifecycle } from './lifecycle';
import { receiveCallback } from './receive';
import { WEBHOOK_PATH, WEBHOOK_RESOLVERS, webhookPath } from './secret';

/**
 * Starts a workflow from gateway callbacks. The gateway takes the URL with each request
 * (`callback_url`), so the webhook lifecycle registers nothing remotely: activation checks the
 * trigger's settings (see lifecycle.ts) and n8n serves the path.
 */
export class ModelGatewayTaskTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Model Gateway Task Callback Trigger',
		name: 'modelGatewayTaskTrigger',
		icon: {
			light: 'file:modelGatewayTaskTrigger.svg',
			dark: 'file:modelGatewayTaskTrigger.dark.svg',
		},
		group: ['trigger'],
		// Version 2 reads the bodies n8n leaves unread itself, which spares n8n an expression
		// evaluation per callback (it asks version 1 webhooks for a binary-data option).
		// Version 3 makes its secret from the credential by default (see description.ts).
		version: [1, 2, 3],
		defaultVersion: 3,
		subtitle: '={{$parameter["events"] === "all" ? "Every status change" : "Final events only"}}',
		description:
			'Starts the workflow when the Model Gateway calls back about a video task or an asset review: once per task and status, with the normalized task (taskId, status, done, videoUrl, error) as output',
		defaults: { name: 'Model Gateway Task Callback' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		// Needed for a secret made from it, or to confirm callbacks. Not required: a typed secret
		// without confirmation needs none, and n8n's displayOptions cannot say "either" (n8n reads
		// the first entry of a credential type only). Activation asks for it when it is needed.
		credentials: [{ name: 'modelGatewayApi', required: false, testedBy: 'modelGatewayApiTest' }],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: WEBHOOK_PATH,
				// n8n 2.x resolves the path with this when the node's parameters hold no expression
				// (a typed secret) instead of its expression engine; other versions ignore it.
				[WEBHOOK_RESOLVERS]: { path: { template: WEBHOOK_PATH, resolve: webhookPath } },
			},
		],
		properties: taskTriggerProperties,
	};

	methods = { credentialTest };

	webhookMethods = callbackLifecycle;

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveCallback(this);
	}
}

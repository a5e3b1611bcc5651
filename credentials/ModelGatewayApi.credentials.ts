import type { IAuthenticateGeneric, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * Bearer API key for every operation on the gateway's base URL.
 */
export class ModelGatewayApi implements ICredentialType {
	name = 'modelGatewayApi';

	displayName = 'Model Gateway API';

	icon: Icon = {
		light: 'file:../nodes/shared/icons/modelGateway.svg',
		dark: 'file:../nodes/shared/icons/modelGateway.dark.svg',
	};

	documentationUrl =
		'https://github.com/model-gateway/n8n-nodes-model-gateway/blob/main/docs/nodes/credentials.md';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://api.model-gateway.example',
			placeholder: 'https://api.model-gateway.example',
			required: true,
			description:
				"The gateway's base URL as your provider gives it, without a path. A trailing slash is fine.",
		},
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Sent as "Authorization: Bearer <key>" on every call to the base URL',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	// Tested by the nodes (methods.credentialTest in nodes/shared/gateway/credentialTests.ts), which
	// tell a rejected token from an accepted token whose test request was refused.
}

import type { IAuthenticateGeneric, Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * Access token for the asset review operation, which lives on a separate identity host and
 * authenticates with X-Access-Token instead of a Bearer header.
 */
export class ModelGatewayAssetReviewApi implements ICredentialType {
	name = 'modelGatewayAssetReviewApi';

	displayName = 'Model Gateway Asset Review API';

	icon: Icon = {
		light: 'file:../nodes/shared/icons/modelGateway.svg',
		dark: 'file:../nodes/shared/icons/modelGateway.dark.svg',
	};

	documentationUrl =
		'https://github.com/model-gateway/n8n-nodes-model-gateway/blob/main/docs/nodes/credentials.md';

	properties: INodeProperties[] = [
		{
			displayName: 'Identity URL',
			name: 'identityUrl',
			type: 'string',
			default: 'https://identity.model-gateway.example',
			placeholder: 'https://identity.model-gateway.example',
			required: true,
			description: 'Address of the identity host that reviews assets. A trailing slash is fine.',
		},
		{
			displayName: 'Access Token',
			name: 'accessToken',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'Assigned by an administrator; sent as the X-Access-Token header',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				'X-Access-Token': '={{$credentials.accessToken}}',
			},
		},
	};

	// Tested by the nodes (methods.credentialTest in nodes/shared/gateway/credentialTests.ts), which
	// tell a rejected token from an accepted token whose test request was refused.
}

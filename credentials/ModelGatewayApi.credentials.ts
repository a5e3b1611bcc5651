import type {
	IAuthenticateRuleResponseCode,
	IAuthenticateRuleResponseSuccessBody,
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

import { CREDENTIAL_PROBE } from '../nodes/shared/tasks';

/** A rule for an authentication failure the gateway reports inside an HTTP 200 answer. */
function authenticationCodeRule(code: number): IAuthenticateRuleResponseSuccessBody {
	return {
		type: 'responseSuccessBody',
		properties: {
			key: CREDENTIAL_PROBE.codeKey,
			value: code,
			message: `Invalid API key: the gateway answered with authentication error code ${code}`,
		},
	};
}

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

	documentationUrl = 'https://github.com/model-gateway/n8n-nodes-model-gateway#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: 'https://api.model-gateway.example',
			placeholder: 'https://api.model-gateway.example',
			required: true,
			description:
				"Address of the gateway (the spec's {base_URL}), without a path. A trailing slash is fine.",
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

	// Querying a task that does not exist is a free read: a valid key gets an answer (a
	// "task not found"), an invalid key 401/403 or an authentication code inside HTTP 200.
	// A declarative test cannot run code, so which query and which codes come from the
	// family table (CREDENTIAL_PROBE); this file knows no family.
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.replace(/\\/+$/, "")}}',
			url: CREDENTIAL_PROBE.path,
			method: 'GET',
		},
		// n8n's credential tester checks every rule by its own type, so status-code and body
		// rules can be mixed; the declared type only allows one kind per list.
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'Invalid API key: the gateway answered 401 Unauthorized',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: 'API key not allowed: the gateway answered 403 Forbidden',
				},
			},
			...CREDENTIAL_PROBE.authenticationFailureCodes.map(authenticationCodeRule),
		] as Array<
			IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody
		> as IAuthenticateRuleResponseCode[],
	};
}

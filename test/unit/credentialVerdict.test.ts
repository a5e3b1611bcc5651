import type { ICredentialTestFunctions } from 'n8n-workflow';

import {
	credentialTest,
	credentialVerdict,
	GATEWAY_CREDENTIAL_TEST,
} from '../../nodes/shared/gateway/credentialTests';
import { CREDENTIAL_PROBE } from '../../nodes/shared/tasks';

/**
 * The credential Test buttons' verdicts on answers the engine tests (credentialTest.test.ts)
 * do not give: authentication codes with other words or none, rate limits, empty bodies, and
 * a probe that fails without an Error.
 */

const KEY = 'sk-unit-key';
const gatewayProbe = {
	host: 'gateway',
	secret: 'API key',
	authenticationCodes: CREDENTIAL_PROBE.authenticationFailureCodes,
};

describe('credential verdicts', () => {
	it('an authentication code inside HTTP 200 quotes the error message, redacted, when there is no message', () => {
		expect(
			credentialVerdict(
				gatewayProbe,
				{ statusCode: 200, body: { code: '1001', error_message: `key ${KEY} expired` } },
				KEY,
			),
		).toEqual({
			status: 'Error',
			message:
				'Invalid API key: the gateway answered with authentication error code 1001 (key *** expired)',
		});
	});

	it('an authentication code without any words has no empty brackets', () => {
		expect(credentialVerdict(gatewayProbe, { statusCode: 200, body: { code: 1003 } }, KEY)).toEqual(
			{
				status: 'Error',
				message: 'Invalid API key: the gateway answered with authentication error code 1003',
			},
		);
	});

	it('a rate limit means the key could not be checked', () => {
		expect(credentialVerdict(gatewayProbe, { statusCode: 429, body: undefined }, KEY)).toEqual({
			status: 'Error',
			message:
				'The API key could not be checked: the gateway answered HTTP 429 Too Many Requests. Try again later.',
		});
	});

	it('a success without a body accepts the key', () => {
		expect(credentialVerdict(gatewayProbe, { statusCode: 204, body: undefined }, KEY)).toEqual({
			status: 'OK',
			message: 'API key accepted',
		});
	});
});

describe('the gateway credential test', () => {
	it('a credential without data and a probe that fails with a plain string: not reached, and why', async () => {
		const context = {
			helpers: {
				request: async () => {
					// Some request libraries reject with a string rather than an Error.
					throw 'socket hang up';
				},
			},
		} as unknown as ICredentialTestFunctions;
		await expect(
			credentialTest[GATEWAY_CREDENTIAL_TEST].call(context, {
				id: 'c',
				name: 'no data',
				type: 'modelGatewayApi',
			}),
		).resolves.toEqual({
			status: 'Error',
			message: `The gateway could not be reached at ${CREDENTIAL_PROBE.path}: socket hang up`,
		});
	});
});

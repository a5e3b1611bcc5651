import { CredentialTestContext } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialTestFunction,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import type { Fault } from '../simulator';
import { closedPortUrl } from '../simulator';
import { packageNodeTypes } from './packageNodes';
import { useSimulator } from './simulatorFixture';

/**
 * The credentials' "Test" buttons, run as n8n runs them: the credential's test function is
 * found through a node's `testedBy` and called on n8n-core's own CredentialTestContext, whose
 * `request` helper sends the probe. They must tell a rejected token from an accepted token
 * whose test request was refused, and never show the token.
 */

const gateway = useSimulator();

/** The function n8n's credentials tester finds for a credential type: the first node naming it. */
function credentialTestFor(type: string): ICredentialTestFunction {
	for (const node of Object.values(packageNodeTypes)) {
		const declared = node.description.credentials?.find((credential) => credential.name === type);
		const testedBy = declared?.testedBy;
		if (typeof testedBy !== 'string') continue;
		const test = node.methods?.credentialTest?.[testedBy];
		if (test) return test;
	}
	throw new Error(`No node tests the credential ${type}`);
}

async function testCredential(
	type: 'modelGatewayApi' | 'modelGatewayAssetReviewApi',
	data: ICredentialDataDecryptedObject,
): Promise<INodeCredentialTestResult> {
	const context = new CredentialTestContext() as unknown as ICredentialTestFunctions;
	return await credentialTestFor(type).call(context, { id: 'c1', name: 'test', type, data });
}

/** A gateway answer for the probe, injected into the simulator. */
const answerTo =
	(method: string, path: string) =>
	(status: number, body: object): Fault => ({ method, path, kind: 'status', status, body });

const apiCredential = (overrides: ICredentialDataDecryptedObject = {}) => ({
	...gateway.credentials().modelGatewayApi,
	...overrides,
});
const reviewCredential = (overrides: ICredentialDataDecryptedObject = {}) => ({
	...gateway.credentials().modelGatewayAssetReviewApi,
	...overrides,
});

it('every node that uses a credential names its test, and the credentials declare none of their own', () => {
	for (const node of Object.values(packageNodeTypes)) {
		for (const credential of node.description.credentials ?? []) {
			expect(typeof credential.testedBy).toBe('string');
			expect(node.methods?.credentialTest?.[credential.testedBy as string]).toBeDefined();
		}
	}
});

describe('Model Gateway API credential', () => {
	const probePath = '/vendor-a/v1/videos/omni-video/';
	const answer = answerTo('GET', probePath);

	it('a good key passes, sent as a Bearer token on a free read', async () => {
		// The spec has no free read: the probe reads a task id the gateway cannot know.
		gateway.expectViolations('unknown-id');
		await expect(testCredential('modelGatewayApi', apiCredential())).resolves.toEqual({
			status: 'OK',
			message: 'API key accepted',
		});
		const [probe] = gateway.simulator.requestsTo('GET', probePath);
		expect(probe.headers.authorization).toBe(`Bearer ${gateway.simulator.apiKey}`);
	});

	it.each<[string, Fault | undefined, ICredentialDataDecryptedObject, INodeCredentialTestResult]>([
		[
			'a wrong key (401)',
			undefined,
			{ apiKey: 'not-the-key' },
			{ status: 'Error', message: 'Invalid API key: the gateway answered 401 Unauthorized' },
		],
		[
			'a key without access (403)',
			answer(403, { error: { message: 'forbidden' } }),
			{},
			{ status: 'Error', message: 'API key not allowed: the gateway answered 403 Forbidden' },
		],
		[
			'an authentication code inside HTTP 200',
			answer(200, { code: 1002, message: 'token expired' }),
			{},
			{
				status: 'Error',
				message:
					'Invalid API key: the gateway answered with authentication error code 1002 (token expired)',
			},
		],
		[
			'a validation error (400): the key was accepted',
			answer(400, { error: { message: 'task id malformed' } }),
			{},
			{
				status: 'OK',
				message:
					'API key accepted. (The gateway refused the test request itself with HTTP 400, which does not concern the API key.)',
			},
		],
		[
			'a business error inside HTTP 200 that is not about the key',
			answer(200, { code: 1201, message: 'task not found' }),
			{},
			{ status: 'OK', message: 'API key accepted' },
		],
		[
			'a 502 from a proxy',
			answer(502, '<html>bad gateway</html>' as unknown as object),
			{},
			{
				status: 'Error',
				message:
					'The API key could not be checked: the gateway answered HTTP 502 Bad Gateway. Try again later.',
			},
		],
	])('%s', async (_case, fault, overrides, expected) => {
		if (fault) gateway.simulator.injectFault(fault);
		else gateway.expectViolations('wrong-credential');
		await expect(testCredential('modelGatewayApi', apiCredential(overrides))).resolves.toEqual(
			expected,
		);
	});

	it('an unreachable gateway says so', async () => {
		const baseUrl = await closedPortUrl();
		const result = await testCredential('modelGatewayApi', apiCredential({ baseUrl }));
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(
			new RegExp(
				`^The gateway could not be reached at ${baseUrl}${probePath}n8n-credential-test: `,
			),
		);
	});

	it.each([401, 200])('never shows a key the gateway echoes (HTTP %i)', async (status) => {
		const key = gateway.simulator.apiKey;
		gateway.simulator.injectFault(
			answer(status, { code: 1000, message: `key ${key} rejected (Bearer ${key})` }),
		);
		const result = await testCredential('modelGatewayApi', apiCredential());
		expect(result.status).toBe('Error');
		expect(JSON.stringify(result)).not.toContain(key);
	});
});

describe('Model Gateway Asset Review API credential', () => {
	const reviewPath = '/api/overseas/asset/upload/sync';
	const answer = answerTo('POST', reviewPath);

	it('a good token passes although the empty review is refused, and nothing is reviewed', async () => {
		gateway.expectViolations('invalid-body');
		// The identity host answers the empty review with HTTP 400, as its docs say: the token
		// was accepted, only the probe itself was refused.
		await expect(testCredential('modelGatewayAssetReviewApi', reviewCredential())).resolves.toEqual(
			{
				status: 'OK',
				message:
					'Access token accepted. (The identity host refused the test request itself with HTTP 400, which does not concern the access token.)',
			},
		);
		const [probe] = gateway.simulator.requestsTo('POST', reviewPath);
		expect(probe.headers['x-access-token']).toBe(gateway.simulator.accessToken);
		expect(probe.body).toEqual({ images: [] });
	});

	it.each<[string, Fault | undefined, ICredentialDataDecryptedObject, INodeCredentialTestResult]>([
		[
			'a wrong token (401)',
			undefined,
			{ accessToken: 'not-the-token' },
			{
				status: 'Error',
				message: 'Invalid access token: the identity host answered 401 Unauthorized',
			},
		],
		[
			'an authentication code inside HTTP 200',
			answer(200, { code: 401, message: 'token unknown' }),
			{},
			{
				status: 'Error',
				message:
					'Invalid access token: the identity host answered with authentication error code 401 (token unknown)',
			},
		],
		[
			'a validation error (422): the token was accepted',
			answer(422, { message: 'images must not be empty' }),
			{},
			{
				status: 'OK',
				message:
					'Access token accepted. (The identity host refused the test request itself with HTTP 422, which does not concern the access token.)',
			},
		],
	])('%s', async (_case, fault, overrides, expected) => {
		if (fault) gateway.simulator.injectFault(fault);
		else gateway.expectViolations('wrong-credential');
		await expect(
			testCredential('modelGatewayAssetReviewApi', reviewCredential(overrides)),
		).resolves.toEqual(expected);
	});

	it('never shows a token the identity host echoes', async () => {
		const token = gateway.simulator.accessToken;
		gateway.simulator.injectFault(answer(200, { code: 403, message: `token ${token} denied` }));
		const result = await testCredential('modelGatewayAssetReviewApi', reviewCredential());
		expect(result).toEqual({
			status: 'Error',
			message:
				'Invalid access token: the identity host answered with authentication error code 403 (token *** denied)',
		});
	});
});

import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { createRedactor, httpStatusTitle } from './gatewayError';
import { ASSET_REVIEW_PATH } from '../schemas/assetReview';
import { CREDENTIAL_PROBE } from '../tasks';
import { joinUrl } from './transport';

/**
 * The credentials' "Test" buttons. A declarative credential test cannot tell "token rejected"
 * from "token accepted, but the test request itself was invalid": n8n reports any 4xx as a
 * failure. These node-level tests (INodeType.methods.credentialTest, named by each node's
 * `testedBy`) send one free request and read the answer:
 *
 * - 401 or 403, or the gateway's authentication error code inside HTTP 200: the token is
 *   rejected (Error).
 * - any other 4xx, or a business error inside HTTP 200: the token was accepted; the gateway
 *   only refused the probe itself (OK).
 * - 2xx: accepted (OK).
 * - 429, 5xx or no answer: the token could not be checked (Error, saying why).
 *
 * Nothing a gateway sends back is shown unredacted: the token never appears in a result.
 */

export const GATEWAY_CREDENTIAL_TEST = 'modelGatewayApiTest';
export const ASSET_REVIEW_CREDENTIAL_TEST = 'modelGatewayAssetReviewApiTest';

/** How long a credential test waits for the gateway. */
const TEST_TIMEOUT_MS = 20_000;

interface ProbeAnswer {
	statusCode: number;
	body: unknown;
	/** The origin a redirect names. */
	location?: string;
}

interface Probe {
	/** What the user calls the host in messages. */
	host: string;
	/** What the user calls the secret in messages. */
	secret: string;
	/** Body codes (inside HTTP 200) that mean the secret was rejected. */
	authenticationCodes: ReadonlyArray<number>;
}

const GATEWAY_PROBE: Probe = {
	host: 'gateway',
	secret: 'API key',
	authenticationCodes: CREDENTIAL_PROBE.authenticationFailureCodes,
};

// The review service reports problems in its own `code` envelope; 401/403 there, as in HTTP,
// mean the token.
const ASSET_REVIEW_PROBE: Probe = {
	host: 'identity host',
	secret: 'access token',
	authenticationCodes: [401, 403],
};

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The verdict on one probe answer; `secret` is redacted from anything the host said. */
export function credentialVerdict(
	probe: Probe,
	answer: ProbeAnswer,
	secret: string,
): INodeCredentialTestResult {
	const redact = createRedactor([secret]).text;
	const { statusCode } = answer;
	const body = (answer.body ?? {}) as Record<string, unknown>;
	const said = redact(text(body.message) || text(body.error_message)).slice(0, 200);
	const Secret = probe.secret.charAt(0).toUpperCase() + probe.secret.slice(1);
	if (statusCode === 401) {
		return {
			status: 'Error',
			message: `Invalid ${probe.secret}: the ${probe.host} answered 401 Unauthorized`,
		};
	}
	if (statusCode === 403) {
		return {
			status: 'Error',
			message: `${Secret} not allowed: the ${probe.host} answered 403 Forbidden`,
		};
	}
	const code = Number(body.code);
	if (statusCode < 300 && probe.authenticationCodes.includes(code)) {
		return {
			status: 'Error',
			message: `Invalid ${probe.secret}: the ${probe.host} answered with authentication error code ${code}${said ? ` (${said})` : ''}`,
		};
	}
	if (statusCode >= 300 && statusCode < 400) {
		// Not followed (sendProbe): the secret goes only to the URL typed into the credential.
		return {
			status: 'Error',
			message: `The ${probe.host} answered with a redirect (HTTP ${statusCode}${answer.location ? ` to ${answer.location}` : ''}); the ${probe.secret} is only sent to the URL typed here, so put the address it should reach into the credential`,
		};
	}
	if (statusCode === 429 || statusCode >= 500) {
		return {
			status: 'Error',
			message: `The ${probe.secret} could not be checked: ${httpStatusTitle(statusCode).replace('The gateway', `the ${probe.host}`)}. Try again later.`,
		};
	}
	if (statusCode >= 400) {
		return {
			status: 'OK',
			message: `${Secret} accepted. (The ${probe.host} refused the test request itself with HTTP ${statusCode}, which does not concern the ${probe.secret}.)`,
		};
	}
	return { status: 'OK', message: `${Secret} accepted` };
}

async function sendProbe(
	context: ICredentialTestFunctions,
	probe: Probe,
	request: { url: string; method: 'GET' | 'POST'; headers: Record<string, string>; body?: object },
	secret: string,
): Promise<INodeCredentialTestResult> {
	let answer: ProbeAnswer;
	try {
		// ICredentialTestFunctions offers only `request` (no httpRequest); `simple: false`
		// resolves every HTTP status instead of throwing, so the status can be read.
		const response = (await context.helpers.request({
			uri: request.url,
			method: request.method,
			headers: { Accept: 'application/json', ...request.headers },
			...(request.body ? { body: request.body } : {}),
			json: true,
			simple: false,
			resolveWithFullResponse: true,
			timeout: TEST_TIMEOUT_MS,
			// n8n's helper would otherwise re-send the secret's header wherever a redirect points.
			followRedirect: false,
			followAllRedirects: false,
		})) as { statusCode?: unknown; body?: unknown; headers?: Record<string, unknown> };
		const location = response.headers?.location;
		answer = {
			statusCode: Number(response.statusCode),
			body: response.body,
			...(typeof location === 'string' ? { location: redirectOrigin(location, request.url) } : {}),
		};
	} catch (error) {
		const reason = createRedactor([secret]).text((error as Error).message ?? String(error));
		return {
			status: 'Error',
			message: `The ${probe.host} could not be reached at ${request.url}: ${reason}`,
		};
	}
	return credentialVerdict(probe, answer, secret);
}

/** Only the origin a redirect names: its path and query may carry anything. */
function redirectOrigin(location: string, from: string): string {
	try {
		return new URL(location, from).origin;
	} catch {
		return 'an address that is not a URL';
	}
}

function field(credential: ICredentialsDecrypted, name: string): string {
	const data: ICredentialDataDecryptedObject = credential.data ?? {};
	return text(data[name]).trim();
}

/** The functions every node names in `testedBy`, for its `methods.credentialTest`. */
export const credentialTest = {
	/** A free read of a task that does not exist: a valid key gets "not found". */
	async [GATEWAY_CREDENTIAL_TEST](
		this: ICredentialTestFunctions,
		credential: ICredentialsDecrypted,
	): Promise<INodeCredentialTestResult> {
		const apiKey = field(credential, 'apiKey');
		return await sendProbe(
			this,
			GATEWAY_PROBE,
			{
				url: joinUrl(field(credential, 'baseUrl'), CREDENTIAL_PROBE.path),
				method: 'GET',
				headers: { Authorization: `Bearer ${apiKey}` },
			},
			apiKey,
		);
	},

	/** An empty review: it reviews and bills nothing; a valid token gets a validation answer. */
	async [ASSET_REVIEW_CREDENTIAL_TEST](
		this: ICredentialTestFunctions,
		credential: ICredentialsDecrypted,
	): Promise<INodeCredentialTestResult> {
		const accessToken = field(credential, 'accessToken');
		return await sendProbe(
			this,
			ASSET_REVIEW_PROBE,
			{
				url: joinUrl(field(credential, 'identityUrl'), ASSET_REVIEW_PATH),
				method: 'POST',
				headers: { 'X-Access-Token': accessToken },
				body: { images: [] },
			},
			accessToken,
		);
	},
};

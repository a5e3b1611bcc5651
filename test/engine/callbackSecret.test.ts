import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import {
	EMPTY_KEY_PROBLEM,
	deriveCallbackSecret,
} from '../../nodes/shared/callbacks/callbackSecret';
import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';
import { videoNode } from './videoNode';
import { postCallback, startWebhookHarness, type WebhookHarness } from './webhookHarness';

/**
 * The callback secret made from the credential, attacked (issue 54): a Callback URL a row names
 * gets no secret unless it is a Task Callback Trigger of this n8n; no secret is made from an
 * empty key; and a typed secret n8n shows (the node's or the workflow's id) is warned about when
 * the trigger is activated.
 */

const gateway = useSimulator({ queuedMs: 0, runningMs: 3_600_000 });
const NODE = 'Node Under Test';
const WEBHOOK_ID = 'c3c1a7e2-0d4b-4b8e-a1f6-0e0f0e0f0e01';

let harness: WebhookHarness | undefined;
let elsewhere: Server;
let elsewhereUrl: string;
const arrivals: string[] = [];

beforeAll(async () => {
	elsewhere = createServer((request, response) => {
		arrivals.push(request.url ?? '');
		response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
	});
	await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
	elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await new Promise((resolve) => elsewhere.close(resolve));
});
afterEach(async () => {
	await harness?.close();
	harness = undefined;
	arrivals.length = 0;
});

async function ownTrigger(): Promise<WebhookHarness> {
	harness = await startWebhookHarness({
		parameters: {},
		credentials: gateway.credentials() as never,
		webhookId: WEBHOOK_ID,
	});
	return harness;
}

/** A sheet of Task family S rows whose request cells name their own callback URLs. */
function rowsCallingBack(urls: string[]) {
	return urls.map((url, row) => ({
		json: {
			family: 'taskS',
			model: 'video-s-1',
			request: { content: [{ type: 'text', text: `row ${row}` }], callback_url: url },
		} as IDataObject,
	}));
}

const createFromRows = (continueOnFail: boolean) =>
	videoNode(
		'fromItem',
		'create',
		{ model: '={{ $json.model }}', options: { addCallbackSecret: true } },
		{ continueOnFail },
	);

describe('Add Callback Secret: only this n8n’s own Task Callback Trigger gets the secret', () => {
	const foreign: Array<[string, (own: WebhookHarness) => string]> = [
		['another origin', () => `${elsewhereUrl}/webhook/${WEBHOOK_ID}/callback?row=1`],
		[
			'this host under another scheme',
			(own) => `${own.baseUrl.replace('http:', 'https:')}/webhook/${WEBHOOK_ID}/callback`,
		],
		['this n8n, but no trigger path', (own) => `${own.baseUrl}/webhook/${WEBHOOK_ID}/steal`],
		['this n8n, a path without a webhook id', (own) => `${own.baseUrl}/webhook/x/callback`],
	];

	it.each(foreign)(
		'a row’s callback_url at %s fails that row before anything is sent; no secret reaches the gateway or the address',
		async (_, address) => {
			const own = await ownTrigger();
			const made = deriveCallbackSecret(gateway.simulator.apiKey);
			const ownUrl = `${own.url}?row=0`;
			const result = await runNode(createFromRows(true), {
				credentials: gateway.credentials(),
				instanceBaseUrl: `${own.baseUrl}/`,
				input: rowsCallingBack([ownUrl, address(own)]),
			});

			expect(result.error(NODE)).toBeUndefined();
			expect(result.items[0].json.taskId).toEqual(expect.any(String));
			expect(result.items[1].json.error).toMatch(
				/^Item 1: "Add Callback Secret" adds the secret only to a Task Callback Trigger of this n8n, and the Callback URL \(callback_url\) is none: .+\. The secret would leave this n8n$/,
			);
			expect(result.items[1].json.errorDescription).toContain('Nothing was sent to the gateway.');
			// One create, for the own trigger's row, with the secret; the foreign row sent nothing.
			const creates = gateway.simulator.requestsTo('POST', '/v1/task/create');
			expect(creates.map((create) => (create.body as IDataObject).callback_url)).toEqual([
				`${ownUrl}&secret=${made}`,
			]);
			const carrying = gateway.simulator.requests.filter((request) =>
				JSON.stringify(request).includes(made),
			);
			expect(carrying).toEqual(creates);
			expect(
				gateway.simulator.callbacks.every((callback) => callback.url.startsWith(own.url)),
			).toBe(true);
			expect(arrivals).toEqual([]);
			expect(JSON.stringify(result.run.data)).not.toContain(made);
		},
	);

	it('without Continue On Fail, such a row stops the batch before its first create', async () => {
		const own = await ownTrigger();
		const result = await runNode(createFromRows(false), {
			credentials: gateway.credentials(),
			instanceBaseUrl: `${own.baseUrl}/`,
			input: rowsCallingBack([own.url, `${elsewhereUrl}/webhook/${WEBHOOK_ID}/callback`]),
		});
		expect(result.error(NODE)?.message).toBe(
			`Item 1: "Add Callback Secret" adds the secret only to a Task Callback Trigger of this n8n, and the Callback URL (callback_url) is none: it points at ${elsewhereUrl}, not at this n8n (${own.baseUrl}). The secret would leave this n8n`,
		);
		expect(gateway.simulator.requests).toEqual([]);
	});

	it('a Callback URL parameter (not a row) pointing elsewhere is refused the same way', async () => {
		const own = await ownTrigger();
		const result = await runNode(
			videoNode('familyA', 'create', {
				model: 'a-video',
				familyAPrompt: 'a fox',
				familyAOptions: { aspect_ratio: '16:9', callback_url: `${elsewhereUrl}/hook` },
				options: { addCallbackSecret: true },
			}),
			{ credentials: gateway.credentials(), instanceBaseUrl: `${own.baseUrl}/` },
		);
		expect(result.error(NODE)?.message).toMatch(
			/^Item 0: "Add Callback Secret" .* \(callback_url\)/,
		);
		expect(gateway.simulator.requests).toEqual([]);
	});
});

/** What anyone can compute for an empty key: the package's own hash of the empty string. */
const EMPTY_KEY_SECRET = createHmac('sha256', '')
	.update('n8n-nodes-model-gateway/task-callback-secret/v1')
	.digest('base64url')
	.slice(0, 32);

describe('no secret is made from an empty API key', () => {
	it('the trigger refuses to activate, and refuses the empty key’s secret', async () => {
		harness = await startWebhookHarness({
			parameters: {},
			credentials: gateway.credentials({ apiKey: '' }) as never,
		});
		await expect(harness.activate()).rejects.toThrow(EMPTY_KEY_PROBLEM);
		const answer = await postCallback(`${harness.url}?secret=${EMPTY_KEY_SECRET}`, {
			id: 'cgt-forged',
			status: 'succeeded',
			content: { video_url: 'https://cdn.example/forged.mp4' },
		});
		expect(answer.status).toBe(403);
		await harness.settled();
		expect(harness.executions).toEqual([]);
		expect(harness.warnings.map((warning) => warning.message)).toContainEqual(
			expect.stringContaining(EMPTY_KEY_PROBLEM),
		);
	});

	it('with a key, the same trigger activates', async () => {
		harness = await startWebhookHarness({
			parameters: {},
			credentials: gateway.credentials() as never,
		});
		await expect(harness.activate()).resolves.toBeUndefined();
		expect(harness.warnings).toEqual([]);
	});

	it('the Video node adds no secret made from an empty key: the item fails, nothing is sent', async () => {
		const own = await ownTrigger();
		const result = await runNode(
			videoNode('taskS', 'create', {
				model: 'video-s-1',
				taskSContent: { items: [{ type: 'text', text: 'a cat' }] },
				taskSOptions: { callback_url: own.url },
				options: { addCallbackSecret: true },
			}),
			{ credentials: gateway.credentials({ apiKey: '' }), instanceBaseUrl: `${own.baseUrl}/` },
		);
		expect(result.error(NODE)?.message).toBe(`Item 0: "Add Callback Secret": ${EMPTY_KEY_PROBLEM}`);
		expect(gateway.simulator.requests).toEqual([]);
	});
});

describe('a typed secret n8n shows is warned about at activation', () => {
	const shown: Array<[number, string | undefined, RegExp]> = [
		[1, '={{ $workflow.id }}', /its Secret is the workflow's ID/],
		[2, '={{ $workflow.id }}', /its Secret is the workflow's ID/],
		[1, undefined, /its Secret is the node's ID/],
		[2, '={{ $nodeId }}', /its Secret is the node's ID/],
	];

	it.each(shown)(
		'version %i with the secret %p: activates, and n8n’s log says what to replace',
		async (typeVersion, secret, what) => {
			harness = await startWebhookHarness({
				parameters: secret === undefined ? {} : { secret },
				typeVersion,
			});
			await expect(harness.activate()).resolves.toBeUndefined();
			expect(harness.warnings.map((warning) => warning.message)).toEqual([
				expect.stringMatching(what),
			]);
			expect(harness.warnings[0].message).toContain(
				'Replace it: set Secret to Made From the Credential',
			);
			expect(harness.warnings[0].message).toContain('"Task Callback"');
		},
	);

	it('a typed random secret activates without a warning', async () => {
		harness = await startWebhookHarness({
			parameters: { secret: 'q7Rr2xW9vKp4LmN8sT3yZb6H' },
			typeVersion: 2,
		});
		await expect(harness.activate()).resolves.toBeUndefined();
		expect(harness.warnings).toEqual([]);
	});
});

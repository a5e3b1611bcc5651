import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { CredentialTestContext } from 'n8n-core';
import type { ICredentialTestFunctions, IDataObject } from 'n8n-workflow';

import { runNode, type WorkflowNodeSpec } from './harness';
import { packageNodeTypes } from './packageNodes';
import { useSimulator } from './simulatorFixture';
import { videoNode } from './videoNode';

/**
 * The key stays with its base URL: a gateway (or a proxy, or a hostile network in front of a
 * plain-http base URL) that answers with a redirect to another origin must not get the
 * credential sent there. The simulator's redirect mode points every request at a listener of
 * our own, which records whatever reaches it: nothing may.
 */

const gateway = useSimulator({ queuedMs: 0, runningMs: 3_600_000 });
const NODE = 'Node Under Test';

interface Arrival {
	url: string;
	headers: IncomingHttpHeaders;
}

let elsewhere: Server;
let elsewhereUrl: string;
const arrivals: Arrival[] = [];

beforeAll(async () => {
	elsewhere = createServer((req, res) => {
		arrivals.push({ url: req.url ?? '', headers: req.headers });
		res.writeHead(200, { 'content-type': 'application/json' });
		res.end('{}');
	});
	await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
	elsewhereUrl = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
});
afterAll(async () => {
	await new Promise((resolve) => elsewhere.close(resolve));
});
beforeEach(() => {
	arrivals.length = 0;
});

async function runningTask(): Promise<IDataObject> {
	const created = await runNode(
		videoNode('generic', 'create', { model: 'g-video', genericPrompt: 'a fox' }),
		{ credentials: gateway.credentials() },
	);
	expect(created.error(NODE)).toBeUndefined();
	// Created a minute ago, as far as the nodes can tell: its first check is due.
	return { ...created.items[0].json, createdAt: new Date(Date.now() - 60_000).toISOString() };
}

const nodes: Array<{ name: string; node: (task: IDataObject) => WorkflowNodeSpec; input?: true }> =
	[
		{
			name: 'Chat (a create)',
			node: () => ({
				type: 'modelGatewayChat',
				parameters: {
					model: 'chat-model-1',
					messages: { values: [{ role: 'user', content: 'hello' }] },
				},
			}),
		},
		{
			name: 'Responses, streamed',
			node: () => ({
				type: 'modelGatewayResponses',
				parameters: { model: 'resp-model-1', input: 'hello', options: { stream: true } },
			}),
		},
		{
			name: 'Video create',
			node: () => videoNode('generic', 'create', { model: 'g-video', genericPrompt: 'a fox' }),
		},
		{
			name: 'Video Get Status (a read)',
			node: () => videoNode('generic', 'getStatus'),
			input: true,
		},
		{
			name: 'Wait for Task (a read)',
			node: () => ({ type: 'modelGatewayWaitForTask', parameters: { mode: 'checkOnce' } }),
			input: true,
		},
		{
			name: 'Image Edit',
			node: () => ({
				type: 'modelGatewayImageEdit',
				parameters: {
					model: 'image-edit-1',
					prompt: 'Make the sky purple',
					images: { values: [{ source: 'url', url: 'https://example.com/photo.png' }] },
				},
			}),
		},
		{
			name: 'Asset Review (the identity host)',
			node: () => ({
				type: 'modelGatewayAssetReview',
				parameters: {
					urlSource: 'list',
					assetUrls: { values: [{ url: 'https://cdn.example/ok.png' }] },
				},
			}),
		},
	];

describe('a redirect to another origin', () => {
	it.each(nodes)(
		'$name: reported, not followed; nothing reaches the other origin',
		async ({ node, input }) => {
			const task = input ? await runningTask() : undefined;
			gateway.simulator.setOptions({ redirectTo: elsewhereUrl });
			const result = await runNode(node(task ?? {}), {
				credentials: gateway.credentials(),
				...(task ? { input: [{ json: task }] } : {}),
			});
			const error = result.error(NODE);
			expect(error?.message).toMatch(
				new RegExp(
					`with a redirect \\(HTTP 307 to ${elsewhereUrl.replace(/\./g, '\\.')}\\), which was not followed$`,
				),
			);
			expect(error?.description).toContain('The credential is only sent to its own URL');
			expect(arrivals).toEqual([]);
			expect(gateway.simulator.requests.length).toBeGreaterThan(0);
		},
	);

	it('the credential tests report it without following it', async () => {
		gateway.simulator.setOptions({ redirectTo: elsewhereUrl });
		const context = new CredentialTestContext() as unknown as ICredentialTestFunctions;
		const credentials = gateway.credentials();
		for (const [type, testedBy] of [
			['modelGatewayApi', 'modelGatewayApiTest'],
			['modelGatewayAssetReviewApi', 'modelGatewayAssetReviewApiTest'],
		] as const) {
			const test =
				packageNodeTypes.modelGatewayChat.methods?.credentialTest?.[testedBy] ??
				packageNodeTypes.modelGatewayAssetReview.methods?.credentialTest?.[testedBy];
			const verdict = await test!.call(context, {
				id: 'c',
				name: 't',
				type,
				data: credentials[type],
			});
			expect(verdict.status).toBe('Error');
			expect(verdict.message).toContain(`redirect (HTTP 307 to ${elsewhereUrl})`);
		}
		expect(arrivals).toEqual([]);
	});
});

describe('a redirect within the gateway', () => {
	it('a read follows it, with the key, to the same origin', async () => {
		const task = await runningTask();
		const path = `/v1/videos/${String(task.taskId)}`;
		gateway.simulator.injectFault({
			method: 'GET',
			path,
			kind: 'status',
			status: 302,
			headers: { location: `${path}?moved=1` },
			body: {},
		});
		const result = await runNode(videoNode('generic', 'getStatus'), {
			credentials: gateway.credentials(),
			input: [{ json: task }],
		});
		expect(result.error(NODE)).toBeUndefined();
		expect(result.items[0].json.taskId).toBe(task.taskId);
		const asked = gateway.simulator.requestsTo('GET', path);
		expect(asked.map((request) => request.query)).toEqual([{}, { moved: '1' }]);
		expect(asked[1].headers.authorization).toBe(`Bearer ${gateway.simulator.apiKey}`);
	});

	it('a create does not: it may have been processed, so it is reported, not sent again', async () => {
		gateway.simulator.injectFault({
			method: 'POST',
			path: '/v1/chat/completions',
			kind: 'status',
			status: 307,
			headers: { location: '/v1/chat/completions?again=1' },
			body: {},
		});
		const result = await runNode(
			{
				type: 'modelGatewayChat',
				parameters: {
					model: 'chat-model-1',
					messages: { values: [{ role: 'user', content: 'hi' }] },
				},
			},
			{ credentials: gateway.credentials() },
		);
		expect(result.error(NODE)?.description).toContain('A request that may bill is not sent again');
		expect(gateway.simulator.requestsTo('POST', '/v1/chat/completions')).toHaveLength(1);
	});
});

import type { IDataObject } from 'n8n-workflow';

import { runNode } from './harness';
import type { ProxyGateway } from './proxyGateway';
import { startProxyGateway } from './proxyGateway';
import { useSimulator } from './simulatorFixture';

/**
 * Nothing billed is lost: in a batch, every item's request is built and checked before the
 * first create is sent, so a bad row sends nothing; and when a gateway failure stops a batch
 * midway, the error names what the earlier items created, so the user can pick it up. For
 * every node that creates, against the simulator behind a stricter proxy.
 */

const gateway = useSimulator();
const NODE = 'Node Under Test';

interface CreatingNode {
	name: string;
	type: string;
	host: 'base' | 'identity';
	path: string;
	/** Parameters whose per-item value comes from the item's `value` field. */
	parameters: IDataObject;
	good: string;
	bad: string;
	badMessage: string;
	/** How the error names one create, from the simulator's answer to it. */
	createdId: (answer: IDataObject) => string;
}

const fromItem = '={{ $json.value }}';

const nodes: CreatingNode[] = [
	{
		name: 'Video Create',
		type: 'modelGatewayVideo',
		host: 'base',
		path: '/v1/videos',
		parameters: { family: 'generic', operation: 'create', model: fromItem, genericPrompt: 'a cat' },
		good: 'video-model-1',
		bad: '',
		badMessage: 'Item 2: "model": model is required and must not be empty',
		createdId: (answer) => `task ${String(answer.id)} (generic)`,
	},
	{
		name: 'Image Edit',
		type: 'modelGatewayImageEdit',
		host: 'base',
		path: '/v1/images/edits',
		parameters: {
			model: 'image-edit-1',
			prompt: 'Make the sky purple',
			images: { values: [{ source: 'url', url: fromItem }] },
			options: { outputContent: 'url' },
		},
		good: 'https://example.com/photo.png',
		bad: 'photos/sky.png',
		badMessage:
			'Item 2: "image[0]": must be an http or https URL or Base64 data (got "photos/sky.png", which is neither: a relative path or a host without http:// or https:// is not a URL)',
		createdId: (answer) =>
			`edit request ${String((answer.metadata as IDataObject | undefined)?.request_id)}`,
	},
	{
		name: 'Asset Review',
		type: 'modelGatewayAssetReview',
		host: 'identity',
		path: '/api/overseas/asset/upload/sync',
		parameters: { urlSource: 'expression', urls: fromItem },
		good: 'https://cdn.example/ok.png',
		bad: 'ftp://cdn.example/ok.png',
		badMessage: 'Item 2: "images[0]": "ftp://cdn.example/ok.png" uses ftp',
		createdId: (answer) => `review task ${String(answer.task_id)}`,
	},
	{
		name: 'Chat',
		type: 'modelGatewayChat',
		host: 'base',
		path: '/v1/chat/completions',
		parameters: { model: fromItem, messages: { values: [{ role: 'user', content: 'hello' }] } },
		good: 'chat-model-1',
		bad: ' ',
		badMessage: 'Item 2: "model": model is required and must not be empty',
		createdId: (answer) => `response ${String(answer.id)}`,
	},
	{
		name: 'Responses',
		type: 'modelGatewayResponses',
		host: 'base',
		path: '/v1/responses',
		parameters: { model: fromItem, input: 'hello' },
		good: 'resp-model-1',
		bad: '',
		badMessage: 'Item 2: "model": model is required and must not be empty',
		createdId: (answer) => `response ${String(answer.id)}`,
	},
];

const rows = (node: CreatingNode, badRow?: number) =>
	[0, 1, 2, 3].map((index) => ({ json: { value: index === badRow ? node.bad : node.good } }));

let proxy: ProxyGateway | undefined;
afterEach(async () => {
	await proxy?.close();
	proxy = undefined;
});

/** The simulator's credentials, with the node's host reached through `proxy`. */
function credentialsThrough(node: CreatingNode, through: ProxyGateway) {
	const credentials = gateway.credentials();
	if (node.host === 'base') credentials.modelGatewayApi.baseUrl = through.baseUrl;
	else credentials.modelGatewayAssetReviewApi.identityUrl = through.baseUrl;
	return credentials;
}

describe.each(nodes)('$name in a batch', (node) => {
	const creates = () => gateway.simulator.requestsTo('POST', node.path);

	it('a bad 3rd row fails the node before anything is sent', async () => {
		const result = await runNode(
			{ type: node.type, parameters: node.parameters },
			{ credentials: gateway.credentials(), input: rows(node, 2) },
		);
		const error = result.error(NODE);
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message.startsWith(node.badMessage)).toBe(true);
		expect(creates()).toHaveLength(0);
	});

	it('under Continue On Fail, the bad row becomes an error item and the others are sent', async () => {
		const result = await runNode(
			{ type: node.type, parameters: node.parameters, continueOnFail: true },
			{ credentials: gateway.credentials(), input: rows(node, 2) },
		);
		expect(result.items.map((item) => item.pairedItem)).toEqual(
			[0, 1, 2, 3].map((item) => ({ item })),
		);
		// A video task carries `error: null`; an error item carries the message.
		expect(result.items.map((item) => typeof item.json.error === 'string')).toEqual([
			false,
			false,
			true,
			false,
		]);
		expect(String(result.items[2].json.error).startsWith(node.badMessage)).toBe(true);
		expect(creates()).toHaveLength(3);
	});

	it('a 500 on the 3rd create fails the node with an error naming creates 1 and 2', async () => {
		let creating = 0;
		proxy = await startProxyGateway(
			node.host === 'base' ? gateway.simulator.baseUrl : gateway.simulator.identityUrl,
			(_arrival, method, path) =>
				method === 'POST' && path === node.path && ++creating === 3
					? { status: 500, body: { error: { message: 'upstream exploded' } } }
					: undefined,
		);
		const through = proxy;
		const result = await runNode(
			{ type: node.type, parameters: node.parameters },
			{ credentials: credentialsThrough(node, through), input: rows(node) },
		);
		const error = result.error(NODE) as unknown as {
			message: string;
			description: string;
			context: IDataObject;
		};
		expect(error.message).toBe('upstream exploded');
		const ids = [1, 2].map((arrival) => {
			const reply = through.replies.get(arrival);
			return node.createdId(JSON.parse(reply ?? '{}') as IDataObject);
		});
		expect(error.description).toContain(
			`Created (and billed) before the node stopped, not in any output: item 0: ${ids[0]}; item 1: ${ids[1]}.`,
		);
		expect(error.context.createdBeforeFailure).toEqual([
			{ itemIndex: 0, id: ids[0] },
			{ itemIndex: 1, id: ids[1] },
		]);
		// The 4th item is never sent; the simulator saw exactly the two accepted creates.
		expect(creates()).toHaveLength(2);
	});
});

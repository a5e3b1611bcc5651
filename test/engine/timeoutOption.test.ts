import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { runNode } from './harness';
import { packageNodeTypes } from './packageNodes';
import { useSimulator } from './simulatorFixture';

const gateway = useSimulator();

/** Every node that creates, with a request that reaches `path` on the simulator. */
const creatingNodes: Array<{
	type: string;
	path: string;
	parameters: IDataObject;
	defaultSeconds: number;
}> = [
	{
		type: 'modelGatewayChat',
		path: '/v1/chat/completions',
		parameters: { model: 'chat-model-1', messages: { values: [{ role: 'user', content: 'hi' }] } },
		defaultSeconds: 120,
	},
	{
		type: 'modelGatewayResponses',
		path: '/v1/responses',
		parameters: { model: 'resp-model-1', input: 'hi' },
		defaultSeconds: 120,
	},
	{
		type: 'modelGatewayVideo',
		path: '/v1/videos',
		parameters: { family: 'generic', operation: 'create', model: 'g', genericPrompt: 'x' },
		defaultSeconds: 120,
	},
	{
		type: 'modelGatewayImageEdit',
		path: '/v1/images/edits',
		parameters: {
			model: 'image-edit-1',
			prompt: 'p',
			images: { values: [{ source: 'url', url: 'https://example.com/a.png' }] },
		},
		defaultSeconds: 300,
	},
	{
		type: 'modelGatewayAssetReview',
		path: '/api/overseas/asset/upload/sync',
		parameters: { urlSource: 'list', assetUrls: { values: [{ url: 'https://cdn.test/a.png' }] } },
		defaultSeconds: 120,
	},
];

describe.each(creatingNodes)('the Timeout (Seconds) option of $type', (node) => {
	it('is in the options collection, with the node default', () => {
		const options = packageNodeTypes[node.type].description.properties.find(
			(property) => property.name === 'options',
		);
		const timeout = (options?.options as INodeProperties[] | undefined)?.find(
			(option) => option.name === 'timeout',
		);
		expect(timeout).toMatchObject({
			displayName: 'Timeout (Seconds)',
			default: node.defaultSeconds,
		});
	});

	it('bounds a create by the item option, and the create is not sent again', async () => {
		const sim = gateway.simulator;
		sim.injectFault({ method: 'POST', path: node.path, kind: 'delay', ms: 1_500 });
		const result = await runNode(
			{ type: node.type, parameters: { ...node.parameters, options: { timeout: 1 } } },
			{ credentials: gateway.credentials() },
		);
		expect(result.error('Node Under Test')?.message).toBe(
			`The gateway did not answer POST ${node.path} within 1 s`,
		);
		expect(sim.requestsTo('POST', node.path)).toHaveLength(1);
	});
});

import { Expression } from 'n8n-workflow';

import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';

/**
 * The item loop costs n8n's parameter machinery nothing per item: every getNodeParameter call
 * goes through n8n's Expression.getParameterValue (a copy of the parameter, and for an
 * expression its sandbox), so the creating nodes read what is the same for every item once per
 * run and fill `{{ $json.field }}` in from the item. The number of n8n's resolutions must not
 * grow with the number of items. (The time it saves is measured by `npm run bench`.)
 */

const gateway = useSimulator();

const question = '={{ $json.question }}';

const NODES = {
	Chat: {
		type: 'modelGatewayChat',
		parameters: {
			model: 'chat-model-1',
			messages: { values: [{ role: 'user', content: question }] },
			options: { concurrency: 4, temperature: 0.5 },
		},
		route: '/v1/chat/completions',
	},
	Responses: {
		type: 'modelGatewayResponses',
		parameters: { model: 'chat-model-1', input: question, options: { concurrency: 4 } },
		route: '/v1/responses',
	},
	'Video Create': {
		type: 'modelGatewayVideo',
		parameters: {
			family: 'generic',
			operation: 'create',
			model: 'video-model-1',
			genericPrompt: question,
			genericOptions: { duration: 6 },
			options: { concurrency: 4 },
		},
		route: '/v1/videos',
	},
} as const;

/** How often n8n resolved a parameter during one run of the node over `count` items. */
async function resolutionsFor(node: (typeof NODES)[keyof typeof NODES], count: number) {
	gateway.simulator.reset();
	const resolve = jest.spyOn(Expression.prototype, 'getParameterValue');
	try {
		const result = await runNode(
			{ type: node.type, parameters: node.parameters },
			{
				credentials: gateway.credentials(),
				input: Array.from({ length: count }, (_, row) => ({ json: { question: `Row ${row}` } })),
			},
		);
		expect(result.error('Node Under Test')).toBeUndefined();
		expect(result.items).toHaveLength(count);
		const sent = gateway.simulator.requestsTo('POST', node.route);
		expect(sent).toHaveLength(count);
		// Every item's own value reached the gateway.
		const prompts = sent.map((request) => JSON.stringify(request.body));
		prompts.forEach((body, row) => expect(body).toContain(`"Row ${row}"`));
		// Only the node under test's own calls count (the engine resolves other nodes' too).
		return resolve.mock.calls.filter((call) => call[4] === 'Node Under Test').length;
	} finally {
		resolve.mockRestore();
	}
}

describe('per-item cost of the creating nodes in n8n parameter resolutions', () => {
	it.each(Object.keys(NODES) as Array<keyof typeof NODES>)(
		'%s resolves as many parameters for 40 items as for 2',
		async (name) => {
			const few = await resolutionsFor(NODES[name], 2);
			const many = await resolutionsFor(NODES[name], 40);
			expect(few).toBeGreaterThan(0);
			expect(many).toBe(few);
		},
	);
});

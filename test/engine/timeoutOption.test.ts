import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';

const gateway = useSimulator();

describe('the Timeout (Seconds) option', () => {
	it('bounds a create by the item option, and the create is not sent again', async () => {
		const sim = gateway.simulator;
		sim.injectFault({ method: 'POST', path: '/v1/chat/completions', kind: 'delay', ms: 1_500 });
		const result = await runNode(
			{
				type: 'modelGatewayChat',
				parameters: {
					model: 'chat-model-1',
					messages: { values: [{ role: 'user', content: 'hi' }] },
					options: { timeout: 1 },
				},
			},
			{ credentials: gateway.credentials() },
		);
		expect(result.error('Node Under Test')?.message).toBe(
			'The gateway did not answer POST /v1/chat/completions within 1 s',
		);
		expect(sim.requestsTo('POST', '/v1/chat/completions')).toHaveLength(1);
	});
});

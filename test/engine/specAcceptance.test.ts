import type { IDataObject } from 'n8n-workflow';

import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';
import { videoNode } from './videoNode';

/**
 * Requests the spec allows, which the nodes (and the simulator) once refused with limits of
 * their own: now sent, and answered without a violation.
 */

const gateway = useSimulator({ queuedMs: 0, runningMs: 0 });
const NODE = 'Node Under Test';
const sent = (path: string) => gateway.simulator.requestsTo('POST', path)[0]?.body as IDataObject;

describe('the nodes send what the spec allows', () => {
	it('Responses: max_tool_calls 0 (the spec: an integer, no range)', async () => {
		const result = await runNode(
			{
				type: 'modelGatewayResponses',
				parameters: { model: 'resp-model-1', input: 'Hello', options: { maxToolCalls: 0 } },
			},
			{ credentials: gateway.credentials() },
		);
		expect(result.error(NODE)).toBeUndefined();
		expect(sent('/v1/responses').max_tool_calls).toBe(0);
		expect(result.items[0].json.outputText).toBe('Echo: Hello');
	});

	it('Family B: a create without Prompt or FileInfos (the spec requires only ModelName)', async () => {
		const result = await runNode(
			videoNode('familyB', 'create', { model: 'b', familyBPrompt: '' }),
			{
				credentials: gateway.credentials(),
			},
		);
		expect(result.error(NODE)).toBeUndefined();
		expect(sent('/vendor-b/v1/video/generations')).toEqual({ ModelName: 'b' });
		expect(result.items[0].json).toMatchObject({ family: 'familyB', status: 'queued' });
	});

	it('Long-running: an instance without a prompt (the spec: which fields are required is not shown)', async () => {
		const result = await runNode(
			videoNode('longRunning', 'create', {
				model: 'veo',
				longRunningInstances: { instances: [{ prompt: '' }] },
			}),
			{ credentials: gateway.credentials() },
		);
		expect(result.error(NODE)).toBeUndefined();
		expect(
			gateway.simulator.requestsTo('POST', '/v1beta/models/veo:predictLongRunning'),
		).toHaveLength(1);
	});
});

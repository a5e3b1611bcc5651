import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';
import { videoNode } from './videoNode';

/**
 * Bodies a strict gateway (the simulator, speaking for the spec and the upstream's documented
 * item shapes) refuses are refused by the Video node before sending, naming the field and item.
 */

const gateway = useSimulator({ queuedMs: 0, runningMs: 0 });

const cases: Array<[string, ReturnType<typeof videoNode>, RegExp]> = [
	[
		'Family A omni-video without aspect_ratio (no first frame, no video editing)',
		videoNode('familyA', 'create', {
			model: 'a',
			familyAEndpoint: 'omni-video',
			familyAPrompt: 'p',
		}),
		/^Item 0: "aspect_ratio"/,
	],
	[
		'Family A element_list item without element_id',
		videoNode('familyA', 'create', {
			model: 'a',
			familyAEndpoint: 'omni-video',
			familyAPrompt: 'p',
			familyAOptions: { aspect_ratio: '16:9', elementList: '[{"id":"x"}]' },
		}),
		/^Item 0: "element_list/,
	],
	[
		'Family A video_list item without video_url',
		videoNode('familyA', 'create', {
			model: 'a',
			familyAEndpoint: 'omni-video',
			familyAPrompt: 'p',
			familyAOptions: { aspect_ratio: '16:9', videoList: '[{"id":"x"}]' },
		}),
		/^Item 0: "video_list/,
	],
	[
		'Task family S image item with an audio role',
		videoNode('taskS', 'create', {
			model: 's',
			taskSContent: {
				items: [{ type: 'image_url', url: 'https://example.com/a.png', role: 'reference_audio' }],
			},
		}),
		/^Item 0: "content\[0\]\.role"/,
	],
];

describe('the Video node refuses what a strict gateway refuses, before sending', () => {
	it.each(cases)('%s', async (_title, node, field) => {
		const result = await runNode(node, { credentials: gateway.credentials() });
		const error = result.error('Node Under Test');
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toMatch(field);
		expect(gateway.simulator.requests).toHaveLength(0);
	});
});

import type { IDataObject } from 'n8n-workflow';

import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';
import { videoNode } from './videoNode';

/** Media fields through the real node: converted or refused before anything is sent. */

const gateway = useSimulator();
const PNG_BASE64 =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const image2video = (image: string, options: IDataObject = {}) =>
	videoNode('familyA', 'create', {
		model: 'kling-v1',
		familyAEndpoint: 'image2video',
		familyAPrompt: 'the cat wakes up',
		familyAFrameSource: 'url',
		familyAImage: image,
		familyAOptions: options,
	});

it('Family A: a pasted data: URI for the first frame is sent as the raw Base64 the upstream takes', async () => {
	const result = await runNode(image2video(`data:image/png;base64,${PNG_BASE64}`), {
		credentials: gateway.credentials(),
	});
	expect(result.error('Node Under Test')).toBeUndefined();
	const [create] = gateway.simulator.requestsTo('POST', '/vendor-a/v1/videos/image2video');
	expect((create.body as IDataObject).image).toBe(PNG_BASE64);
});

it.each([
	[
		'a relative path as first frame',
		image2video('frames/first.png'),
		'Item 0: "image": must be an http or https URL or Base64 data (got "frames/first.png", which is neither: a relative path or a host without http:// or https:// is not a URL)',
	],
	[
		'a javascript: callback URL',
		image2video(PNG_BASE64, { callback_url: 'javascript:alert(1)' }),
		'Item 0: "callback_url": must be an http or https URL (got the javascript: scheme in "javascript:alert(1)")',
	],
])('Family A: %s is refused, naming the field, before sending', async (_case, node, message) => {
	const result = await runNode(node, { credentials: gateway.credentials() });
	expect(result.error('Node Under Test')?.message).toBe(message);
	expect(gateway.simulator.requests).toHaveLength(0);
});

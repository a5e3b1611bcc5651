import { PNG_FILE } from '../simulator/files';
import { binaryBytes, runNode } from './harness';
import { useSimulator } from './simulatorFixture';

/**
 * Image Edit results that arrive as `b64_json` are decoded while the answer arrives, straight
 * into n8n's binary storage (nodes/shared/jsonMediaStream.ts). The output must be exactly what
 * decoding the whole answer gave: these expectations were checked against that code.
 */

const gateway = useSimulator();

const EDITS = '/v1/images/edits';
const JPEG_BYTES = Buffer.from([
	0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
]);
/** An image larger than one read of the answer, so its base64 is split across chunks. */
const LARGE_PNG = Buffer.concat([PNG_FILE.bytes, Buffer.alloc(300_000, 7)]);

const editNode = (options: object = {}) => ({
	type: 'modelGatewayImageEdit',
	parameters: {
		model: 'image-edit-1',
		prompt: 'Make the sky purple',
		images: { values: [{ source: 'url', url: 'https://example.com/photo.png' }] },
		options,
	},
});

const answerEditWith = (body: object) =>
	gateway.simulator.injectFault({ method: 'POST', path: EDITS, kind: 'status', status: 200, body });

const ANSWER = {
	created: 1700000000,
	model: 'image-edit-1',
	data: [
		{ b64_json: LARGE_PNG.toString('base64'), revised_prompt: 'purple sky' },
		{ b64_json: JPEG_BYTES.toString('base64') },
	],
	output_format: 'webp', // the bytes win over a mismatching label
	size: '1K',
	usage: { total_tokens: 10 },
};

const SHARED_JSON = {
	model: 'image-edit-1',
	created: 1700000000,
	size: '1K',
	quality: null,
	background: null,
	outputFormat: 'webp',
	// Only the total was reported: the other counts are null, not guessed.
	usage: { inputTokens: null, outputTokens: null, totalTokens: 10, imageCount: null },
	providerMetadata: null,
};

/** Binary metadata without where n8n keeps the bytes (`data` / `id` differ by storage). */
function metadataOf(binary: object | undefined): object {
	const { data, id, ...metadata } = (binary ?? {}) as Record<string, unknown>;
	return metadata;
}

describe('Image Edit: b64_json results streamed into binary storage', () => {
	it('one item per image: the same JSON, binary metadata and bytes as decoding the whole answer', async () => {
		answerEditWith(ANSWER);
		const result = await runNode(editNode(), { credentials: gateway.credentials() });
		expect(result.error('Node Under Test')).toBeUndefined();
		const traceId = gateway.simulator.requestsTo('POST', EDITS)[0].headers['x-trace-id'];

		expect(result.items.map((item) => item.json)).toEqual([
			{ imageIndex: 0, revisedPrompt: 'purple sky', url: null, ...SHARED_JSON, traceId },
			{ imageIndex: 1, revisedPrompt: null, url: null, ...SHARED_JSON, traceId },
		]);
		expect(result.items.map((item) => metadataOf(item.binary?.data))).toEqual([
			{
				mimeType: 'image/png',
				fileType: 'image',
				fileName: 'edited-image-1.png',
				fileExtension: 'png',
				fileSize: '300 kB',
			},
			{
				mimeType: 'image/jpeg',
				fileType: 'image',
				fileName: 'edited-image-2.jpg',
				fileExtension: 'jpg',
				fileSize: '16 B',
			},
		]);
		expect((await binaryBytes(result.items[0], 'data')).equals(LARGE_PNG)).toBe(true);
		expect((await binaryBytes(result.items[1], 'data')).equals(JPEG_BYTES)).toBe(true);
	});

	it('one item with all images: both stored under their property names', async () => {
		answerEditWith(ANSWER);
		const result = await runNode(
			editNode({ outputLayout: 'oneItem', binaryPropertyName: 'edited' }),
			{ credentials: gateway.credentials() },
		);
		expect(result.error('Node Under Test')).toBeUndefined();
		const [item] = result.items;
		expect(item.json.images).toEqual([
			{ imageIndex: 0, revisedPrompt: 'purple sky', url: null, binaryPropertyName: 'edited' },
			{ imageIndex: 1, revisedPrompt: null, url: null, binaryPropertyName: 'edited_1' },
		]);
		expect(Object.keys(item.binary ?? {})).toEqual(['edited', 'edited_1']);
		expect((await binaryBytes(item, 'edited')).equals(LARGE_PNG)).toBe(true);
		expect((await binaryBytes(item, 'edited_1')).equals(JPEG_BYTES)).toBe(true);
	});

	it('an image with a URL is still downloaded from it, its inline copy unused', async () => {
		// The simulator answers with both a URL and b64_json, as some providers do.
		const result = await runNode(editNode(), { credentials: gateway.credentials() });
		expect(result.error('Node Under Test')).toBeUndefined();
		const [item] = result.items;
		expect(item.json.url).toEqual(expect.stringMatching(/\/files\/img_.+\.png$/));
		expect(metadataOf(item.binary?.data)).toMatchObject({
			mimeType: 'image/png',
			fileName: 'edited-image-1.png',
		});
		expect((await binaryBytes(item, 'data')).equals(PNG_FILE.bytes)).toBe(true);
	});

	it('a b64_json value that is not a string is refused as an image without data', async () => {
		answerEditWith({ data: [{ b64_json: null }] });
		const result = await runNode(editNode(), { credentials: gateway.credentials() });
		expect(result.error('Node Under Test')?.message).toBe(
			'The gateway returned result image 1 of 1 with neither a URL nor base64 data',
		);
	});
});

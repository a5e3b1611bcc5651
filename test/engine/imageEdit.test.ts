import { PNG_FILE } from '../simulator/files';
import { binaryBytes, runNode } from './harness';
import { useSimulator } from './simulatorFixture';

const gateway = useSimulator();
/** A result PNG the simulator serves: `<base>/files/img_<hex id>.png`. */
const fileUrlPattern = (baseUrl: string) =>
	new RegExp(`^${baseUrl.replace(/[.]/g, '\\.')}/files/img_[0-9a-f]+\\.png$`);

const EDITS = '/v1/images/edits';
const PNG_BYTES = PNG_FILE.bytes;
const JPEG_BYTES = Buffer.from([
	0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
]);

const editNode = (parameters: object) => ({
	type: 'modelGatewayImageEdit',
	parameters: { model: 'image-edit-1', prompt: 'Make the sky purple', ...parameters },
});
const urlImage = (url: string) => ({ images: { values: [{ source: 'url', url }] } });
/** The next edit is answered with this body (HTTP 200), for answers the simulator never gives. */
const answerEditWith = (body: object) =>
	gateway.simulator.injectFault({ method: 'POST', path: EDITS, kind: 'status', status: 200, body });

describe('Model Gateway Image Edit through the real engine', () => {
	it('edits an image given by URL and outputs the result as binary with the JSON fields alongside', async () => {
		const sim = gateway.simulator;
		const result = await runNode(editNode(urlImage('https://example.com/photo.png')), {
			credentials: gateway.credentials(),
		});
		expect(result.error('Node Under Test')).toBeUndefined();

		const [request] = sim.requestsTo('POST', EDITS);
		expect(request.body).toEqual({
			model: 'image-edit-1',
			prompt: 'Make the sky purple',
			image: ['https://example.com/photo.png'],
		});
		expect(request.headers.authorization).toBe(`Bearer ${sim.apiKey}`);

		expect(result.items).toHaveLength(1);
		const [item] = result.items;
		expect(item.json).toMatchObject({
			imageIndex: 0,
			revisedPrompt: 'Make the sky purple',
			url: expect.stringMatching(/\/files\/img_.+\.png$/),
			model: 'image-edit-1',
			size: '1K',
			quality: 'high',
			background: 'opaque',
			outputFormat: 'png',
			// Normalized: the gateway's token counts, the image count from its provider metadata.
			usage: {
				inputTokens: expect.any(Number),
				outputTokens: 1024,
				totalTokens: expect.any(Number),
				imageCount: 1,
			},
			providerMetadata: {
				finishReasons: ['stop'],
				finished: true,
				imageCount: 1,
				size: '1024*1024',
				requestId: expect.stringMatching(
					/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
				),
			},
			traceId: request.headers['x-trace-id'],
		});
		const usage = item.json.usage as { inputTokens: number; totalTokens: number };
		expect(usage.totalTokens).toBe(usage.inputTokens + 1024);
		expect(item.binary?.data).toMatchObject({
			mimeType: 'image/png',
			fileName: 'edited-image-1.png',
			fileExtension: 'png',
		});
		expect((await binaryBytes(item, 'data')).equals(PNG_BYTES)).toBe(true);
		expect(item.pairedItem).toEqual({ item: 0 });
	});

	it('downloads each result from its URL, taking the MIME type and file extension from the download', async () => {
		// Result files are public and not in the request log; a fault on them shows they were fetched.
		gateway.simulator.injectFault({
			method: 'GET',
			path: '/files/',
			kind: 'status',
			status: 200,
			headers: { 'content-type': 'image/webp' },
			body: 'bytes from the CDN',
		});
		const result = await runNode(editNode(urlImage('https://example.com/photo.png')), {
			credentials: gateway.credentials(),
		});
		expect(result.error('Node Under Test')).toBeUndefined();
		const [item] = result.items;
		expect(item.binary?.data).toMatchObject({
			mimeType: 'image/webp',
			fileName: 'edited-image-1.webp',
		});
		expect((await binaryBytes(item, 'data')).toString()).toBe('bytes from the CDN');
	});

	it('sends base64 input as given: raw, as a data URI, and with line breaks removed', async () => {
		const raw = PNG_BYTES.toString('base64');
		const wrapped = raw.replace(/(.{20})/g, '$1\n');
		const result = await runNode(
			editNode({
				images: {
					values: [
						{ source: 'base64', base64: raw },
						{ source: 'base64', base64: `data:image/png;base64,${raw}` },
						{ source: 'base64', base64: wrapped },
					],
				},
			}),
			{ credentials: gateway.credentials() },
		);
		expect(result.error('Node Under Test')).toBeUndefined();
		expect(gateway.simulator.requestsTo('POST', EDITS)[0].body).toMatchObject({
			image: [raw, `data:image/png;base64,${raw}`, raw],
		});
		expect(result.items).toHaveLength(1);
	});

	it('reads several binary properties of the item as data URIs, in order, mixed with a URL', async () => {
		const result = await runNode(
			editNode({
				images: {
					values: [
						{ source: 'binary', binaryPropertyName: 'data, data_1' },
						{ source: 'url', url: 'https://example.com/style.png' },
						{ source: 'binary', binaryPropertyName: 'scan' },
					],
				},
			}),
			{
				credentials: gateway.credentials(),
				input: [
					{
						json: {},
						binary: {
							data: { data: PNG_BYTES, mimeType: 'image/png', fileName: 'a.png' },
							data_1: { data: JPEG_BYTES, mimeType: 'image/jpeg', fileName: 'b.jpg' },
							// Stored without a useful MIME type: the bytes say it is a PNG.
							scan: { data: PNG_BYTES, mimeType: 'application/octet-stream', fileName: 'scan' },
						},
					},
				],
			},
		);
		expect(result.error('Node Under Test')).toBeUndefined();
		expect(gateway.simulator.requestsTo('POST', EDITS)[0].body).toMatchObject({
			image: [
				`data:image/png;base64,${PNG_BYTES.toString('base64')}`,
				`data:image/jpeg;base64,${JPEG_BYTES.toString('base64')}`,
				'https://example.com/style.png',
				`data:image/png;base64,${PNG_BYTES.toString('base64')}`,
			],
		});
	});

	it('sends binary input as raw base64 when asked', async () => {
		const result = await runNode(
			editNode({ options: { binaryEncoding: 'base64' } }), // default Images entry: binary property "data"
			{
				credentials: gateway.credentials(),
				input: [{ json: {}, binary: { data: { data: JPEG_BYTES, mimeType: 'image/jpeg' } } }],
			},
		);
		expect(result.error('Node Under Test')).toBeUndefined();
		expect(gateway.simulator.requestsTo('POST', EDITS)[0].body).toMatchObject({
			image: [JPEG_BYTES.toString('base64')],
		});
	});

	it('sends every optional field and the given trace ID', async () => {
		const result = await runNode(
			editNode({
				...urlImage('https://example.com/photo.png'),
				options: {
					bboxList: '[{"x": 10, "y": 20, "width": 100, "height": 50}]',
					n: 2,
					size: '4K',
					thinkingMode: true,
					watermark: false,
					traceId: 'support-case-7',
				},
			}),
			{ credentials: gateway.credentials() },
		);
		expect(result.error('Node Under Test')).toBeUndefined();
		const [request] = gateway.simulator.requestsTo('POST', EDITS);
		expect(request.body).toEqual({
			model: 'image-edit-1',
			prompt: 'Make the sky purple',
			image: ['https://example.com/photo.png'],
			bbox_list: [{ x: 10, y: 20, width: 100, height: 50 }],
			n: 2,
			size: '4K',
			thinking_mode: true,
			watermark: false,
		});
		expect(request.headers['x-trace-id']).toBe('support-case-7');
		expect(result.items.map((item) => item.json.traceId)).toEqual([
			'support-case-7',
			'support-case-7',
		]);
		expect(result.items[0].json.providerMetadata).toMatchObject({
			imageCount: 2,
			size: '4096*4096',
		});
	});

	it('leaves the default empty bounding-box list out of the request', async () => {
		await runNode(
			editNode({ ...urlImage('https://example.com/photo.png'), options: { bboxList: '[]' } }),
			{
				credentials: gateway.credentials(),
			},
		);
		expect(gateway.simulator.requestsTo('POST', EDITS)[0].body).not.toHaveProperty('bbox_list');
	});
});

describe('Image Edit output modes', () => {
	const twoImages = (options: object) =>
		editNode({ ...urlImage('https://example.com/photo.png'), options: { n: 2, ...options } });

	it('both (default), one item per image: binary and URL on each item, paired with its input item', async () => {
		const result = await runNode(twoImages({}), {
			credentials: gateway.credentials(),
			input: [{ json: { row: 1 } }, { json: { row: 2 } }],
		});
		expect(result.error('Node Under Test')).toBeUndefined();
		expect(result.items).toHaveLength(4);
		expect(result.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 0 },
			{ item: 1 },
			{ item: 1 },
		]);
		expect(result.items.map((item) => item.json.imageIndex)).toEqual([0, 1, 0, 1]);
		const urls = result.items.map((item) => item.json.url);
		expect(new Set(urls).size).toBe(4);
		expect(result.items.map((item) => item.binary?.data?.fileName)).toEqual([
			'edited-image-1.png',
			'edited-image-2.png',
			'edited-image-1.png',
			'edited-image-2.png',
		]);
		for (const item of result.items)
			expect((await binaryBytes(item, 'data')).equals(PNG_BYTES)).toBe(true);
	});

	it('binary only: no URL in the JSON', async () => {
		const result = await runNode(twoImages({ outputContent: 'binary' }), {
			credentials: gateway.credentials(),
		});
		expect(result.items).toHaveLength(2);
		for (const item of result.items) {
			expect(item.json).not.toHaveProperty('url');
			expect(item.binary?.data?.mimeType).toBe('image/png');
		}
	});

	/** Any download attempt would fail: a success proves nothing was downloaded. */
	const failEveryDownload = () =>
		gateway.simulator.injectFault({
			method: 'GET',
			path: '/files/',
			kind: 'status',
			status: 500,
			times: 100,
		});

	it('URLs only: nothing downloaded, no binary', async () => {
		failEveryDownload();
		const result = await runNode(twoImages({ outputContent: 'url' }), {
			credentials: gateway.credentials(),
		});
		expect(result.items).toHaveLength(2);
		for (const item of result.items) {
			expect(item.binary).toBeUndefined();
			expect(item.json.url).toMatch(/^http:\/\/.+\/files\/img_.+\.png$/);
		}
	});

	it('one item with all images: data, data_1 (under a chosen name) and a per-image summary', async () => {
		const result = await runNode(
			twoImages({ outputLayout: 'oneItem', binaryPropertyName: 'edited' }),
			{
				credentials: gateway.credentials(),
				input: [{ json: {} }, { json: {} }],
			},
		);
		expect(result.error('Node Under Test')).toBeUndefined();
		expect(result.items).toHaveLength(2);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }]);
		const [first] = result.items;
		expect(Object.keys(first.binary ?? {})).toEqual(['edited', 'edited_1']);
		expect(first.binary?.edited_1?.fileName).toBe('edited-image-2.png');
		expect((await binaryBytes(first, 'edited_1')).equals(PNG_BYTES)).toBe(true);
		expect(first.json).toMatchObject({
			images: [
				{
					imageIndex: 0,
					revisedPrompt: 'Make the sky purple',
					url: expect.stringMatching(fileUrlPattern(gateway.simulator.baseUrl)),
					binaryPropertyName: 'edited',
				},
				{
					imageIndex: 1,
					revisedPrompt: 'Make the sky purple',
					url: expect.stringMatching(fileUrlPattern(gateway.simulator.baseUrl)),
					binaryPropertyName: 'edited_1',
				},
			],
			providerMetadata: { imageCount: 2, finishReasons: ['stop', 'stop'] },
		});
	});

	it('one item with all images, URLs only: the summaries carry the URLs and there is no binary', async () => {
		failEveryDownload();
		const result = await runNode(twoImages({ outputLayout: 'oneItem', outputContent: 'url' }), {
			credentials: gateway.credentials(),
		});
		expect(result.items).toHaveLength(1);
		expect(result.items[0].binary).toBeUndefined();
		const images = result.items[0].json.images as Array<Record<string, unknown>>;
		expect(images.map((image) => Object.keys(image).sort())).toEqual([
			['imageIndex', 'revisedPrompt', 'url'],
			['imageIndex', 'revisedPrompt', 'url'],
		]);
	});

	it('decodes b64_json when the gateway sends no URL, with the MIME type from the bytes', async () => {
		failEveryDownload();
		answerEditWith({
			created: 1700000000,
			model: 'image-edit-1',
			data: [{ b64_json: JPEG_BYTES.toString('base64'), revised_prompt: 'purple sky' }],
			output_format: 'png', // the bytes win over a mismatching label
		});
		const result = await runNode(editNode(urlImage('https://example.com/photo.png')), {
			credentials: gateway.credentials(),
		});
		expect(result.error('Node Under Test')).toBeUndefined();
		const [item] = result.items;
		expect(item.binary?.data).toMatchObject({
			mimeType: 'image/jpeg',
			fileName: 'edited-image-1.jpg',
		});
		expect((await binaryBytes(item, 'data')).equals(JPEG_BYTES)).toBe(true);
		expect(item.json).toMatchObject({
			url: null,
			revisedPrompt: 'purple sky',
			providerMetadata: null,
			quality: null,
		});
	});

	it('URLs only still attaches an image that came back only as base64, as there is no URL to give', async () => {
		failEveryDownload();
		answerEditWith({
			data: [
				{ url: 'http://127.0.0.1:1/never-fetched.png' },
				{ b64_json: PNG_BYTES.toString('base64') },
			],
		});
		const result = await runNode(
			editNode({ ...urlImage('https://example.com/photo.png'), options: { outputContent: 'url' } }),
			{ credentials: gateway.credentials() },
		);
		expect(result.error('Node Under Test')).toBeUndefined();
		expect(
			result.items.map((item) => [item.json.url, item.binary?.data?.fileName ?? null]),
		).toEqual([
			['http://127.0.0.1:1/never-fetched.png', null],
			[null, 'edited-image-2.png'],
		]);
	});
});

describe('Image Edit failures', () => {
	it('names the result image whose URL cannot be downloaded', async () => {
		const result = await runNode(
			editNode({
				...urlImage('https://example.com/photo.png'),
				prompt: 'BROKEN_URL please',
				options: { n: 2 },
			}),
			{ credentials: gateway.credentials() },
		);
		const error = result.error('Node Under Test');
		expect(error?.message).toMatch(
			/^Could not download result image 1 of 2 from http:\/\/.+\/files\/missing\/img_.+\.png: .*404/,
		);
		expect(gateway.simulator.requestsTo('POST', EDITS)).toHaveLength(1); // the create is never repeated
	});

	it('turns an undownloadable result into an error item under Continue On Fail, other items unaffected', async () => {
		const result = await runNode(
			{
				...editNode({
					...urlImage('https://example.com/photo.png'),
					prompt: '={{ $json.prompt }}',
				}),
				continueOnFail: true,
			},
			{
				credentials: gateway.credentials(),
				input: [{ json: { prompt: 'BROKEN_URL' } }, { json: { prompt: 'fine' } }],
			},
		);
		expect(result.items).toHaveLength(2);
		expect(result.items[0].json.error).toMatch(/^Could not download result image 1 of 1 from /);
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
		expect(result.items[1].binary?.data?.mimeType).toBe('image/png');
		expect(result.items[1].pairedItem).toEqual({ item: 1 });
	});

	it('reports a gateway error with the gateway message', async () => {
		gateway.simulator.injectFault({
			method: 'POST',
			path: EDITS,
			kind: 'status',
			status: 400,
			body: {
				error: {
					message: 'model image-edit-1 is not enabled',
					type: 'invalid_request_error',
					param: 'model',
					code: null,
				},
			},
		});
		const result = await runNode(editNode(urlImage('https://example.com/photo.png')), {
			credentials: gateway.credentials(),
		});
		const error = result.error('Node Under Test');
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('model image-edit-1 is not enabled');
	});

	it('gives up after the chosen timeout and does not send the edit again', async () => {
		gateway.simulator.injectFault({ method: 'POST', path: EDITS, kind: 'delay', ms: 1500 });
		const result = await runNode(
			editNode({ ...urlImage('https://example.com/photo.png'), options: { timeout: 1 } }),
			{
				credentials: gateway.credentials(),
			},
		);
		expect(result.error('Node Under Test')?.message).toBe(
			'The gateway did not answer POST /v1/images/edits within 1 s',
		);
		expect(gateway.simulator.requestsTo('POST', EDITS)).toHaveLength(1);
	});

	const withImage = urlImage('https://example.com/photo.png');
	it.each([
		['n below 1', { ...withImage, options: { n: 0 } }, 'Item 0: "n": must be at least 1'],
		['n not whole', { ...withImage, options: { n: 1.5 } }, 'Item 0: "n": must be a whole number'],
		[
			'size not in the list',
			{ ...withImage, options: { size: '3K' } },
			'Item 0: "size": must be one of 1K, 2K, 4K',
		],
		[
			'bbox_list not JSON',
			{ ...withImage, options: { bboxList: '[{x:1}' } },
			/^Item 0: "bbox_list": is not valid JSON/,
		],
		[
			'bbox_list not a list',
			{ ...withImage, options: { bboxList: '{"x":1}' } },
			/^Item 0: "bbox_list": must be a JSON list of regions/,
		],
		[
			'bbox_list of numbers',
			{ ...withImage, options: { bboxList: '[1, 2]' } },
			/^Item 0: "bbox_list\[0\]": each region must be a JSON object/,
		],
		[
			'empty prompt',
			{ ...withImage, prompt: '  ' },
			'Item 0: "prompt": prompt is required and must not be empty',
		],
		[
			'empty model',
			{ ...withImage, model: '={{ "  " }}' },
			'Item 0: "model": model is required and must not be empty',
		],
		['no images', { images: { values: [] } }, 'Item 0: "image": must contain at least 1 image'],
		[
			'an empty URL',
			urlImage(''),
			'Item 0: "image[0]": must not be empty: give an http or https URL or Base64 data',
		],
		[
			'a file path as URL',
			urlImage('/tmp/photo.png'),
			'Item 0: "image[0]": must be an http or https URL or Base64 data (got "/tmp/photo.png", which is neither: a relative path or a host without http:// or https:// is not a URL)',
		],
		[
			'text that is not base64',
			{ images: { values: [{ source: 'base64', base64: 'not base64!' }] } },
			/^Item 0: "image\[0\]"/,
		],
		[
			'a missing binary property',
			{ images: { values: [{ source: 'binary', binaryPropertyName: 'data, data_9' }] } },
			'Item 0: binary property "data_9" not found on the input item',
		],
		[
			'no binary property named',
			{ images: { values: [{ source: 'binary', binaryPropertyName: ' , ' }] } },
			'Item 0: "Input Binary Field(s)" is empty',
		],
		[
			'a binary that is not an image',
			{ images: { values: [{ source: 'binary', binaryPropertyName: 'notes' }] } },
			/^Item 0: binary property "notes" is not an image/,
		],
	])('rejects %s before sending anything', async (_case, parameters, expected) => {
		const result = await runNode(editNode(parameters), {
			credentials: gateway.credentials(),
			input: [
				{
					json: {},
					binary: {
						data: { data: PNG_BYTES, mimeType: 'image/png' },
						notes: { data: Buffer.from('just some text here'), mimeType: 'text/plain' },
					},
				},
			],
		});
		const error = result.error('Node Under Test');
		expect(error?.name).toBe('NodeOperationError');
		if (typeof expected === 'string') expect(error?.message).toBe(expected);
		else expect(error?.message).toMatch(expected);
		expect(gateway.simulator.requests).toHaveLength(0);
	});

	it('names the failing item and still sends nothing for it', async () => {
		const result = await runNode(
			{ ...editNode({ ...withImage, options: { n: '={{ $json.n }}' } }), continueOnFail: true },
			{ credentials: gateway.credentials(), input: [{ json: { n: 1 } }, { json: { n: -3 } }] },
		);
		expect(result.items.map((item) => item.json.error ?? 'ok')).toEqual([
			'ok',
			'Item 1: "n": must be at least 1',
		]);
		expect(gateway.simulator.requestsTo('POST', EDITS)).toHaveLength(1);
	});
});

describe('Image Edit batching', () => {
	it('keeps order and pairing with several items in flight', async () => {
		gateway.simulator.setOptions({ latencyMs: 20 });
		try {
			const result = await runNode(
				editNode({
					...urlImage('https://example.com/photo.png'),
					prompt: '={{ "edit " + $json.row }}',
					options: { concurrency: 4, outputContent: 'url' },
				}),
				{
					credentials: gateway.credentials(),
					input: [1, 2, 3, 4, 5].map((row) => ({ json: { row } })),
				},
			);
			expect(result.items.map((item) => item.json.revisedPrompt)).toEqual([
				'edit 1',
				'edit 2',
				'edit 3',
				'edit 4',
				'edit 5',
			]);
			expect(result.items.map((item) => item.pairedItem)).toEqual(
				[0, 1, 2, 3, 4].map((item) => ({ item })),
			);
		} finally {
			gateway.simulator.setOptions({ latencyMs: 0 });
		}
	});
});

describe('Image Edit: answers the simulator does not give', () => {
	const NOT_AN_IMAGE = Buffer.from('plain bytes, no image signature').toString('base64');
	/** Any download attempt would fail: a success proves nothing was downloaded. */
	const failEveryDownload = () =>
		gateway.simulator.injectFault({
			method: 'GET',
			path: '/files/',
			kind: 'status',
			status: 500,
			times: 100,
		});

	it('labels base64 bytes without a known signature by output_format, else as PNG, and lays several into one item', async () => {
		failEveryDownload();
		answerEditWith({
			data: [{ b64_json: NOT_AN_IMAGE }, { b64_json: NOT_AN_IMAGE, revised_prompt: 'second' }],
			output_format: 'webp',
			metadata: {},
		});
		const result = await runNode(
			editNode({
				...urlImage('https://example.com/photo.png'),
				options: { outputContent: 'binary', outputLayout: 'oneItem' },
			}),
			{ credentials: gateway.credentials() },
		);
		expect(result.error('Node Under Test')).toBeUndefined();
		expect(result.items).toHaveLength(1);
		const [item] = result.items;
		expect(item.json.images).toEqual([
			{ imageIndex: 0, revisedPrompt: null, binaryPropertyName: 'data' },
			{ imageIndex: 1, revisedPrompt: 'second', binaryPropertyName: 'data_1' },
		]);
		expect(item.binary?.data).toMatchObject({
			mimeType: 'image/webp',
			fileName: 'edited-image-1.webp',
		});
		expect(item.binary?.data_1?.fileName).toBe('edited-image-2.webp');
		expect(item.json.providerMetadata).toEqual({
			finishReasons: [],
			finished: null,
			imageCount: null,
			size: null,
			requestId: null,
		});

		answerEditWith({ data: [{ b64_json: NOT_AN_IMAGE }] });
		const unlabelled = await runNode(editNode(urlImage('https://example.com/photo.png')), {
			credentials: gateway.credentials(),
		});
		expect(unlabelled.items[0].binary?.data).toMatchObject({
			mimeType: 'image/png',
			fileName: 'edited-image-1.png',
		});
	});

	it('names an image that has neither a URL nor base64 data (a null entry too)', async () => {
		for (const entry of [null, { revised_prompt: 'no data' }]) {
			answerEditWith({ data: [{ b64_json: PNG_BYTES.toString('base64') }, entry] });
			const result = await runNode(editNode(urlImage('https://example.com/photo.png')), {
				credentials: gateway.credentials(),
			});
			expect(result.error('Node Under Test')?.message).toBe(
				'The gateway returned result image 2 of 2 with neither a URL nor base64 data',
			);
		}
	});
});

import type { IDataObject } from 'n8n-workflow';

import { PNG_FILE } from '../simulator/files';
import { binaryBytes, runNode } from './harness';
import { useSimulator } from './simulatorFixture';

/**
 * Issue 39 for Image Edit: an HTTP 200 answer with an error body (or with no image in it) was
 * one successful item with `images: []`. It must fail the item with the gateway's message, its
 * code and the X-Trace-ID, the key redacted, the edit sent once; a normal edit still arrives.
 * Both ways an answer is read: image URLs (downloaded after the answer), and base64 images
 * streamed into binary storage while the answer arrives (jsonMediaStream.ts).
 */

const gateway = useSimulator();

const NODE = 'Node Under Test';
const EDITS = '/v1/images/edits';
const TRACE_ID = 'trace-issue-39-image';
/** Larger than one read of the answer, so its base64 is streamed in several pieces. */
const LARGE_PNG = Buffer.concat([PNG_FILE.bytes, Buffer.alloc(300_000, 7)]);

const editNode = (options: IDataObject = {}, extra: IDataObject = {}) => ({
	type: 'modelGatewayImageEdit',
	parameters: {
		model: 'image-edit-1',
		prompt: 'Make the sky purple',
		images: { values: [{ source: 'url', url: 'https://example.com/photo.png' }] },
		options: { traceId: TRACE_ID, ...options },
	},
	...extra,
});

const answerEditWith = (body: object) =>
	gateway.simulator.injectFault({ method: 'POST', path: EDITS, kind: 'status', status: 200, body });

/** The gateway's error inside HTTP 200, echoing the caller's key. */
const gatewayError = (key: string) => ({
	error: {
		message: `The image model is overloaded (request made with ${key})`,
		type: 'server_error',
		code: 'upstream_overloaded',
	},
});

const REDACTED_MESSAGE = 'The image model is overloaded (request made with ***)';

describe('Image Edit: a normal edit still arrives', () => {
	it('with result URLs (the simulator answers both a URL and base64 per image)', async () => {
		const result = await runNode(editNode({ n: 2 }), { credentials: gateway.credentials() });
		expect(result.error(NODE)).toBeUndefined();
		expect(result.items).toHaveLength(2);
		expect(result.items.map((item) => item.json.traceId)).toEqual([TRACE_ID, TRACE_ID]);
		expect((await binaryBytes(result.items[0], 'data')).equals(PNG_FILE.bytes)).toBe(true);
	});

	it('with base64 images only, streamed into binary storage', async () => {
		answerEditWith({ data: [{ b64_json: LARGE_PNG.toString('base64') }] });
		const result = await runNode(editNode(), { credentials: gateway.credentials() });
		expect(result.error(NODE)).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect((await binaryBytes(result.items[0], 'data')).equals(LARGE_PNG)).toBe(true);
	});
});

describe('Image Edit: an error body inside HTTP 200', () => {
	it.each<[string, (key: string) => object]>([
		['an error body', gatewayError],
		[
			'an error beside base64 images streamed into binary storage',
			(key) => ({ ...gatewayError(key), data: [{ b64_json: LARGE_PNG.toString('base64') }] }),
		],
		[
			'an error beside result URLs',
			(key) => ({ ...gatewayError(key), data: [{ url: 'http://127.0.0.1:1/never-fetched.png' }] }),
		],
	])(
		"%s fails with the gateway's message, its code and the trace id, key redacted, sent once",
		async (_case, body) => {
			const key = gateway.simulator.apiKey;
			answerEditWith(body(key));
			const result = await runNode(editNode(), { credentials: gateway.credentials() });
			const error = result.error(NODE);
			expect(result.items).toEqual([]);
			expect(error?.name).toBe('NodeApiError');
			expect(error?.message).toBe(REDACTED_MESSAGE);
			expect(error?.description).toBe(
				`POST ${EDITS} answered HTTP 200 with error code upstream_overloaded (X-Trace-ID ${TRACE_ID})`,
			);
			expect(JSON.stringify(result.run.data)).not.toContain(key);
			const requests = gateway.simulator.requestsTo('POST', EDITS);
			expect(requests).toHaveLength(1);
			expect(requests[0].headers['x-trace-id']).toBe(TRACE_ID);
		},
	);

	it('under Continue On Fail is an error item for its own input item; the next edit still arrives', async () => {
		const key = gateway.simulator.apiKey;
		answerEditWith(gatewayError(key));
		const result = await runNode(editNode({}, { continueOnFail: true }), {
			credentials: gateway.credentials(),
			input: [{ json: { row: 1 } }, { json: { row: 2 } }],
		});
		expect(result.error(NODE)).toBeUndefined();
		expect(result.items.map((item) => [item.json.error ?? 'ok', item.pairedItem])).toEqual([
			[REDACTED_MESSAGE, { item: 0 }],
			['ok', { item: 1 }],
		]);
		expect(JSON.stringify(result.run.data)).not.toContain(key);
	});
});

describe('Image Edit: an answer without an image', () => {
	it.each<[string, object, string]>([
		[
			'no "data"',
			{ created: 1700000000, model: 'image-edit-1' },
			'The gateway answered without an image: the image edit result has no "data"',
		],
		[
			'an empty "data"',
			{ data: [], metadata: { usage: { image_count: 0 }, request_id: 'req-1' } },
			'The gateway answered without an image: the image edit result\'s "data" is empty',
		],
		[
			'an image with neither a URL nor base64 data',
			{ data: [{ b64_json: PNG_FILE.bytes.toString('base64') }, { revised_prompt: 'no data' }] },
			'The gateway returned result image 2 of 2 with neither a URL nor base64 data',
		],
	])(
		'%s fails the item, naming what is missing, with the trace id',
		async (_case, body, message) => {
			answerEditWith(body);
			const result = await runNode(editNode(), { credentials: gateway.credentials() });
			const error = result.error(NODE);
			expect(result.items).toEqual([]);
			expect(error?.message).toBe(message);
			expect(error?.description).toBe(
				`POST ${EDITS} answered HTTP 200 with error code NO_ANSWER (X-Trace-ID ${TRACE_ID})`,
			);
			expect(gateway.simulator.requestsTo('POST', EDITS)).toHaveLength(1);
		},
	);

	it('an image whose base64 data is empty fails too, with the trace id', async () => {
		// Only the stored bytes tell it is empty (the answer's reader stored it as it arrived).
		answerEditWith({ data: [{ b64_json: '' }] });
		const result = await runNode(editNode(), { credentials: gateway.credentials() });
		const error = result.error(NODE);
		expect(result.items).toEqual([]);
		expect(error?.message).toBe(
			'The gateway returned result image 1 of 1 with neither a URL nor base64 data',
		);
		expect(error?.description).toBe(`X-Trace-ID ${TRACE_ID}`);
	});
});

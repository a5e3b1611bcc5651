import type { IBinaryData, INodeExecutionData } from 'n8n-workflow';

import { taskItem } from '../../nodes/shared/tasks/taskItem';
import { longRunningFamily } from '../../nodes/shared/tasks/longRunning';
import { binaryBytes, runNode } from './harness';
import {
	servedVideo,
	startInlineVideoGateway,
	type InlineVideoGateway,
	type InlineVideoSpec,
} from './inlineVideoGateway';
import { videoNode } from './videoNode';

/**
 * Get Status of the long-running family reads inline videos as a stream: the output (JSON and
 * binary data) is the same as when the answer is parsed whole, as it was before.
 */

let gateway: InlineVideoGateway;
beforeAll(async () => {
	gateway = await startInlineVideoGateway();
});
afterAll(async () => await gateway.close());

const getStatus = () =>
	videoNode('longRunning', 'getStatus', {
		taskSource: 'manual',
		taskId: 'models/veo-x/operations/op-7',
	});

/** What the earlier code output for the same answer: the whole answer parsed, base64 decoded. */
async function outputParsedWhole(videos: InlineVideoSpec[]): Promise<INodeExecutionData> {
	const answer = {
		name: 'models/veo-x/operations/op-7',
		done: true,
		response: {
			videos: videos.map((video, index) => ({
				bytesBase64Encoded: servedVideo(video, index).toString('base64'),
				mimeType: video.mimeType ?? 'video/mp4',
			})),
		},
	};
	const parsed = longRunningFamily.parseTaskRecord(answer, {
		model: 'veo-x',
		traceId: null,
		createdAt: null,
	});
	const stored: IBinaryData[] = [];
	const context = {
		helpers: {
			prepareBinaryData: async (bytes: Buffer, fileName: string, mimeType: string) => {
				const extension = fileName.slice(fileName.lastIndexOf('.') + 1);
				const binary = {
					data: bytes.toString('base64'),
					mimeType,
					fileName,
					fileExtension: extension,
				} as IBinaryData;
				stored.push(binary);
				return binary;
			},
		},
	};
	return await taskItem(context as never, parsed, 0, 'data');
}

describe('Get Status of a long-running operation with inline videos', () => {
	it.each([
		['one video', [{ bytes: 3000 }]],
		[
			'three videos, escaped slashes, another type, a size across read pieces',
			[
				{ bytes: 1000, escapeSlashes: true },
				{ bytes: 800_000, mimeType: 'video/webm' },
				{ bytes: 2, escapeSlashes: true },
			],
		],
	])('outputs the same JSON and binary data as reading the answer whole: %s', async (_, videos) => {
		gateway.serve(videos);
		const result = await runNode(getStatus(), {
			credentials: { modelGatewayApi: { baseUrl: gateway.baseUrl, apiKey: gateway.apiKey } },
		});
		expect(result.error('Node Under Test')).toBeUndefined();
		const [item] = result.items;
		const before = await outputParsedWhole(videos);
		const { traceId, ...json } = item.json;
		const { traceId: _unused, ...beforeJson } = before.json;
		expect(typeof traceId).toBe('string');
		expect(Date.parse(String(json.lastCheckedAt))).not.toBeNaN();
		expect({ ...json, createdAt: null, lastCheckedAt: null }).toEqual({
			...beforeJson,
			createdAt: null,
			lastCheckedAt: null,
		});
		expect(Object.keys(item.binary ?? {})).toEqual(Object.keys(before.binary ?? {}));
		for (const [property, binary] of Object.entries(before.binary ?? {})) {
			const { data: _data, ...metadata } = binary;
			expect(item.binary?.[property]).toMatchObject(metadata);
			const bytes = await binaryBytes(item, property);
			expect(bytes.length).toBe(Buffer.byteLength(binary.data, 'base64'));
			expect(bytes.equals(Buffer.from(binary.data, 'base64'))).toBe(true);
		}
	});
});

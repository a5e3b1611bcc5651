import { createServer, type Server, type ServerResponse } from 'node:http';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { MP4_FILE } from '../simulator/files';
import { binaryBytes, runNode, type RunResult } from './harness';

/**
 * Wait for Task's Download Result asks a result file host again when it failed for a moment
 * (a 5xx, a body that broke off): 3 attempts in all, 2 s and then 8 s apart, real waits. What
 * trying again cannot cure (a 404 of an expired link) is asked once. A download that failed for
 * good keeps the task on Succeeded with `downloadError` and `downloadRetryable`.
 */

const NODE = 'Node Under Test';
const VIDEO_PATH = '/files/video.mp4';

/** How the file host answers its n-th request (counting from 1). */
type FileRule = (request: number, res: ServerResponse) => void;

let server: Server;
let baseUrl: string;
let rule: FileRule;
/** Every request the file host got: when, and for what. */
const arrivals: Array<{ at: number; path: string }> = [];

const serveVideo = (res: ServerResponse) => {
	res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': MP4_FILE.bytes.length });
	res.end(MP4_FILE.bytes);
};
const answer = (res: ServerResponse, status: number) => {
	res.writeHead(status, { 'content-type': 'text/plain' });
	res.end(`HTTP ${status}`);
};

beforeAll(async () => {
	server = createServer((req, res) => {
		arrivals.push({ at: Date.now(), path: req.url ?? '' });
		rule(arrivals.length, res);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
	server.closeAllConnections();
	await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
	arrivals.length = 0;
});

/** A finished task as the Task Callback Trigger hands it on: nothing to query, one link. */
const finishedTask = (extra: IDataObject = {}): IDataObject => ({
	family: 'generic',
	taskId: 'video_retry',
	status: 'succeeded',
	done: true,
	videoUrl: `${baseUrl}${VIDEO_PATH}`,
	videoUrls: [`${baseUrl}${VIDEO_PATH}`],
	...extra,
});

/** Wait for Task with Download Result; the credential points at the file host, which any query would reach. */
async function download(task: IDataObject): Promise<INodeExecutionData> {
	const result: RunResult = await runNode(
		{ type: 'modelGatewayWaitForTask', parameters: { options: { downloadResult: true } } },
		{
			credentials: { modelGatewayApi: { baseUrl, apiKey: 'sk-unused' } },
			input: [{ json: task }],
		},
	);
	expect(result.error(NODE)).toBeUndefined();
	const [succeeded, failed, timedOut] =
		result.run.data.resultData.runData[NODE][0].data?.main ?? [];
	expect([failed?.length, timedOut?.length]).toEqual([0, 0]);
	expect(succeeded).toHaveLength(1);
	// Only the file was asked for: the finished task was not queried.
	expect(arrivals.every((arrival) => arrival.path === VIDEO_PATH)).toBe(true);
	return (succeeded ?? [])[0];
}

/** The pauses between the file host's requests, in ms. */
const gaps = () => arrivals.slice(1).map((arrival, index) => arrival.at - arrivals[index].at);

describe('Wait for Task’s Download Result tries a failing file host again, boundedly', () => {
	it('a file host answering 500 twice, then the file: the exact bytes are stored after 3 requests', async () => {
		rule = (request, res) => (request <= 2 ? answer(res, 500) : serveVideo(res));
		const item = await download(finishedTask());
		expect(await binaryBytes(item, 'data')).toEqual(MP4_FILE.bytes);
		expect(item.binary?.data).toMatchObject({ mimeType: 'video/mp4', fileName: 'video_retry.mp4' });
		expect(item.json).not.toHaveProperty('downloadError');
		expect(item.json).not.toHaveProperty('downloadRetryable');
		expect(arrivals).toHaveLength(3);
		const [first, second] = gaps();
		expect(first).toBeGreaterThanOrEqual(2_000);
		expect(second).toBeGreaterThanOrEqual(8_000);
	}, 30_000);

	it('a body that breaks off halfway is asked for again, and the whole file stored', async () => {
		rule = (request, res) => {
			if (request > 1) return serveVideo(res);
			res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': MP4_FILE.bytes.length });
			res.write(MP4_FILE.bytes.subarray(0, MP4_FILE.bytes.length >> 1), () => res.destroy());
		};
		const item = await download(finishedTask());
		expect(await binaryBytes(item, 'data')).toEqual(MP4_FILE.bytes);
		expect(item.json).not.toHaveProperty('downloadError');
		expect(arrivals).toHaveLength(2);
	}, 30_000);

	it('a 404 (an expired link) is asked once: downloadError names the URL, downloadRetryable is false', async () => {
		rule = (_request, res) => answer(res, 404);
		const item = await download(finishedTask());
		expect(item.binary).toBeUndefined();
		expect(item.json.downloadError).toBe(
			`Could not download the video of task video_retry from ${baseUrl}${VIDEO_PATH}: HTTP 404`,
		);
		expect(item.json.downloadRetryable).toBe(false);
		expect(arrivals).toHaveLength(1);
	});

	it('a 503 that does not pass: 3 requests, then downloadError says so and downloadRetryable is true', async () => {
		rule = (_request, res) => answer(res, 503);
		const item = await download(finishedTask());
		expect(item.binary).toBeUndefined();
		expect(item.json).toMatchObject({
			status: 'succeeded',
			downloadError: `Could not download the video of task video_retry from ${baseUrl}${VIDEO_PATH}: HTTP 503, after 3 attempts`,
			downloadRetryable: true,
		});
		expect(arrivals).toHaveLength(3);
	}, 30_000);

	it('an item fed back after a failed download loses the last run’s verdict once the file comes', async () => {
		rule = (_request, res) => serveVideo(res);
		const item = await download(
			finishedTask({ downloadError: 'Could not download … HTTP 503', downloadRetryable: true }),
		);
		expect(await binaryBytes(item, 'data')).toEqual(MP4_FILE.bytes);
		expect(item.json).not.toHaveProperty('downloadError');
		expect(item.json).not.toHaveProperty('downloadRetryable');
		expect(arrivals).toHaveLength(1);
	});
});

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { MP4_FILE } from '../simulator/files';
import { binaryBytes, runNode, type RunResult } from './harness';
import { useSimulator } from './simulatorFixture';
import { videoNode } from './videoNode';

/**
 * Downloads follow http and https only, redirects included (issue 54): a finished task whose
 * video URL is `data:` (a forged callback handed on, a gateway gone wrong) must not be stored
 * as the video, and a result link that redirects to `file:` or `data:` must not be followed.
 * Each refusal says why, names the scheme, and stores nothing.
 */

const gateway = useSimulator({ queuedMs: 0, runningMs: 0 });
const NODE = 'Node Under Test';
const DATA_VIDEO = `data:video/mp4;base64,${MP4_FILE.bytes.toString('base64')}`;
const REFUSED_NOTE =
	'Downloads follow http and https URLs only, redirects included: nothing was fetched from it and nothing was stored.';

/** The result file at `path` answers once with a redirect to `location` (a CDN gone wrong). */
const redirectFile = (path: string, status: number, location: string) =>
	gateway.simulator.injectFault({
		method: 'GET',
		path,
		kind: 'status',
		status,
		headers: { location },
		body: {},
	});

const downloadingWait = () => ({
	type: 'modelGatewayWaitForTask',
	parameters: { options: { downloadResult: true } },
});

function succeededOutput(result: RunResult): INodeExecutionData[] {
	const runs = result.run.data.resultData.runData[NODE];
	return runs?.[runs.length - 1]?.data?.main?.[0] ?? [];
}

/** A generic task, finished, as Wait for Task hands it on (with its result link). */
async function finishedTask(): Promise<IDataObject> {
	const created = await runNode(
		videoNode('generic', 'create', { model: 'g-video', genericPrompt: 'a fox' }),
		{ credentials: gateway.credentials() },
	);
	const waited = await runNode(
		{ type: 'modelGatewayWaitForTask', parameters: {} },
		{
			credentials: gateway.credentials(),
			input: [
				{
					json: {
						...created.items[0].json,
						createdAt: new Date(Date.now() - 300_000).toISOString(),
					},
				},
			],
		},
	);
	const [done] = succeededOutput(waited);
	expect(done.json).toMatchObject({ status: 'succeeded', videoUrls: [expect.any(String)] });
	return done.json;
}

describe('Wait for Task’s Download Result fetches http and https only', () => {
	it('a handed-on task whose video URL is data: is not stored; downloadError names the scheme', async () => {
		const task = await finishedTask();
		const result = await runNode(downloadingWait(), {
			credentials: gateway.credentials(),
			input: [{ json: { ...task, videoUrl: DATA_VIDEO, videoUrls: [DATA_VIDEO] } }],
		});
		const [item] = succeededOutput(result);
		expect(item.json.downloadError).toBe(
			`Could not download the video of task ${String(task.taskId)}: its URL is a data: URL`,
		);
		expect(item.binary).toBeUndefined();
	});

	it.each([
		['file:', 'file:///etc/passwd'],
		['data:', DATA_VIDEO],
	])(
		'a result link redirecting to a %s URL is not followed; nothing is stored',
		async (scheme, target) => {
			const task = await finishedTask();
			const link = String((task.videoUrls as string[])[0]);
			redirectFile(new URL(link).pathname, 302, target);
			const result = await runNode(downloadingWait(), {
				credentials: gateway.credentials(),
				input: [{ json: task }],
			});
			const [item] = succeededOutput(result);
			expect(item.json.downloadError).toBe(
				`Could not download the video of task ${String(task.taskId)} from ${link}: it redirected (HTTP 302) to a ${scheme} URL, which was not followed`,
			);
			expect(item.binary).toBeUndefined();
		},
	);

	it('a redirect to an http URL is followed, and the file stored', async () => {
		const task = await finishedTask();
		const link = String((task.videoUrls as string[])[0]);
		const path = new URL(link).pathname;
		redirectFile(path, 307, `${path}?moved=1`);
		const result = await runNode(downloadingWait(), {
			credentials: gateway.credentials(),
			input: [{ json: task }],
		});
		const [item] = succeededOutput(result);
		expect(item.json.downloadError).toBeUndefined();
		expect(await binaryBytes(item, 'data')).toEqual(MP4_FILE.bytes);
	});
});

describe('Image Edit’s result download fetches http and https only', () => {
	it('a result image URL redirecting to file: fails the item with the reason; nothing is stored', async () => {
		redirectFile('/files/', 301, 'file:///etc/passwd');
		const result = await runNode(
			{
				type: 'modelGatewayImageEdit',
				parameters: {
					model: 'image-edit-1',
					prompt: 'Make the sky purple',
					images: { values: [{ source: 'url', url: 'https://example.com/photo.png' }] },
				},
			},
			{ credentials: gateway.credentials() },
		);
		const error = result.error(NODE);
		expect(error?.message).toMatch(
			/^Could not download result image 1 of 1 from http:\/\/.+: it redirected \(HTTP 301\) to a file: URL, which was not followed$/,
		);
		expect(error?.description).toBe(REFUSED_NOTE);
		expect(result.items).toEqual([]);
	});
});

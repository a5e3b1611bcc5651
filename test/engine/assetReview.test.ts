import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';

const gateway = useSimulator();

const REVIEW_PATH = '/api/overseas/asset/upload/sync';
const NODE = 'Node Under Test';

const reviewNode = (parameters: IDataObject, continueOnFail = false) => ({
	type: 'modelGatewayAssetReview',
	parameters,
	...(continueOnFail ? { continueOnFail: true } : {}),
});

const listOf = (...urls: string[]) => ({
	urlSource: 'list',
	assetUrls: { values: urls.map((url) => ({ url })) },
});

/** A local HTTP endpoint standing in for the callback trigger; resolves with the first body posted. */
async function startCallbackReceiver(): Promise<{
	url: string;
	firstBody: Promise<unknown>;
	close: () => Promise<void>;
}> {
	let resolveBody: (body: unknown) => void = () => undefined;
	const firstBody = new Promise<unknown>((resolve) => {
		resolveBody = resolve;
	});
	const server = createServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			response.end('ok');
			resolveBody(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}`,
		firstBody,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

const reviewRequests = () => gateway.simulator.requestsTo('POST', REVIEW_PATH);

describe('Model Gateway Asset Review through the real engine', () => {
	it('submits a URL list with X-Access-Token only and reports a finished review with a rejected asset', async () => {
		const result = await runNode(
			reviewNode(listOf('https://cdn.example/ok.png', 'https://cdn.example/reject-me.png')),
			{
				credentials: gateway.credentials(),
			},
		);
		expect(result.error(NODE)).toBeUndefined();
		const [request] = reviewRequests();
		expect(reviewRequests()).toHaveLength(1);
		expect(request.host).toBe('identity');
		expect(request.headers['x-access-token']).toBe(gateway.simulator.accessToken);
		expect(request.headers.authorization).toBeUndefined();
		expect(request.headers['x-trace-id']).toBeUndefined();
		expect(request.body).toEqual({
			images: ['https://cdn.example/ok.png', 'https://cdn.example/reject-me.png'],
			asset_type: 'Image',
		});

		expect(result.items).toHaveLength(1);
		const summary = result.items[0].json;
		expect(summary).toMatchObject({
			finished: true,
			status: 'completed',
			code: 200,
			sentAs: 'images',
			assetCount: 2,
			passedCount: 1,
			rejectedCount: 1,
			hasErrors: true,
			rejectedAssets: [
				{
					assetUrl: 'https://cdn.example/reject-me.png',
					errorCode: 'CONTENT_VIOLATION',
					errorMessage: 'The asset violates the content policy.',
				},
			],
		});
		expect(summary.taskId).toMatch(/^review_/);
		expect(summary.trackId).toMatch(/^track_/);
		expect(((summary.raw as IDataObject).result as IDataObject).items).toHaveLength(2);
		expect(summary.nextStep).toBeUndefined();
		expect(result.items[0].pairedItem).toEqual({ item: 0 });
	});

	it('outputs one item per asset, flagged for an IF node, when asked to', async () => {
		const result = await runNode(
			reviewNode({
				...listOf('https://cdn.example/ok.png', 'https://cdn.example/reject-me.png'),
				splitByAsset: true,
			}),
			{ credentials: gateway.credentials(), input: [{ json: { row: 'a' } }] },
		);
		expect(result.items).toHaveLength(2);
		const [passed, rejected] = result.items.map((item) => item.json);
		expect(passed).toMatchObject({
			assetUrl: 'https://cdn.example/ok.png',
			outcome: 'passed',
			passed: true,
			hasError: false,
			submitReviewStatus: 1,
			errorCode: '',
			finished: true,
			status: 'completed',
			sentAs: 'images',
		});
		expect(passed.downstreamFinalUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\//);
		expect(passed.downstreamAssetId).toMatch(/^ds_/);
		expect(rejected).toMatchObject({
			assetUrl: 'https://cdn.example/reject-me.png',
			outcome: 'rejected',
			passed: false,
			hasError: true,
			submitReviewStatus: 2,
			errorCode: 'CONTENT_VIOLATION',
		});
		expect(passed.taskId).toBe(rejected.taskId);
		expect(result.items.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }]);
	});

	it('reports an accepted but unfinished review (202) as a success; the final result then reaches the callback URL', async () => {
		const receiver = await startCallbackReceiver();
		try {
			const callbackUrl = `${receiver.url}/webhook/asset-review`;
			const result = await runNode(
				reviewNode({
					...listOf('https://cdn.example/async-1.png', 'https://cdn.example/async-reject.png'),
					options: { callbackUrl },
				}),
				{ credentials: gateway.credentials() },
			);
			expect(result.error(NODE)).toBeUndefined();
			expect(reviewRequests()[0].body).toEqual({
				images: ['https://cdn.example/async-1.png', 'https://cdn.example/async-reject.png'],
				asset_type: 'Image',
				callback_url: callbackUrl,
			});
			const summary = result.items[0].json;
			expect(summary).toMatchObject({
				finished: false,
				status: 'processing',
				code: 202,
				passedCount: 0,
				rejectedCount: 0,
				hasErrors: false,
			});
			expect(summary.nextStep).toBe(
				`The review was accepted but is not finished yet (code 202). The final result will be posted to the callback URL ${callbackUrl}: receive it with a Model Gateway Task Callback Trigger listening there, then route on each asset's errorCode.`,
			);

			// What the hint promises: the finished review for the same task arrives by callback.
			const delivered = (await receiver.firstBody) as IDataObject;
			expect(delivered).toMatchObject({ code: 200, status: 'completed', task_id: summary.taskId });
			expect(
				((delivered.result as IDataObject).items as IDataObject[]).map((item) => item.error_code),
			).toEqual(['', 'CONTENT_VIOLATION']);
		} finally {
			await receiver.close();
		}
	});

	it('treats a video review as unfinished and, per asset, as pending; without a callback URL it says how to get the result', async () => {
		const result = await runNode(
			reviewNode({
				...listOf('https://cdn.example/clip.mp4'),
				assetType: 'Video',
				splitByAsset: true,
			}),
			{ credentials: gateway.credentials() },
		);
		expect(reviewRequests()[0].body).toEqual({
			images: ['https://cdn.example/clip.mp4'],
			asset_type: 'Video',
		});
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({
			assetUrl: 'https://cdn.example/clip.mp4',
			outcome: 'pending',
			passed: false,
			hasError: false,
			finished: false,
			status: 'processing',
		});
		expect(result.items[0].json.nextStep).toMatch(
			/No callback URL was set.*submit the same URLs again/,
		);
	});

	it('reads URLs from an expression, as a list or as text', async () => {
		const result = await runNode(
			reviewNode({ urlSource: 'expression', urls: '={{ $json.urls }}' }),
			{
				credentials: gateway.credentials(),
				input: [
					{ json: { urls: ['https://cdn.example/a.png', 'https://cdn.example/b.png'] } },
					{
						json: {
							urls: 'https://cdn.example/c.png\nhttps://cdn.example/d.png?w=1,2, https://cdn.example/e.png',
						},
					},
				],
			},
		);
		expect(result.error(NODE)).toBeUndefined();
		expect(reviewRequests().map((request) => (request.body as IDataObject).images)).toEqual([
			['https://cdn.example/a.png', 'https://cdn.example/b.png'],
			['https://cdn.example/c.png', 'https://cdn.example/d.png?w=1,2', 'https://cdn.example/e.png'],
		]);
		expect(result.items.map((item) => [item.json.assetCount, item.pairedItem])).toEqual([
			[2, { item: 0 }],
			[3, { item: 1 }],
		]);
	});

	it('gathers URLs from many items, splits them into requests of 50 and pairs every asset with its item', async () => {
		const urls = Array.from(
			{ length: 61 },
			(_, index) => `https://cdn.example/${index % 10 === 3 ? 'reject' : 'img'}-${index}.png`,
		);
		const result = await runNode(
			reviewNode({ urlSource: 'aggregate', urlPerItem: '={{ $json.url }}', splitByAsset: true }),
			{
				credentials: gateway.credentials(),
				input: urls.map((url, index) => ({ json: { url, index } })),
			},
		);
		expect(result.error(NODE)).toBeUndefined();
		const requests = reviewRequests();
		expect(
			requests.map((request) => ((request.body as IDataObject).images as string[]).length),
		).toEqual([50, 11]);
		expect(requests.flatMap((request) => (request.body as IDataObject).images as string[])).toEqual(
			urls,
		);

		expect(result.items).toHaveLength(61);
		for (const [index, item] of result.items.entries()) {
			expect(item.pairedItem).toEqual([{ item: index }]);
			expect(item.json.assetUrl).toBe(urls[index]);
			expect(item.json.hasError).toBe(urls[index].includes('reject'));
			expect(item.json.passed).toBe(!urls[index].includes('reject'));
		}
		const taskIds = new Set(result.items.map((item) => item.json.taskId));
		expect(taskIds.size).toBe(2);
	});

	it('in aggregate mode without splitting, outputs one item per request paired with all its items', async () => {
		const input = [
			{ json: { url: 'https://cdn.example/a.png' } },
			{ json: { url: ['https://cdn.example/b.png', 'https://cdn.example/reject-c.png'] } },
		];
		const result = await runNode(
			reviewNode({ urlSource: 'aggregate', urlPerItem: '={{ $json.url }}' }),
			{
				credentials: gateway.credentials(),
				input,
			},
		);
		expect(reviewRequests()).toHaveLength(1);
		expect((reviewRequests()[0].body as IDataObject).images).toEqual([
			'https://cdn.example/a.png',
			'https://cdn.example/b.png',
			'https://cdn.example/reject-c.png',
		]);
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({ assetCount: 3, passedCount: 2, rejectedCount: 1 });
		expect(result.items[0].pairedItem).toEqual([{ item: 0 }, { item: 1 }]);
	});

	it.each([
		['ftp://cdn.example/a.png', 'uses ftp'],
		['not a url', 'is not a valid URL'],
		['http://localhost:8080/a.png', 'private or local host'],
	])('rejects %s before sending anything, naming the URL', async (badUrl, reason) => {
		const result = await runNode(reviewNode(listOf('https://cdn.example/ok.png', badUrl)), {
			credentials: gateway.credentials(),
		});
		const error = result.error(NODE);
		expect(error?.name).toBe('NodeOperationError');
		expect(error?.message).toContain('Item 0: "images[1]"');
		expect(error?.message).toContain(`"${badUrl}"`);
		expect(error?.message).toContain(reason);
		expect(gateway.simulator.requests).toHaveLength(0);
	});

	it('in aggregate mode, names the item with a bad URL and sends nothing; under Continue On Fail the other items go through', async () => {
		const input = [
			{ json: { url: 'https://cdn.example/a.png' } },
			{ json: { url: 'mailto:someone@example.com' } },
			{ json: { url: 'https://cdn.example/b.png' } },
		];
		const stopped = await runNode(
			reviewNode({ urlSource: 'aggregate', urlPerItem: '={{ $json.url }}' }),
			{
				credentials: gateway.credentials(),
				input,
			},
		);
		expect(stopped.error(NODE)?.message).toMatch(
			/^Item 1: "images\[0\]": "mailto:someone@example.com" uses mailto/,
		);
		expect(gateway.simulator.requests).toHaveLength(0);

		const continued = await runNode(
			reviewNode(
				{ urlSource: 'aggregate', urlPerItem: '={{ $json.url }}', splitByAsset: true },
				true,
			),
			{ credentials: gateway.credentials(), input },
		);
		expect((reviewRequests()[0].body as IDataObject).images).toEqual([
			'https://cdn.example/a.png',
			'https://cdn.example/b.png',
		]);
		const byPairing = continued.items.map((item) => [
			item.pairedItem,
			item.json.error ? 'error' : item.json.assetUrl,
		]);
		expect(byPairing).toEqual([
			[[{ item: 0 }], 'https://cdn.example/a.png'],
			[{ item: 1 }, 'error'],
			[[{ item: 2 }], 'https://cdn.example/b.png'],
		]);
	});

	it('refuses more than 50 URLs in one request, naming the limit', async () => {
		const urls = Array.from({ length: 51 }, (_, index) => `https://cdn.example/${index}.png`);
		const result = await runNode(reviewNode(listOf(...urls)), {
			credentials: gateway.credentials(),
		});
		expect(result.error(NODE)?.message).toMatch(
			/^Item 0: "images": must have at most 50 URLs per request/,
		);
		expect(gateway.simulator.requests).toHaveLength(0);
	});

	it('sends only asset_url_list when a legacy list is given too, and says so', async () => {
		const result = await runNode(
			reviewNode({
				...listOf('https://cdn.example/new.png'),
				options: {
					legacyAssetUrls:
						'https://cdn.example/legacy-1.png\nhttps://cdn.example/reject-legacy.png',
				},
			}),
			{ credentials: gateway.credentials() },
		);
		expect(result.error(NODE)).toBeUndefined();
		expect(reviewRequests()[0].body).toEqual({
			asset_url_list: ['https://cdn.example/legacy-1.png', 'https://cdn.example/reject-legacy.png'],
			asset_type: 'Image',
		});
		expect(result.items[0].json).toMatchObject({
			sentAs: 'asset_url_list',
			assetCount: 2,
			rejectedCount: 1,
		});
		expect(result.items[0].json.notice).toMatch(
			/legacy list wins: only asset_url_list was sent, and the 1 other URL/,
		);
	});

	it('can send the URLs as the legacy field alone', async () => {
		const result = await runNode(
			reviewNode({
				...listOf('https://cdn.example/a.png'),
				splitByAsset: true,
				options: { sendAs: 'asset_url_list' },
			}),
			{ credentials: gateway.credentials() },
		);
		expect(reviewRequests()[0].body).toEqual({
			asset_url_list: ['https://cdn.example/a.png'],
			asset_type: 'Image',
		});
		expect(result.items[0].json).toMatchObject({ sentAs: 'asset_url_list', passed: true });
		expect(result.items[0].json.notice).toBeUndefined();
	});

	it('explains a wrong access token (401)', async () => {
		gateway.expectViolations('wrong-credential');
		const result = await runNode(reviewNode(listOf('https://cdn.example/a.png')), {
			credentials: gateway.credentials({ accessToken: 'wrong-token' }),
		});
		const error = result.error(NODE);
		expect(error?.message).toBe(
			'The identity host rejected the access token (HTTP 401: invalid access token)',
		);
		expect(error?.description).toContain('Model Gateway Asset Review API');
		expect(error).toMatchObject({ httpCode: '401' });
		expect(reviewRequests()).toHaveLength(1);
	});

	it('allows Group Source only with a Group ID', async () => {
		const refused = await runNode(
			reviewNode({
				...listOf('https://cdn.example/face.png'),
				options: { groupSource: 'real_person' },
			}),
			{ credentials: gateway.credentials() },
		);
		expect(refused.error(NODE)?.message).toBe(
			'Item 0: "group_source": "real_person" is only allowed together with a Group ID ("group_id")',
		);
		expect(gateway.simulator.requests).toHaveLength(0);

		const unknownSource = await runNode(
			reviewNode({
				...listOf('https://cdn.example/face.png'),
				options: { groupId: 'g-1', groupSource: '={{ "celebrity" }}' },
			}),
			{ credentials: gateway.credentials() },
		);
		expect(unknownSource.error(NODE)?.message).toBe(
			'Item 0: "group_source": must be empty or "real_person"',
		);
		expect(gateway.simulator.requests).toHaveLength(0);

		const accepted = await runNode(
			reviewNode({
				...listOf('https://cdn.example/face.png'),
				splitByAsset: true,
				options: { groupId: 'g-1', groupSource: 'real_person' },
			}),
			{ credentials: gateway.credentials() },
		);
		expect(reviewRequests()[0].body).toEqual({
			images: ['https://cdn.example/face.png'],
			asset_type: 'Image',
			group_id: 'g-1',
			group_source: 'real_person',
		});
		expect(accepted.items[0].json).toMatchObject({
			effectiveGroupId: 'g-1',
			groupSource: 'real_person',
			passed: true,
		});
	});

	it('turns a failed batch into an error, or an error item under Continue On Fail', async () => {
		const failed = await runNode(reviewNode(listOf('https://cdn.example/batchfail.png')), {
			credentials: gateway.credentials(),
		});
		const error = failed.error(NODE);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('The asset review failed: review service failed');
		expect(error?.description).toMatch(/status "failed" \(task_id review_/);

		const continued = await runNode(reviewNode(listOf('https://cdn.example/batchfail.png'), true), {
			credentials: gateway.credentials(),
			input: [{ json: {} }, { json: {} }],
		});
		expect(continued.items.map((item) => [item.json.error, item.pairedItem])).toEqual([
			['The asset review failed: review service failed', { item: 0 }],
			['The asset review failed: review service failed', { item: 1 }],
		]);
	});

	it("reports the review service's own error code inside HTTP 200 with its message", async () => {
		gateway.simulator.injectFault({
			kind: 'status',
			path: REVIEW_PATH,
			status: 200,
			body: { code: 429, message: 'too many review requests' },
		});
		const result = await runNode(reviewNode(listOf('https://cdn.example/a.png')), {
			credentials: gateway.credentials(),
		});
		const error = result.error(NODE);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe('too many review requests');
		expect(reviewRequests()).toHaveLength(1);
	});

	it('never repeats a review request the gateway may have received (it could be billed twice)', async () => {
		gateway.simulator.injectFault({
			kind: 'status',
			path: REVIEW_PATH,
			status: 503,
			times: 3,
			body: { code: 503, message: 'review busy' },
		});
		const result = await runNode(reviewNode(listOf('https://cdn.example/a.png')), {
			credentials: gateway.credentials(),
		});
		expect(result.error(NODE)?.message).toBe('review busy');
		expect(result.error(NODE)).toMatchObject({ httpCode: '503' });
		expect(reviewRequests()).toHaveLength(1);
	});

	it('reports an answer that is not a review result instead of inventing one', async () => {
		gateway.simulator.injectFault({ kind: 'status', path: REVIEW_PATH, status: 200, body: [1, 2] });
		const result = await runNode(reviewNode(listOf('https://cdn.example/a.png')), {
			credentials: gateway.credentials(),
		});
		expect(result.error(NODE)?.message).toBe(
			'The identity host answered with something that is not an asset review result',
		);
		// Held to the review's success rule by the transport, as every answer is (issue 39).
		expect(result.error(NODE)?.description).toBe(
			`POST ${REVIEW_PATH} answered HTTP 200 with error code NO_ANSWER`,
		);
		expect(reviewRequests()).toHaveLength(1);
	});
});

describe('Asset Review, Aggregate Items: a request fails after others were submitted', () => {
	// 51 items, one URL each: two requests (50 + 1); the second fails inside HTTP 200.
	const input = Array.from({ length: 51 }, (_, index) => ({
		json: {
			url: `https://cdn.example/${index === 50 ? 'batchfail' : 'asset'}-${index}.png`,
		},
	}));
	const aggregate = { urlSource: 'aggregate', urlPerItem: '={{ $json.url }}' };

	it('the node stops and names the review already submitted (and billed), by its first item', async () => {
		const result = await runNode(reviewNode(aggregate), {
			credentials: gateway.credentials(),
			input,
		});
		expect(reviewRequests()).toHaveLength(2);
		const error = result.error(NODE) as unknown as {
			message: string;
			description: string;
			context: IDataObject;
		};
		expect(error.message).toBe('The asset review failed: review service failed');
		const [first] = reviewRequests();
		expect((first.body as IDataObject).images).toHaveLength(50);
		expect(error.context.createdBeforeFailure).toEqual([
			{ itemIndex: 0, id: expect.stringMatching(/^review task review_/) },
		]);
		const [{ id }] = error.context.createdBeforeFailure as Array<{ id: string }>;
		expect(error.description).toContain(
			`Created (and billed) before the node stopped, not in any output: item 0: ${id}.`,
		);
	});

	it('under Continue On Fail, the failed request becomes an error item of its own item, in input order', async () => {
		const result = await runNode(reviewNode({ ...aggregate, splitByAsset: true }, true), {
			credentials: gateway.credentials(),
			input,
		});
		expect(result.error(NODE)).toBeUndefined();
		expect(result.items).toHaveLength(51);
		expect(result.items.slice(0, 50).map((item) => item.json.passed)).toEqual(Array(50).fill(true));
		expect(result.items[50].json.error).toBe('The asset review failed: review service failed');
		expect(result.items[50].pairedItem).toEqual({ item: 50 });
	});
});

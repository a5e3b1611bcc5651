import type { IDataObject } from 'n8n-workflow';

import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';

/**
 * Asset Review answers the simulator does not give on its own, and requests that cannot be
 * built in Aggregate Items mode: a failed review says why in the best words the identity host
 * gave, a review still processing is unfinished whatever its code, a 403 names the credential,
 * and a result the node did not ask about is still output, paired with the items it could
 * belong to.
 */

const gateway = useSimulator();

const NODE = 'Node Under Test';
const REVIEW_PATH = '/api/overseas/asset/upload/sync';
const A_URL = 'https://cdn.example/a.png';
const B_URL = 'https://cdn.example/b.png';

const reviewNode = (parameters: IDataObject) => ({ type: 'modelGatewayAssetReview', parameters });
const listOf = (...urls: string[]) => ({
	urlSource: 'list',
	assetUrls: { values: urls.map((url) => ({ url })) },
});
const aggregate = { urlSource: 'aggregate', urlPerItem: '={{ $json.url }}' };

const answerWith = (body: object, status = 200) =>
	gateway.simulator.injectFault({
		method: 'POST',
		path: REVIEW_PATH,
		kind: 'status',
		status,
		body,
	});
const reviewRequests = () => gateway.simulator.requestsTo('POST', REVIEW_PATH);

const passedItem = (url: string, assetId: string): IDataObject => ({
	asset_id: assetId,
	source_url: url,
	asset_url: url,
	error_code: '',
	error_message: '',
});

describe('Asset Review: a failed review without per-asset results', () => {
	it.each([
		[
			'the message when the error message is blank',
			{ status: 'failed', error_message: '  ', message: ' quota exhausted ' },
			'The asset review failed: quota exhausted',
			'The identity host answered code - with status "failed" (task_id -, track_id -) and no per-asset results. No asset of this request was reviewed.',
		],
		[
			'its status when it gives no words at all',
			{ code: '200', status: 'FAILED', task_id: 'review_9' },
			'The asset review failed: status FAILED',
			'The identity host answered code 200 with status "FAILED" (task_id review_9, track_id -) and no per-asset results. No asset of this request was reviewed.',
		],
		[
			'the error message when there is one, whatever the status',
			{ code: 200, error_message: 'upstream unavailable', track_id: 'track_3' },
			'The asset review failed: upstream unavailable',
			'The identity host answered code 200 with status "-" (task_id -, track_id track_3) and no per-asset results. No asset of this request was reviewed.',
		],
	])('says why with %s', async (_case, answer, message, description) => {
		answerWith(answer);
		const result = await runNode(reviewNode(listOf(A_URL)), {
			credentials: gateway.credentials(),
		});
		const error = result.error(NODE);
		expect(result.items).toEqual([]);
		expect(error?.name).toBe('NodeApiError');
		expect(error?.message).toBe(message);
		expect(error?.description).toBe(description);
		expect(reviewRequests()).toHaveLength(1);
	});
});

describe('Asset Review: answers that are not failures', () => {
	it('a review answered with code 200 but still processing is unfinished', async () => {
		answerWith({ code: 200, status: 'Processing', task_id: 'review_p' });
		const result = await runNode(reviewNode(listOf(A_URL)), {
			credentials: gateway.credentials(),
		});
		expect(result.error(NODE)).toBeUndefined();
		expect(result.items).toHaveLength(1);
		expect(result.items[0].json).toMatchObject({
			finished: false,
			status: 'Processing',
			taskId: 'review_p',
			passedCount: 0,
			rejectedCount: 0,
		});
		expect(result.items[0].json.nextStep).toEqual(expect.stringContaining('No callback URL'));
	});

	it('a blank asset type is sent as Image', async () => {
		const result = await runNode(reviewNode({ ...listOf(A_URL), assetType: '={{ "" }}' }), {
			credentials: gateway.credentials(),
		});
		expect(result.error(NODE)).toBeUndefined();
		expect(reviewRequests()[0].body).toEqual({ images: [A_URL], asset_type: 'Image' });
		expect(result.items[0].json).toMatchObject({ passedCount: 1, finished: true });
	});

	it('per item, split by asset: each asset carries the notice that the legacy list won', async () => {
		const result = await runNode(
			reviewNode({
				...listOf(A_URL),
				splitByAsset: true,
				options: { legacyAssetUrls: `${B_URL}\nhttps://cdn.example/reject-c.png` },
			}),
			{ credentials: gateway.credentials() },
		);
		expect(result.error(NODE)).toBeUndefined();
		expect(reviewRequests()[0].body).toEqual({
			asset_url_list: [B_URL, 'https://cdn.example/reject-c.png'],
			asset_type: 'Image',
		});
		expect(result.items.map((item) => [item.json.assetUrl, item.json.passed])).toEqual([
			[B_URL, true],
			['https://cdn.example/reject-c.png', false],
		]);
		for (const item of result.items) {
			expect(item.json).toMatchObject({ sentAs: 'asset_url_list' });
			expect(item.json.notice).toMatch(/legacy list wins/);
			expect(item.pairedItem).toEqual({ item: 0 });
		}
	});
});

describe('Asset Review: the identity host refuses the access token', () => {
	it('a 403 says the token may not submit reviews and points at the credential', async () => {
		answerWith({ code: 403, message: 'token lacks the review scope' }, 403);
		const result = await runNode(reviewNode(listOf(A_URL)), {
			credentials: gateway.credentials(),
		});
		const error = result.error(NODE);
		expect(error).toMatchObject({ httpCode: '403' });
		expect(error?.message).toBe(
			'The access token is not allowed to submit asset reviews (HTTP 403: token lacks the review scope)',
		);
		expect(error?.description).toContain('"Model Gateway Asset Review API" credential');
		expect(reviewRequests()).toHaveLength(1);
	});
});

describe('Asset Review, Aggregate Items', () => {
	it('a request that cannot be built stops the node before anything is sent, naming its first item', async () => {
		const result = await runNode(
			reviewNode({ ...aggregate, options: { groupSource: 'real_person' } }),
			{
				credentials: gateway.credentials(),
				input: [{ json: { url: A_URL } }, { json: { url: B_URL } }],
			},
		);
		expect(result.items).toEqual([]);
		expect(result.error(NODE)?.message).toBe(
			'Item 0: "group_source": "real_person" is only allowed together with a Group ID ("group_id")',
		);
		expect(gateway.simulator.requests).toHaveLength(0);
	});

	it('under Continue On Fail, a request that cannot be built is an error item for each of its items', async () => {
		const result = await runNode(
			{
				...reviewNode({ ...aggregate, options: { groupSource: 'real_person' } }),
				continueOnFail: true,
			},
			{
				credentials: gateway.credentials(),
				input: [{ json: { url: A_URL } }, { json: { url: B_URL } }],
			},
		);
		expect(result.error(NODE)).toBeUndefined();
		expect(result.items.map((item) => [item.json.error, item.pairedItem])).toEqual([
			[
				'Item 0: "group_source": "real_person" is only allowed together with a Group ID ("group_id")',
				{ item: 0 },
			],
			[
				'Item 0: "group_source": "real_person" is only allowed together with a Group ID ("group_id")',
				{ item: 1 },
			],
		]);
		expect(gateway.simulator.requests).toHaveLength(0);
	});

	it('a result for a URL that was not sent is output too, paired with every item of its request', async () => {
		const stray = 'https://cdn.example/never-sent.png';
		answerWith({
			code: 200,
			status: 'completed',
			task_id: 'review_s',
			result: {
				items: [passedItem(B_URL, 'b'), passedItem(stray, 's'), passedItem(A_URL, 'a')],
			},
		});
		const result = await runNode(reviewNode({ ...aggregate, splitByAsset: true }), {
			credentials: gateway.credentials(),
			input: [{ json: { url: A_URL } }, { json: { url: B_URL } }],
		});
		expect(result.error(NODE)).toBeUndefined();
		expect(
			result.items.map((item) => [item.json.assetUrl, item.json.assetId, item.pairedItem]),
		).toEqual([
			[A_URL, 'a', [{ item: 0 }]],
			[stray, 's', [{ item: 0 }, { item: 1 }]],
			[B_URL, 'b', [{ item: 1 }]],
		]);
	});
});

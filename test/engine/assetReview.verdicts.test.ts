import type { IDataObject } from 'n8n-workflow';

import { runNode } from './harness';
import { useSimulator } from './simulatorFixture';

/**
 * A review whose status is `failed` but which carries per-asset results: the assets were
 * reviewed and rejected, so their verdicts are output; only a failed review without any
 * per-asset result fails the item.
 */

const gateway = useSimulator();
const NODE = 'Node Under Test';
const REVIEW_PATH = '/api/overseas/asset/upload/sync';
const OK_URL = 'https://cdn.example/ok.png';
const BAD_URL = 'https://cdn.example/bad.png';

const failedReview = (items: IDataObject[]) => ({
	code: 200,
	status: 'failed',
	task_id: 'review_1',
	track_id: 'track_1',
	message: '',
	error_message: '1 of 2 assets failed review',
	result: { review_batch_id: 'batch_1', items },
});

const verdicts = [
	{ source_url: OK_URL, asset_url: OK_URL, error_code: '', error_message: '', asset_id: 'a1' },
	{
		source_url: BAD_URL,
		asset_url: BAD_URL,
		error_code: 'CONTENT_VIOLATION',
		error_message: 'The asset violates the content policy.',
		asset_id: 'a2',
	},
];

const answerWith = (body: object) =>
	gateway.simulator.injectFault({
		method: 'POST',
		path: REVIEW_PATH,
		kind: 'status',
		status: 200,
		body,
	});

const reviewNode = (splitByAsset: boolean) => ({
	type: 'modelGatewayAssetReview',
	parameters: {
		urlSource: 'list',
		assetUrls: { values: [{ url: OK_URL }, { url: BAD_URL }] },
		splitByAsset,
	},
});

it('outputs one item per asset with its verdict when a failed review carries per-asset results', async () => {
	answerWith(failedReview(verdicts));
	const result = await runNode(reviewNode(true), { credentials: gateway.credentials() });
	expect(result.error(NODE)).toBeUndefined();
	expect(result.items.map((item) => item.json)).toMatchObject([
		{ assetUrl: OK_URL, outcome: 'passed', passed: true, hasError: false, errorCode: '' },
		{
			assetUrl: BAD_URL,
			outcome: 'rejected',
			passed: false,
			hasError: true,
			errorCode: 'CONTENT_VIOLATION',
			errorMessage: 'The asset violates the content policy.',
		},
	]);
	expect(result.items.every((item) => item.json.status === 'failed')).toBe(true);
});

it('summarizes a failed review with per-asset results as counts and rejected assets', async () => {
	answerWith(failedReview(verdicts));
	const result = await runNode(reviewNode(false), { credentials: gateway.credentials() });
	expect(result.items).toHaveLength(1);
	expect(result.items[0].json).toMatchObject({
		status: 'failed',
		finished: true,
		assetCount: 2,
		passedCount: 1,
		rejectedCount: 1,
		hasErrors: true,
		rejectedAssets: [
			{
				assetUrl: BAD_URL,
				errorCode: 'CONTENT_VIOLATION',
				errorMessage: 'The asset violates the content policy.',
			},
		],
	});
});

it('fails the item only when the failed review carries no per-asset results', async () => {
	answerWith(failedReview([]));
	const result = await runNode(reviewNode(true), { credentials: gateway.credentials() });
	const error = result.error(NODE);
	expect(error?.name).toBe('NodeApiError');
	expect(error?.message).toBe('The asset review failed: 1 of 2 assets failed review');
	expect(error?.description).toBe(
		'The identity host answered code 200 with status "failed" (task_id review_1, track_id track_1) and no per-asset results. No asset of this request was reviewed.',
	);
});

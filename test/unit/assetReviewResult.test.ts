import { recognizeAssetReviewResult } from '../../nodes/ModelGatewayTaskTrigger/assetReviewResult';

/** The Task Trigger recognizing an asset review result in a callback body, tolerantly. */

describe('recognizeAssetReviewResult', () => {
	it.each([
		['not an object', 'completed'],
		['an array', []],
		['no task_id', { status: 'completed', track_id: 't' }],
		['a status that is not text', { task_id: 'r1', status: 200, track_id: 't' }],
		['neither result nor track_id', { task_id: 'r1', status: 'completed' }],
	])('is not one: %s', (_case, body) => {
		expect(recognizeAssetReviewResult(body)).toBeUndefined();
	});

	it('a finished review with sparse and odd items', () => {
		const body = {
			code: 200,
			task_id: 'r1',
			status: 'Completed',
			track_id: 'track-1',
			result: {
				review_batch_id: 7,
				items: [
					{ source_url: 'https://cdn.example/a.png', submit_review_status: '1', error_code: '0' },
					{ asset_id: 'x', error_code: 'CONTENT_VIOLATION', submit_review_status: 2 },
					{ error_message: 'unreadable', submit_review_status: 'n/a' },
					null,
				],
			},
		};
		const event = recognizeAssetReviewResult(body);
		expect(event).toMatchObject({
			family: 'assetReview',
			taskId: 'r1',
			status: 'succeeded',
			rawStatus: 'Completed',
			done: true,
			code: 200,
			trackId: 'track-1',
			reviewBatchId: '7',
			error: null,
			raw: body,
		});
		expect(
			event?.items.map(({ passed, submitReviewStatus, errorCode, errorMessage }) => [
				passed,
				submitReviewStatus,
				errorCode,
				errorMessage,
			]),
		).toEqual([
			[true, 1, '0', null],
			[false, 2, 'CONTENT_VIOLATION', null],
			[false, null, null, 'unreadable'],
			[true, null, null, null],
		]);
		expect(event?.items[0]).toMatchObject({
			sourceUrl: 'https://cdn.example/a.png',
			assetId: null,
			downstreamFinalUrl: null,
		});
	});

	it('a failed review: its error message, else its message, else a fallback; a review still processing', () => {
		const failed = (fields: object) =>
			recognizeAssetReviewResult({ task_id: 'r2', status: 'failed', track_id: 't', ...fields });
		expect(failed({ error_message: 'service down' })?.error).toEqual({
			code: 'review_failed',
			message: 'service down',
		});
		expect(failed({ message: 'quota' })?.error).toEqual({
			code: 'review_failed',
			message: 'quota',
		});
		expect(failed({})).toMatchObject({
			status: 'failed',
			done: true,
			code: null,
			reviewBatchId: null,
			items: [],
			error: { code: 'review_failed', message: 'The review failed' },
		});
		expect(
			recognizeAssetReviewResult({ task_id: 'r3', status: 'processing', result: {} }),
		).toMatchObject({ status: 'running', done: false, trackId: null, items: [], error: null });
		expect(
			recognizeAssetReviewResult({ task_id: 'r4', status: 'mystery', track_id: 't' }),
		).toMatchObject({ status: 'unknown', done: false });
	});
});

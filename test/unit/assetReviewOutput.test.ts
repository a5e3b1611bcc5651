import {
	assetJson,
	assetJsonList,
	matchAssets,
	reviewId,
	reviewSummaryJson,
} from '../../nodes/ModelGatewayAssetReview/output';
import type { SubmittedReview } from '../../nodes/ModelGatewayAssetReview/submit';

/** Asset Review's output items from answers the simulator does not give: sparse, reordered, extra. */

const review = (fields: Partial<SubmittedReview> & { items?: object[] }): SubmittedReview =>
	({
		finished: true,
		field: 'images',
		urls: ['https://cdn.example/a.png', 'https://cdn.example/b.png'],
		request: { images: [] },
		result: { code: 200, status: 'completed', result: { items: fields.items ?? [] } },
		...fields,
	}) as unknown as SubmittedReview;

describe('matchAssets', () => {
	const a = 'https://cdn.example/a.png';
	const b = 'https://cdn.example/b.png';

	it('by position when the addresses agree, else by address, else by position when counts agree', () => {
		expect(matchAssets([a, b], [{ asset_url: b }, { source_url: a }])).toEqual({
			matched: [{ source_url: a }, { asset_url: b }],
			unmatched: [],
		});
		expect(matchAssets([a, b], [{ asset_id: '1' }, { asset_id: '2' }]).matched).toEqual([
			{ asset_id: '1' },
			{ asset_id: '2' },
		]);
	});

	it('leaves a URL without an item pending, and an item for no URL unmatched', () => {
		expect(matchAssets([a, b], [{ source_url: 'https://cdn.example/other.png' }])).toEqual({
			matched: [undefined, undefined],
			unmatched: [{ source_url: 'https://cdn.example/other.png' }],
		});
	});
});

describe('asset output', () => {
	it('an error code 0 or empty is no error; an error message alone is', () => {
		const finished = review({});
		expect(assetJson(finished, 'u', { error_code: 0 })).toMatchObject({
			outcome: 'passed',
			passed: true,
			hasError: false,
			errorCode: 0,
		});
		expect(assetJson(finished, 'u', { error_code: '' }).outcome).toBe('passed');
		expect(assetJson(finished, 'u', { error_message: '  ' }).outcome).toBe('passed');
		expect(assetJson(finished, 'u', { error_message: 'blurry' })).toMatchObject({
			outcome: 'rejected',
			hasError: true,
			errorMessage: 'blurry',
		});
		expect(assetJson(finished, 'u', undefined)).toMatchObject({
			outcome: 'pending',
			passed: false,
			assetUrl: 'u',
			sourceUrl: 'u',
		});
	});

	it('a review without result, status or ids, and an unmatched item listed last', () => {
		const sparse = {
			...review({}),
			result: {},
		} as unknown as SubmittedReview;
		expect(assetJsonList(sparse).map(({ json }) => json.outcome)).toEqual(['pending', 'pending']);
		expect(assetJson(sparse, undefined, undefined)).toMatchObject({
			assetUrl: null,
			status: null,
			code: null,
			taskId: null,
			trackId: null,
			reviewBatchId: null,
		});
		const extra = review({
			urls: ['https://cdn.example/a.png'],
			items: [
				{ source_url: 'https://cdn.example/a.png' },
				{ asset_url: 'https://cdn.example/z.png' },
			],
		});
		const summary = reviewSummaryJson(extra, 'a notice');
		expect(summary).toMatchObject({
			assetCount: 1,
			passedCount: 2,
			message: null,
			notice: 'a notice',
		});
		expect(summary).not.toHaveProperty('nextStep');
	});

	it('an unfinished review without a callback URL says the result will not be delivered', () => {
		const unfinished = review({ finished: false });
		expect(String(reviewSummaryJson(unfinished).nextStep)).toMatch(
			/No callback URL was set, so the final result will not be delivered/,
		);
	});

	it('names a review by its task id, else its track id', () => {
		expect(reviewId({ json: { taskId: 't1', trackId: 'k1' } })).toBe('review task t1');
		expect(reviewId({ json: { taskId: '', trackId: 'k1' } })).toBe('review track k1');
		expect(reviewId({ json: {} })).toBeUndefined();
	});
});

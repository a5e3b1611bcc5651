import { chunkUrls } from '../../nodes/ModelGatewayAssetReview/aggregate';
import { matchAssets } from '../../nodes/ModelGatewayAssetReview/output';
import { chooseUrlField, toUrlList } from '../../nodes/ModelGatewayAssetReview/urls';
import {
	assetReviewRequestSchema,
	assetReviewResultSchema,
	publicUrlProblem,
} from '../../nodes/shared/schemas/assetReview';

describe('asset review building blocks', () => {
	it('reads URL lists from arrays, JSON text and plain text without breaking commas inside a URL', () => {
		expect(toUrlList(['https://a.test/1.png', ['https://a.test/2.png'], ''])).toEqual([
			'https://a.test/1.png',
			'https://a.test/2.png',
		]);
		expect(toUrlList('["https://a.test/1.png","https://a.test/2.png"]')).toEqual([
			'https://a.test/1.png',
			'https://a.test/2.png',
		]);
		expect(
			toUrlList(' https://a.test/1.png?crop=1,2,3, https://a.test/2.png\n\nhttps://a.test/3.png '),
		).toEqual(['https://a.test/1.png?crop=1,2,3', 'https://a.test/2.png', 'https://a.test/3.png']);
		expect(toUrlList('')).toEqual([]);
		expect(toUrlList(undefined)).toEqual([]);
		expect(toUrlList(42)).toEqual([42]);
	});

	it('lets a non-empty legacy list win, and only then says what was left out', () => {
		expect(chooseUrlField(['a'], [], 'images')).toEqual({ field: 'images', urls: ['a'] });
		expect(chooseUrlField(['a'], [], 'asset_url_list')).toEqual({
			field: 'asset_url_list',
			urls: ['a'],
		});
		expect(chooseUrlField([], ['b'], 'images')).toEqual({ field: 'asset_url_list', urls: ['b'] });
		const both = chooseUrlField(['a', 'c'], ['b'], 'images');
		expect(both).toMatchObject({ field: 'asset_url_list', urls: ['b'] });
		expect(both.notice).toContain('the 2 other URL(s) were not reviewed');
	});

	it('accepts only public http(s) URLs and names the URL it refuses', () => {
		expect(publicUrlProblem('https://cdn.example.com/a.png')).toBeUndefined();
		expect(publicUrlProblem('http://8.8.8.8/a.png')).toBeUndefined();
		expect(publicUrlProblem('data:image/png;base64,AAAA')).toBe(
			'"data:image/png;base64,AAAA" uses data: only public http or https URLs can be reviewed',
		);
		for (const privateUrl of [
			'http://192.168.1.10/a.png',
			'http://10.0.0.1/a',
			'http://172.20.0.1/a',
			'http://[::1]/a',
			'http://printer.local/a',
		]) {
			expect(publicUrlProblem(privateUrl)).toContain('private or local host');
		}
		expect(publicUrlProblem('http://172.32.0.1/a')).toBeUndefined();
	});

	it('requires exactly one URL field and checks the group fields', () => {
		const base = { asset_type: 'Image' };
		expect(
			assetReviewRequestSchema.safeParse({ ...base, images: ['https://a.test/1.png'] }).success,
		).toBe(true);
		const both = assetReviewRequestSchema.safeParse({
			...base,
			images: ['https://a.test/1.png'],
			asset_url_list: ['https://a.test/2.png'],
		});
		expect(both.success ? '' : both.error.issues[0].message).toBe(
			'exactly one of "images" and "asset_url_list" must be sent',
		);
		const none = assetReviewRequestSchema.safeParse(base);
		expect(none.success).toBe(false);
		const badType = assetReviewRequestSchema.safeParse({
			images: ['https://a.test/1.png'],
			asset_type: 'Document',
		});
		expect(badType.success ? '' : badType.error.issues[0].message).toBe(
			'must be one of Image, Video, Audio',
		);
		expect(
			assetReviewRequestSchema.safeParse({
				...base,
				images: ['https://a.test/1.png'],
				group_id: 'g',
				group_source: '',
			}).success,
		).toBe(true);
		const badCallback = assetReviewRequestSchema.safeParse({
			...base,
			images: ['https://a.test/1.png'],
			callback_url: 'ws://hook.test/x',
		});
		expect(badCallback.success ? '' : badCallback.error.issues[0].message).toBe(
			'must be an http or https URL (got the ws: scheme in "ws://hook.test/x")',
		);
	});

	it('matches result items to the URLs sent, in order, even when they come back shuffled', () => {
		const urls = ['https://a.test/1', 'https://a.test/2', 'https://a.test/1'];
		const items = [
			{ source_url: 'https://a.test/2', asset_id: 'x2' },
			{ source_url: 'https://a.test/1', asset_id: 'x1' },
			{ source_url: 'https://a.test/1', asset_id: 'x1b' },
			{ source_url: 'https://a.test/9', asset_id: 'extra' },
		];
		const { matched, unmatched } = matchAssets(urls, items);
		expect(matched.map((item) => item?.asset_id)).toEqual(['x1', 'x2', 'x1b']);
		expect(unmatched.map((item) => item.asset_id)).toEqual(['extra']);
		expect(matchAssets(['https://a.test/1'], []).matched).toEqual([undefined]);
	});

	it('splits gathered URLs into requests of at most 50', () => {
		expect(
			chunkUrls(Array.from({ length: 101 }, (_, index) => index)).map((chunk) => chunk.length),
		).toEqual([50, 50, 1]);
		expect(chunkUrls([])).toEqual([]);
	});

	it('reads review answers leniently', () => {
		const parsed = assetReviewResultSchema.parse({
			code: 202,
			status: 'processing',
			result: null,
			extra: 1,
		});
		expect(parsed).toMatchObject({ code: 202, status: 'processing', extra: 1 });
		expect(
			assetReviewResultSchema.parse({ result: { items: 'oops' } }).result?.items,
		).toBeUndefined();
	});
});

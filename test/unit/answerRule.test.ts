import { z } from 'zod';

import { NO_ANSWER_CODE, answerRule, firstFailure } from '../../nodes/shared/schemas/answerRule';
import { NOT_A_REVIEW_RESULT, assetReviewFailure } from '../../nodes/shared/schemas/assetReview';
import { imageEditFailure } from '../../nodes/shared/schemas/imageEdit';

/** Issue 39: the one rule every answer the transport hands on is held to, per endpoint. */

const gatewayError = {
	error: { message: 'The upstream is overloaded', type: 'server_error', code: 'overloaded' },
};
const OVERLOADED = { code: 'overloaded', message: 'The upstream is overloaded' };

describe('answerRule', () => {
	const hasId = answerRule(z.object({ id: z.string() }), () => 'no "id"');

	it('passes a success and fails anything else in the gateway words, else naming what is missing', () => {
		expect(hasId({ id: 'x' })).toBeUndefined();
		expect(hasId({ id: 'x', error: null })).toBeUndefined();
		expect(hasId(gatewayError)).toEqual(OVERLOADED);
		expect(hasId({ message: 'busy' })).toEqual({ code: NO_ANSWER_CODE, message: 'busy' });
		expect(hasId({})).toEqual({ code: NO_ANSWER_CODE, message: 'no "id"' });
		expect(hasId([1, 2])).toEqual({ code: NO_ANSWER_CODE, message: 'no "id"' });
	});

	it('an error beside a success fails it, unless the error belongs to the answer (a failed task)', () => {
		const failedTask = { id: 'x', ...gatewayError };
		expect(hasId(failedTask)).toEqual(OVERLOADED);
		const taskRecord = answerRule(z.object({ id: z.string() }), () => 'no "id"', {
			errorBelongsToAnswer: true,
		});
		expect(taskRecord(failedTask)).toBeUndefined();
		expect(taskRecord(gatewayError)).toEqual(OVERLOADED);
	});

	it('firstFailure: the first check that finds one', () => {
		const code = (body: unknown) =>
			(body as { code?: number }).code ? { code: 'E', message: 'code' } : undefined;
		const check = firstFailure(code, hasId);
		expect(check({ code: 1, id: 'x' })).toEqual({ code: 'E', message: 'code' });
		expect(check({ id: 'x' })).toBeUndefined();
		expect(check({})).toEqual({ code: NO_ANSWER_CODE, message: 'no "id"' });
	});
});

describe('the image edit rule', () => {
	it.each<[string, unknown]>([
		['an image with a URL', { data: [{ url: 'https://cdn.example/1.png' }] }],
		['an image with base64 data (or its marker once stored)', { data: [{ b64_json: 'iVBO' }] }],
		['images and nothing else', { data: [{ url: 'u' }, { b64_json: 'b', url: '' }] }],
		['a null error member', { data: [{ url: 'u' }], error: null }],
	])('%s is a success', (_case, body) => {
		expect(imageEditFailure(body)).toBeUndefined();
	});

	it.each<[string, unknown, { code: string; message: string }]>([
		['an error body', gatewayError, OVERLOADED],
		['an error beside images', { ...gatewayError, data: [{ url: 'u' }] }, OVERLOADED],
		[
			'no data',
			{ created: 1 },
			{
				code: NO_ANSWER_CODE,
				message: 'The gateway answered without an image: the image edit result has no "data"',
			},
		],
		[
			'an empty data',
			{ data: [] },
			{
				code: NO_ANSWER_CODE,
				message: 'The gateway answered without an image: the image edit result\'s "data" is empty',
			},
		],
		[
			'an image without data among others',
			{ data: [{ url: 'u' }, { b64_json: null, revised_prompt: 'p' }, null] },
			{
				code: NO_ANSWER_CODE,
				message: 'The gateway returned result image 2 of 3 with neither a URL nor base64 data',
			},
		],
	])('%s is a failure', (_case, body, failure) => {
		expect(imageEditFailure(body)).toEqual(failure);
	});
});

describe('the asset review rule', () => {
	it.each<[string, unknown]>([
		['a finished review', { code: 200, status: 'completed', result: { items: [] } }],
		['an accepted one', { code: '202', task_id: 'r-1', status: 'processing' }],
		[
			'a failed review without a code (the node reports it)',
			{ status: 'failed', error_message: 'x' },
		],
		['a result without a code', { task_id: 'r-1' }],
	])('%s is a success', (_case, body) => {
		expect(assetReviewFailure(body)).toBeUndefined();
	});

	it.each<[string, unknown, { code: string; message: string }]>([
		['an error code', { code: 429, message: 'too many' }, { code: '429', message: 'too many' }],
		['an error body', gatewayError, OVERLOADED],
		['no review field', { hello: 'world' }, { code: NO_ANSWER_CODE, message: NOT_A_REVIEW_RESULT }],
		['a list', [1, 2], { code: NO_ANSWER_CODE, message: NOT_A_REVIEW_RESULT }],
	])('%s is a failure', (_case, body, failure) => {
		expect(assetReviewFailure(body)).toEqual(failure);
	});
});

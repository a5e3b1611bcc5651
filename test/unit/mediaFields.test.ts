import type { ZodType, ZodTypeDef } from 'zod';

import {
	base64ByteLength,
	isBase64,
	parseDataUri,
	rawBase64,
} from '../../nodes/shared/media/base64Text';
import { assetReviewRequestSchema } from '../../nodes/shared/schemas/assetReview';
import { imageEditRequestSchema } from '../../nodes/shared/schemas/imageEdit';
import { validateRequest } from '../../nodes/shared/schemas/validate';
import {
	familyAImage2VideoSchema,
	familyAOmniVideoSchema,
} from '../../nodes/shared/schemas/video/familyA';
import { familyBCreateSchema } from '../../nodes/shared/schemas/video/familyB';
import { familyCCreateSchema } from '../../nodes/shared/schemas/video/familyC';
import { longRunningCreateSchema } from '../../nodes/shared/schemas/video/longRunning';
import { taskSCreateSchema } from '../../nodes/shared/schemas/video/taskS';
import { testNode } from './testNode';

/**
 * Every field the spec types as a URL, "URL or Base64" or Base64, checked before sending with
 * the field named; a pasted data: URI where raw Base64 is wanted is converted.
 */

const node = testNode('Video');
const PNG_BASE64 =
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const PNG_DATA_URI = `data:image/png;base64,${PNG_BASE64}`;

type AnySchema = ZodType<unknown, ZodTypeDef, unknown>;

function problem(schema: AnySchema, body: object): string {
	try {
		validateRequest(schema, body, node, 2);
	} catch (error) {
		return (error as Error).message;
	}
	return 'accepted';
}

const taskS = (extra: object, url = 'https://cdn.test/ref.png') => ({
	model: 'm',
	content: [
		{ type: 'text', text: 'a cat' },
		{ type: 'image_url', image_url: { url }, role: 'reference_image' },
	],
	...extra,
});
const image2video = (extra: object) => ({ model_name: 'm', prompt: 'p', ...extra });
const omni = (imageUrl: string) => ({
	model_name: 'm',
	prompt: 'p',
	aspect_ratio: '16:9',
	image_list: [{ image_url: imageUrl }],
});
const familyC = (extra: object) => ({ model: 'm', prompt: 'p', ...extra });
const longRunning = (image: object) => ({
	model: 'veo',
	instances: [{ prompt: 'p', image }],
});
const review = (callbackUrl: string) => ({
	images: ['https://cdn.test/a.png'],
	asset_type: 'Image',
	callback_url: callbackUrl,
});
const imageEdit = (image: string) => ({ model: 'm', prompt: 'p', image: [image] });

/** http(s) URL fields: each refuses relative paths, other schemes, data: URIs and blanks. */
const urlFields: Array<[string, AnySchema, (value: string) => object, string]> = [
	['Task S media url', taskSCreateSchema, (url) => taskS({}, url), 'content[1].image_url.url'],
	['Task S callback_url', taskSCreateSchema, (url) => taskS({ callback_url: url }), 'callback_url'],
	[
		'Family A callback_url',
		familyAOmniVideoSchema,
		(url) => ({ ...omni('https://cdn.test/a.png'), callback_url: url }),
		'callback_url',
	],
	[
		'Family B LastFrameUrl',
		familyBCreateSchema,
		(url) => ({ ModelName: 'm', Prompt: 'p', LastFrameUrl: url }),
		'LastFrameUrl',
	],
	['Family C images[]', familyCCreateSchema, (url) => familyC({ images: [url] }), 'images[0]'],
	['Family C init_image', familyCCreateSchema, (url) => familyC({ init_image: url }), 'init_image'],
	['Family C videos[]', familyCCreateSchema, (url) => familyC({ videos: [url] }), 'videos[0]'],
	['Asset Review callback_url', assetReviewRequestSchema, review, 'callback_url'],
];

describe.each(urlFields)('%s (http(s) URL)', (_name, schema, body, field) => {
	it('accepts an absolute http or https URL', () => {
		expect(problem(schema, body('https://cdn.test/x.png?sig=1'))).toBe('accepted');
		expect(problem(schema, body('http://cdn.test/x'))).toBe('accepted');
	});

	it.each([
		['a relative path', 'images/x.png', 'which is not an absolute URL'],
		['an ftp: URL', 'ftp://cdn.test/x.png', 'got the ftp: scheme'],
		['a javascript: URL', 'javascript:alert(1)', 'got the javascript: scheme'],
		['a data: URI', PNG_DATA_URI, 'not a data: URI'],
		['blank text', '  ', 'must not be empty: give an http or https URL'],
	])('refuses %s, naming the field', (_case, value, reason) => {
		const message = problem(schema, body(value));
		expect(message.startsWith(`Item 2: "${field}": `)).toBe(true);
		expect(message).toContain(reason);
	});
});

/** "URL or Base64" fields that want raw Base64: a data: URI is converted, not refused. */
const rawUrlOrBase64Fields: Array<[string, AnySchema, (value: string) => object, string[]]> = [
	['Family A image', familyAImage2VideoSchema, (value) => image2video({ image: value }), ['image']],
	[
		'Family A image_tail',
		familyAImage2VideoSchema,
		(value) => image2video({ image_tail: value }),
		['image_tail'],
	],
	[
		'Family A image_list[].image_url',
		familyAOmniVideoSchema,
		omni,
		['image_list', '0', 'image_url'],
	],
];

function at(value: unknown, path: string[]): unknown {
	return path.reduce<unknown>(
		(current, key) => (current as Record<string, unknown> | undefined)?.[key],
		value,
	);
}

describe.each(rawUrlOrBase64Fields)('%s (URL or raw Base64)', (_name, schema, body, path) => {
	const field = path
		.map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : index ? `.${part}` : part))
		.join('');

	it('keeps a URL and raw Base64; converts a pasted data: URI (line breaks too) to raw Base64', () => {
		const parse = (value: string) => at(validateRequest(schema, body(value), node, 0), path);
		expect(parse('https://cdn.test/first.png')).toBe('https://cdn.test/first.png');
		expect(parse(PNG_BASE64)).toBe(PNG_BASE64);
		expect(parse(PNG_DATA_URI)).toBe(PNG_BASE64);
		expect(parse(`${PNG_BASE64.slice(0, 40)}\n${PNG_BASE64.slice(40)}`)).toBe(PNG_BASE64);
	});

	it.each([
		['a relative path', 'frames/first.png', 'which is neither'],
		['an ftp: URL', 'ftp://cdn.test/x.png', 'got the ftp: scheme'],
		['a javascript: URL', 'javascript:alert(1)', 'got the javascript: scheme'],
		['text that is not Base64', 'not base64 at all!', 'which is neither'],
		['a data: URI without base64', 'data:image/png,rawbytes', 'data:<type>;base64,<data>'],
	])('refuses %s, naming the field', (_case, value, reason) => {
		const message = problem(schema, body(value));
		expect(message.startsWith(`Item 2: "${field}": `)).toBe(true);
		expect(message).toContain(reason);
	});
});

describe('Image Edit image[] (URL or Base64, data: URIs kept)', () => {
	it('keeps a data:image URI as the form that names the format', () => {
		const parsed = validateRequest(imageEditRequestSchema, imageEdit(PNG_DATA_URI), node, 0);
		expect(parsed.image).toEqual([PNG_DATA_URI]);
	});

	it.each([
		['a relative path', 'photo.png', 'which is neither'],
		['a javascript: URL', 'javascript:alert(1)', 'got the javascript: scheme'],
		['a data: URI that is no image', 'data:text/plain;base64,aGVsbG8=', 'of type text/plain'],
	])('refuses %s', (_case, value, reason) => {
		expect(problem(imageEditRequestSchema, imageEdit(value))).toContain(reason);
	});
});

describe('Long-running bytesBase64Encoded (Base64)', () => {
	it('converts a pasted data: URI to raw Base64 and takes its MIME type when none is given', () => {
		const parsed = validateRequest(
			longRunningCreateSchema,
			longRunning({ bytesBase64Encoded: PNG_DATA_URI }),
			node,
			0,
		);
		expect(parsed.instances[0].image).toEqual({
			bytesBase64Encoded: PNG_BASE64,
			mimeType: 'image/png',
		});
	});

	it.each([
		['text that is not Base64', { bytesBase64Encoded: 'a cat.png', mimeType: 'image/png' }],
		['a URL', { bytesBase64Encoded: 'https://cdn.test/a.png', mimeType: 'image/png' }],
	])('refuses %s, naming the field', (_case, image) => {
		expect(problem(longRunningCreateSchema, longRunning(image))).toMatch(
			/^Item 2: "instances\[0\]\.image\.bytesBase64Encoded": must be Base64 data/,
		);
	});
});

describe('Base64 text helpers', () => {
	it('reads data: URIs, raw Base64 and byte counts', () => {
		expect(parseDataUri('data:image/PNG;base64,AAAA')).toEqual({
			mimeType: 'image/png',
			base64: 'AAAA',
		});
		expect(parseDataUri('https://x.test/a')).toBeUndefined();
		expect(rawBase64('data:image/png;base64,AA\nAA')).toBe('AAAA');
		expect(isBase64('AAA=')).toBe(true);
		expect(isBase64('AA=')).toBe(false);
		expect(isBase64('AAAAA')).toBe(false);
		expect(base64ByteLength(Buffer.from('abcde').toString('base64'))).toBe(5);
	});
});

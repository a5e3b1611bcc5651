import type { INode } from 'n8n-workflow';

import { imageEditRequestSchema } from '../../nodes/shared/schemas/imageEdit';
import { validateRequest } from '../../nodes/shared/schemas/validate';

/** The request schema on its own: what it lets through unchanged, and how it names problems. */

const node: INode = {
	id: '1',
	name: 'Image Edit',
	type: 'x',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};
const minimal = { model: 'm', prompt: 'p', image: ['https://example.com/a.png'] };

function problem(body: object, itemIndex = 0): string {
	try {
		validateRequest(imageEditRequestSchema, body, node, itemIndex);
	} catch (error) {
		return (error as Error).message;
	}
	throw new Error('expected a validation error');
}

describe('image edit request schema', () => {
	it('accepts every image form and every optional field', () => {
		const full = {
			...minimal,
			image: [
				'https://example.com/a.png',
				'http://example.com/b',
				'data:image/webp;base64,UklGRg==',
				'iVBORw0KGgoAAAANSUhEUg',
				'aGVsbG8td29ybGRfXw',
			],
			bbox_list: [
				{ x: 1, y: 2 },
				{ x: 0, y: 0, w: 10, h: 10 },
			],
			n: 4,
			size: '2K',
			thinking_mode: false,
			watermark: true,
		};
		expect(validateRequest(imageEditRequestSchema, full, node, 0)).toEqual(full);
		expect(
			validateRequest(imageEditRequestSchema, { ...minimal, bbox_list: '[{"x":1}]' }, node, 0)
				.bbox_list,
		).toEqual([{ x: 1 }]);
	});

	it.each([
		[{ ...minimal, thinking_mode: 'yes' }, 'Item 3: "thinking_mode": must be true or false'],
		[{ ...minimal, watermark: 1 }, 'Item 3: "watermark": must be true or false'],
		[{ ...minimal, size: '1k' }, 'Item 3: "size": must be one of 1K, 2K, 4K'],
		[{ ...minimal, n: '2' }, 'Item 3: "n": must be a number'],
		[
			{ ...minimal, bbox_list: [[0, 0, 10, 10]] },
			'Item 3: "bbox_list[0]": each region must be a JSON object, e.g. {"x":0,"y":0,"w":100,"h":100} (the API field bbox_list takes a list of objects)',
		],
		[
			{ ...minimal, bbox_list: [] },
			'Item 3: "bbox_list": must list at least 1 region (or leave the option out)',
		],
		[
			{ ...minimal, image: ['https://example.com/a.png', 'data:application/pdf;base64,JVBERi0='] },
			'Item 3: "image[1]": must be an image: a data: URI of type application/pdf is not one',
		],
		[
			{ ...minimal, image: 'https://example.com/a.png' },
			'Item 3: "image": must be a list of images',
		],
		[
			{ ...minimal, image: ['abc'] },
			'Item 3: "image[0]": must be an http or https URL or Base64 data (got "abc", which is neither: a relative path or a host without http:// or https:// is not a URL)',
		],
		[{ model: 'm', image: ['https://example.com/a.png'] }, 'Item 3: "prompt": prompt is required'],
	])('rejects %j', (body, message) => {
		expect(problem(body, 3)).toBe(message);
	});

	it('counts further problems in the message and lists them all in the description', () => {
		let description = '';
		try {
			validateRequest(imageEditRequestSchema, { model: '', prompt: '', image: [] }, node, 0);
		} catch (error) {
			expect((error as Error).message).toBe(
				'Item 0: "model": model is required and must not be empty (and 2 more problems)',
			);
			description = String((error as { description?: unknown }).description);
		}
		expect(description).toContain('"prompt"');
		expect(description).toContain('"image": must contain at least 1 image');
	});
});

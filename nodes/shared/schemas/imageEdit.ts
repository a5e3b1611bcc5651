import { z } from 'zod';

import type { BusinessFailureCheck } from '../gateway/transport';
import { isRecord } from '../items/values';
import { parseDataUri } from '../media/base64Text';
import { answerRule } from './answerRule';
import { integerAtLeast, requiredText, urlOrBase64 } from './common';

/**
 * POST /v1/images/edits, as the spec's Endpoints section describes it, and what a success of
 * it carries (its Image edit result).
 */

export const IMAGE_EDIT_SIZES = ['1K', '2K', '4K'] as const;

/** One input image: "a URL or Base64" (spec); a data URI is the Base64 form that names its format. */
export const imageInputSchema = urlOrBase64('dataUriAllowed').superRefine((value, context) => {
	const mimeType = parseDataUri(value)?.mimeType;
	if (mimeType !== undefined && !mimeType.startsWith('image/')) {
		context.addIssue({
			code: z.ZodIssueCode.custom,
			message: `must be an image: a data: URI of type ${mimeType} is not one`,
		});
	}
});

/**
 * `bbox_list`: the spec types it object[] and does not show an item's shape, so every region
 * must be a JSON object (a coordinate list or a scalar is refused). A JSON text (from the
 * UI's JSON field) is parsed first, and a parse failure is a field error.
 */
export const bboxListSchema = z.preprocess(
	(value, context) => {
		if (typeof value !== 'string') return value;
		try {
			return JSON.parse(value) as unknown;
		} catch (error) {
			context.addIssue({
				code: z.ZodIssueCode.custom,
				message: `is not valid JSON (${(error as Error).message})`,
			});
			return z.NEVER;
		}
	},
	z
		.array(
			z.record(z.string(), z.unknown(), {
				errorMap: () => ({
					message:
						'each region must be a JSON object, e.g. {"x":0,"y":0,"w":100,"h":100} (the API field bbox_list takes a list of objects)',
				}),
			}),
			{
				invalid_type_error: 'must be a JSON list of regions, e.g. [{"x":0,"y":0,"w":100,"h":100}]',
			},
		)
		.min(1, 'must list at least 1 region (or leave the option out)'),
);

export const imageEditRequestSchema = z.object({
	model: requiredText('model'),
	prompt: requiredText('prompt'),
	image: z
		.array(imageInputSchema, { invalid_type_error: 'must be a list of images' })
		.min(1, 'must contain at least 1 image'),
	bbox_list: bboxListSchema.optional(),
	n: integerAtLeast(1).optional(),
	size: z
		.enum(IMAGE_EDIT_SIZES, {
			errorMap: () => ({ message: `must be one of ${IMAGE_EDIT_SIZES.join(', ')}` }),
		})
		.optional(),
	thinking_mode: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
	watermark: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
});

export type ImageEditRequest = z.infer<typeof imageEditRequestSchema>;

/** An image of the result that carries no image: named by its place, as the user counts. */
export function imageWithoutDataMessage(index: number, count: number): string {
	return `The gateway returned result image ${index + 1} of ${count} with neither a URL nor base64 data`;
}

const carriesImage = (image: unknown): boolean =>
	isRecord(image) &&
	[image.url, image.b64_json].some((value) => typeof value === 'string' && value !== '');

/**
 * A success carries its images: `data` with at least one item, each with a `url` or its
 * `b64_json` (spec, Image edit result). An HTTP 200 error body or an answer without an image
 * was one successful item with `images: []` (issue 39); it is a failure in the gateway's
 * words. Checked by the transport on the answer as read, so an inline image is then already
 * in binary storage and stands as a marker string (jsonMediaStream.ts); whether its bytes are
 * empty, only the stored media can tell (results.ts).
 */
export const imageEditFailure: BusinessFailureCheck = answerRule(
	z.object({
		data: z
			.array(z.unknown())
			.min(1)
			.refine((images) => images.every(carriesImage)),
	}),
	(body) => {
		const images = isRecord(body) ? body.data : undefined;
		if (!Array.isArray(images))
			return 'The gateway answered without an image: the image edit result has no "data"';
		if (images.length === 0)
			return 'The gateway answered without an image: the image edit result\'s "data" is empty';
		return imageWithoutDataMessage(
			images.findIndex((image) => !carriesImage(image)),
			images.length,
		);
	},
);

import { z } from 'zod';

import { parseDataUri } from '../media/base64Text';
import { integerAtLeast, requiredText, urlOrBase64 } from './common';

/** POST /v1/images/edits, as the spec's Endpoints section describes it. */

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

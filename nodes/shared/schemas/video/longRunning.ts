import { z } from 'zod';

import { integerAtLeast, requiredText } from '../common';

/** POST /v1beta/models/{model}:predictLongRunning. */

const inlineImage = z
	.object({
		bytesBase64Encoded: requiredText('bytesBase64Encoded'),
		mimeType: requiredText('mimeType'),
	})
	.passthrough();

const instance = z
	.object({
		prompt: z.string().optional(),
		image: inlineImage.optional(),
		lastFrame: inlineImage.optional(),
	})
	.passthrough()
	.superRefine((value, ctx) => {
		if (!value.prompt?.trim() && !value.image) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['prompt'],
				message: 'a prompt or an image is required',
			});
		}
	});

/** The model travels in the path; it is validated with the body so one message names it. */
export const longRunningCreateSchema = z
	.object({
		model: requiredText('model').regex(/^[^/:]+$/, 'must not contain "/" or ":"'),
		instances: z
			.array(instance, { required_error: 'instances is required' })
			.min(1, 'must contain at least 1 instance'),
		parameters: z
			.object({
				sampleCount: integerAtLeast(1).optional(),
				durationSeconds: integerAtLeast(1).optional(),
				aspectRatio: z.string().optional(),
				resolution: z.string().optional(),
				negativePrompt: z.string().optional(),
				generateAudio: z.boolean().optional(),
				enhancePrompt: z.boolean().optional(),
			})
			.passthrough()
			.optional(),
	})
	.passthrough();

import { z } from 'zod';

import { parseDataUri } from '../../media/base64Text';
import { base64Data, integerAtLeast, requiredText } from '../common';

/** POST /v1beta/models/{model}:predictLongRunning. */

/** A pasted data: URI names its MIME type: it fills mimeType when that is missing. */
const withDataUriType = (value: unknown) => {
	if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
	const image = value as Record<string, unknown>;
	const bytes = image.bytesBase64Encoded;
	const mimeType = typeof bytes === 'string' ? parseDataUri(bytes)?.mimeType : undefined;
	const missing = typeof image.mimeType !== 'string' || image.mimeType.trim() === '';
	return mimeType && missing ? { ...image, mimeType } : value;
};

const inlineImage = z.preprocess(
	withDataUriType,
	z
		.object({
			bytesBase64Encoded: base64Data(),
			mimeType: requiredText('mimeType'),
		})
		.passthrough(),
);

const instance = z
	.object({
		prompt: z.string().optional(),
		image: inlineImage.optional(),
		lastFrame: inlineImage.optional(),
	})
	// The spec: "Which fields are required: not shown"; the gateway decides.
	.passthrough();

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

import { z } from 'zod';

import { httpUrl, integerAtLeast, requiredText } from '../common';

/** POST /v1/task/create (Task family S). Unknown extra fields pass through unchanged. */

const mediaUrl = () => z.object({ url: httpUrl() }).passthrough();

const contentItem = z.discriminatedUnion(
	'type',
	[
		z.object({ type: z.literal('text'), text: requiredText('text') }).passthrough(),
		z
			.object({
				type: z.literal('image_url'),
				image_url: mediaUrl(),
				role: z.string().optional(),
			})
			.passthrough(),
		z
			.object({
				type: z.literal('video_url'),
				video_url: mediaUrl(),
				role: z.string().optional(),
			})
			.passthrough(),
		z
			.object({
				type: z.literal('audio_url'),
				audio_url: mediaUrl(),
				role: z.string().optional(),
			})
			.passthrough(),
	],
	{
		errorMap: () => ({ message: 'must have a type of text, image_url, video_url or audio_url' }),
	},
);

export const taskSCreateSchema = z
	.object({
		model: requiredText('model'),
		content: z
			.array(contentItem, { required_error: 'content is required' })
			.min(1, 'must contain at least 1 content item'),
		generate_audio: z.boolean().optional(),
		ratio: z
			.string()
			.regex(/^\d+(\.\d+)?:\d+(\.\d+)?$/, 'must be an aspect ratio like 16:9')
			.optional(),
		duration: z
			.number({ invalid_type_error: 'must be a number of seconds' })
			.positive('must be more than 0 seconds')
			.optional(),
		watermark: z.boolean().optional(),
		callback_url: httpUrl().optional(),
		resolution: z.string().optional(),
		seed: integerAtLeast(-1).optional(),
	})
	.passthrough();

export type TaskSCreateRequest = z.infer<typeof taskSCreateSchema>;

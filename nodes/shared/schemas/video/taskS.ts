import { z } from 'zod';

import { httpUrl, integerAtLeast, requiredText } from '../common';

/** POST /v1/task/create (Task family S). Unknown extra fields pass through unchanged. */

const mediaUrl = () => z.object({ url: httpUrl() }).passthrough();

/**
 * Media roles: the spec's observed `reference_*` roles and first/last frames, each only on its
 * own media type. Other words pass (the spec lists observations, not a closed set).
 */
const ROLE_MEDIA: Record<string, string> = {
	reference_image: 'image_url',
	first_frame: 'image_url',
	last_frame: 'image_url',
	reference_video: 'video_url',
	reference_audio: 'audio_url',
};

const roleFor = (type: string) =>
	z
		.string()
		.refine((role) => ROLE_MEDIA[role] === undefined || ROLE_MEDIA[role] === type, {
			message: `must suit a ${type} item (${Object.keys(ROLE_MEDIA)
				.filter((role) => ROLE_MEDIA[role] === type)
				.join(', ')})`,
		})
		.optional();

const contentItem = z.discriminatedUnion(
	'type',
	[
		z.object({ type: z.literal('text'), text: requiredText('text') }).passthrough(),
		z
			.object({
				type: z.literal('image_url'),
				image_url: mediaUrl(),
				role: roleFor('image_url'),
			})
			.passthrough(),
		z
			.object({
				type: z.literal('video_url'),
				video_url: mediaUrl(),
				role: roleFor('video_url'),
			})
			.passthrough(),
		z
			.object({
				type: z.literal('audio_url'),
				audio_url: mediaUrl(),
				role: roleFor('audio_url'),
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
			.regex(/^[1-9]\d*:[1-9]\d*$/, 'must be an aspect ratio in the form <w>:<h>, like 16:9')
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

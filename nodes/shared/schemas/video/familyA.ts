import { z } from 'zod';

import {
	httpUrl,
	jsonObject,
	jsonObjectList,
	listAtMost,
	numberInRange,
	requiredText,
	urlOrBase64,
} from '../common';

/** Family A create requests (omni-video and image2video), with the spec's Limits table. */

const onOff = z.enum(['on', 'off'], { errorMap: () => ({ message: 'must be "on" or "off"' }) });
const mode = z.enum(['std', 'pro'], { errorMap: () => ({ message: 'must be "std" or "pro"' }) });
const duration = z.union(
	[
		z.number().positive('must be more than 0 seconds'),
		z.string().regex(/^\d+(\.\d+)?$/, 'must be a number of seconds'),
	],
	{
		errorMap: () => ({ message: 'must be a number of seconds' }),
	},
);
const multiPrompt = z.array(
	z
		.object({
			index: z.number().int('must be a whole number').optional(),
			prompt: requiredText('multi_prompt prompt'),
			duration: z.string().optional(),
		})
		.passthrough(),
	{ invalid_type_error: 'must be a list of shots' },
);

/**
 * Item shapes the spec leaves open, as the upstream documents them (the simulator checks the
 * same, see its README): subjects by `element_id`, reference videos by http(s) `video_url`
 * (`refer_type` feature or base), reference images by `image_url` (`type` first_frame or
 * end_frame when they are frames).
 */
const elementItem = z
	.object({
		element_id: z.union([requiredText('element_id'), z.number()], {
			errorMap: () => ({ message: 'is required (the subject to reference)' }),
		}),
	})
	.passthrough();
const videoItem = z
	.object({
		video_url: httpUrl(),
		refer_type: z
			.enum(['feature', 'base'], { errorMap: () => ({ message: 'must be "feature" or "base"' }) })
			.optional(),
	})
	.passthrough();
const imageItem = z
	.object({
		image_url: urlOrBase64('raw'),
		type: z
			.enum(['first_frame', 'end_frame'], {
				errorMap: () => ({ message: 'must be "first_frame" or "end_frame"' }),
			})
			.optional(),
	})
	.passthrough();

const common = {
	model_name: requiredText('model_name'),
	prompt: z.string().optional(),
	negative_prompt: z.string().optional(),
	element_list: listAtMost(elementItem, 3).optional(),
	sound: onOff.optional(),
	mode: mode.optional(),
	duration: duration.optional(),
	aspect_ratio: z.string().optional(),
	cfg_scale: numberInRange(0, 1).optional(),
	multi_prompt: multiPrompt.optional(),
	watermark_info: jsonObject.optional(),
	callback_url: httpUrl().optional(),
	external_task_id: z.string().optional(),
};

/** The prompt is required unless custom multi-shot prompts are given. */
function requirePrompt(
	body: { prompt?: string; shot_type?: string; multi_shot?: unknown; multi_prompt?: unknown[] },
	ctx: z.RefinementCtx,
) {
	const custom =
		(body.shot_type === 'customize' ||
			body.multi_shot === 'customize' ||
			body.multi_shot === true) &&
		(body.multi_prompt?.length ?? 0) > 0;
	if (!custom && (body.prompt ?? '').trim() === '') {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['prompt'],
			message: 'is required unless custom multi-shot prompts are given',
		});
	}
}

/** Spec Limits: element_list and voice_list are mutually exclusive. */
function refuseElementsWithVoices(
	body: { element_list?: unknown[]; voice_list?: unknown },
	ctx: z.RefinementCtx,
) {
	const voices = Array.isArray(body.voice_list) ? body.voice_list.length : 0;
	if ((body.element_list?.length ?? 0) > 0 && voices > 0) {
		ctx.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['voice_list'],
			message: 'cannot be used together with element_list (they are mutually exclusive)',
		});
	}
}

export const familyAOmniVideoSchema = z
	.object({
		...common,
		image_list: listAtMost(imageItem, 7).optional(),
		video_list: listAtMost(videoItem, 1).optional(),
		multi_shot: z
			.boolean({ invalid_type_error: 'must be true or false for omni-video' })
			.optional(),
		shot_type: z
			.enum(['customize'], { errorMap: () => ({ message: 'must be "customize"' }) })
			.optional(),
	})
	.passthrough()
	.superRefine((body, ctx) => {
		requirePrompt(body, ctx);
		refuseElementsWithVoices(body, ctx);
		// Spec: multi_shot "enables custom shots": shots without it would not be custom shots.
		if (
			(body.shot_type === 'customize' || (body.multi_prompt?.length ?? 0) > 0) &&
			body.multi_shot !== true
		) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['multi_shot'],
				message: 'must be true (On) for custom shots (Shot Type "customize" or Multi-Shot Prompts)',
			});
		}
		// Without a first frame or a video to edit there is nothing to take the shape from.
		const firstFrame = body.image_list?.some((image) => image.type === 'first_frame') ?? false;
		const editsVideo = body.video_list?.some((video) => video.refer_type === 'base') ?? false;
		if (!body.aspect_ratio?.trim() && !firstFrame && !editsVideo) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['aspect_ratio'],
				message:
					'is required unless a reference image is the first frame or a reference video is edited (refer_type "base")',
			});
		}
	});

export const familyAImage2VideoSchema = z
	.object({
		...common,
		image: urlOrBase64('raw').optional(),
		image_tail: urlOrBase64('raw').optional(),
		voice_list: listAtMost(jsonObject, 2).optional(),
		multi_shot: z
			.union([z.boolean(), z.enum(['intelligence', 'customize'])], {
				errorMap: () => ({ message: 'must be true, false, "intelligence" or "customize"' }),
			})
			.optional(),
		shot_type: z
			.enum(['intelligence', 'customize'], {
				errorMap: () => ({ message: 'must be "intelligence" or "customize"' }),
			})
			.optional(),
		static_mask: z.string().optional(),
		dynamic_masks: jsonObjectList.optional(),
		camera_control: jsonObject.optional(),
	})
	.passthrough()
	.superRefine((body, ctx) => {
		requirePrompt(body, ctx);
		if (!body.image?.trim() && !body.image_tail?.trim()) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['image'],
				message: 'at least one of image (first frame) and image_tail (last frame) is required',
			});
		}
		refuseElementsWithVoices(body, ctx);
	});

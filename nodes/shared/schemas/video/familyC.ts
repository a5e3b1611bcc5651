import { z } from 'zod';

import { httpUrl, jsonObject, jsonObjectList, requiredText } from '../common';

/** POST /vendor-c/ent/v2/reference2video (Family C). */

const urlList = z.array(httpUrl(), { invalid_type_error: 'must be a list of URLs' });

export const familyCCreateSchema = z
	.object({
		model: requiredText('model'),
		prompt: requiredText('prompt'),
		version: z.string().optional(),
		type: z.string().optional(),
		images: urlList.optional(),
		init_image: httpUrl().optional(),
		videos: urlList.optional(),
		auto_subjects: z.boolean().optional(),
		subjects: jsonObjectList.optional(),
		duration: z
			.union([z.string().regex(/^\d+(\.\d+)?$/), z.number()], {
				errorMap: () => ({ message: 'must be a number of seconds' }),
			})
			.optional(),
		aspect_ratio: z.string().optional(),
		resolution: z.string().optional(),
		size: z.string().optional(),
		seed: z.number().int('must be a whole number').optional(),
		movement_amplitude: z.string().optional(),
		bgm: z.boolean().optional(),
		audio: z.boolean().optional(),
		is_audio: z.boolean().optional(),
		audio_type: z.string().optional(),
		voice_id: z.string().optional(),
		is_rec: z.boolean().optional(),
		style: z.string().optional(),
		off_peak: z.boolean().optional(),
		payload: jsonObject.optional(),
		params: jsonObject.optional(),
	})
	.passthrough();

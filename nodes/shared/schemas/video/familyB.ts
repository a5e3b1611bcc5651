import { z } from 'zod';

import { httpUrl, jsonObjectList, requiredText } from '../common';

/** POST /vendor-b/v1/video/generations (Family B, PascalCase fields). */

export const familyBCreateSchema = z
	.object({
		ModelName: requiredText('ModelName'),
		ModelVersion: z.string().optional(),
		Prompt: z.string().optional(),
		FileInfos: jsonObjectList.optional(),
		LastFrameFileId: z.string().optional(),
		LastFrameUrl: httpUrl().optional(),
		NegativePrompt: z.string().optional(),
		EnhancePrompt: z.string().optional(),
		OutputConfig: z
			.object({
				Duration: z
					.number()
					.int('must be a whole number of seconds')
					.positive('must be at least 1 second')
					.optional(),
				Resolution: z.string().optional(),
			})
			.passthrough()
			.optional(),
		InputRegion: z.string().optional(),
		SceneType: z.string().optional(),
		Seed: z.number().int('must be a whole number').optional(),
		SessionId: z.string().optional(),
		SessionContext: z.string().optional(),
		TasksPriority: z.number().int('must be a whole number').optional(),
		ExtInfo: z.unknown().optional(),
	})
	.passthrough()
	.superRefine((body, ctx) => {
		if (!body.Prompt?.trim() && (body.FileInfos?.length ?? 0) === 0) {
			ctx.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['Prompt'],
				message: 'is required when no FileInfos are given',
			});
		}
	});

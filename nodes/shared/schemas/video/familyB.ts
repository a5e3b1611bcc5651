import { z } from 'zod';

import { httpUrl, jsonObjectList, requiredText } from '../common';

/** POST /vendor-b/v1/video/generations (Family B, PascalCase fields). */

/** Every field of the spec's Family B create request. */
export const FAMILY_B_FIELDS = [
	'ModelName',
	'ModelVersion',
	'Prompt',
	'FileInfos',
	'LastFrameFileId',
	'LastFrameUrl',
	'NegativePrompt',
	'EnhancePrompt',
	'OutputConfig',
	'InputRegion',
	'SceneType',
	'Seed',
	'SessionId',
	'SessionContext',
	'TasksPriority',
	'ExtInfo',
] as const;

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
		// The spec names every field in PascalCase: a snake_case twin would be ignored upstream.
		for (const key of Object.keys(body)) {
			const specName = familyBSpecName(key);
			if (specName !== undefined && specName !== key) {
				ctx.addIssue({
					code: z.ZodIssueCode.custom,
					path: [key],
					message: `is not a Family B API field: write it "${specName}" (Family B field names are PascalCase)`,
				});
			}
		}
	});

/** The spec's PascalCase field for `key` written in another case (`seed`, `output_config`). */
export function familyBSpecName(key: string): string | undefined {
	const folded = key.replace(/_/g, '').toLowerCase();
	return FAMILY_B_FIELDS.find((field) => field.toLowerCase() === folded);
}

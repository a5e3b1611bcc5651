import { z } from 'zod';

import { requiredText } from '../common';

/** POST /v1/videos (generic video). */

export const genericVideoCreateSchema = z
	.object({
		model: requiredText('model'),
		prompt: requiredText('prompt'),
		duration: z
			.union([z.literal(6), z.literal(10)], {
				errorMap: () => ({ message: 'must be 6 or 10 seconds' }),
			})
			.optional(),
		size: z
			.enum(['768p', '1080p'], { errorMap: () => ({ message: 'must be "768p" or "1080p"' }) })
			.optional(),
		metadata: z
			.object(
				{
					prompt_optimizer: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
					fast_pretreatment: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
					aigc_watermark: z.boolean({ invalid_type_error: 'must be true or false' }).optional(),
				},
				{ invalid_type_error: 'must be a JSON object' },
			)
			.passthrough()
			.optional(),
	})
	.passthrough();

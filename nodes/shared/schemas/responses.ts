import { z } from 'zod';

import { toolChoiceSchema } from './chatCompletion';
import {
	fromJsonText,
	integerAtLeast,
	jsonObject,
	jsonObjectList,
	refuseStreamOptionsWithoutStream,
	requiredText,
	textOrJsonText,
} from './common';

/** POST /v1/responses, as the spec's Endpoints section describes it. */

export const RESPONSES_INPUT_ROLES = ['developer', 'user', 'assistant'] as const;

export const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;
export const REASONING_SUMMARIES = ['auto', 'concise', 'detailed'] as const;

const textFormatSchema = z
	.object({ type: requiredText('type'), schema: fromJsonText(jsonObject).optional() })
	.passthrough()
	.superRefine((format, context) => {
		if (
			format.type === 'json_schema' &&
			(typeof format.schema !== 'object' || format.schema === null)
		) {
			context.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['schema'],
				message: 'is required (a JSON schema object) when type is "json_schema"',
			});
		}
	});

const filledText = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '';

/**
 * One item of an input list: a message (it has a `role`) or a typed item such as
 * `function_call_output` (it has a `type`, and that one a `call_id`).
 */
export const inputItemSchema = jsonObject.superRefine((item, context) => {
	if (!filledText(item.role) && !filledText(item.type)) {
		context.addIssue({
			code: z.ZodIssueCode.custom,
			message:
				'needs a "role" (a message) or a "type" (such as "function_call_output"); this item has neither',
		});
	}
	if (item.type === 'function_call_output' && !filledText(item.call_id)) {
		context.addIssue({
			code: z.ZodIssueCode.custom,
			path: ['call_id'],
			message: 'is required on a "function_call_output" item',
		});
	}
});

export const responsesRequestSchema = z
	.object({
		model: requiredText('model'),
		// A string is one user text; a list holds messages (developer/user/assistant) and
		// other input items such as function_call_output.
		input: textOrJsonText(
			z.union([z.string(), z.array(inputItemSchema)], {
				errorMap: (issue, context) =>
					issue.code === z.ZodIssueCode.invalid_union
						? { message: 'must be text or a JSON array of input items' }
						: { message: context.defaultError },
			}),
		).optional(),
		instructions: z.string().optional(),
		previous_response_id: z.string().trim().min(1, 'must not be empty').optional(),
		conversation: fromJsonText(
			z.union([z.string().trim().min(1), jsonObject], {
				errorMap: () => ({ message: 'must be a conversation ID or a JSON object' }),
			}),
		).optional(),
		reasoning: z
			.object({ effort: z.string().optional(), summary: z.string().optional() })
			.passthrough()
			.optional(),
		text: z.object({ format: textFormatSchema.optional() }).passthrough().optional(),
		tools: fromJsonText(jsonObjectList).optional(),
		tool_choice: toolChoiceSchema.optional(),
		parallel_tool_calls: z.boolean().optional(),
		max_output_tokens: integerAtLeast(1).optional(),
		// The spec: "integer", no range.
		max_tool_calls: z.number().int('must be a whole number').optional(),
		stream: z.boolean().optional(),
		stream_options: fromJsonText(jsonObject).optional(),
		metadata: fromJsonText(jsonObject).optional(),
		store: z.boolean().optional(),
		truncation: z.string().optional(),
		prompt: fromJsonText(jsonObject).optional(),
	})
	// Fields a newer gateway adds go through unchanged.
	.passthrough()
	.superRefine((request, context) => {
		if (request.previous_response_id !== undefined && request.conversation !== undefined) {
			context.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['previous_response_id'],
				message: 'cannot be combined with "conversation": use one or the other',
			});
		}
		refuseStreamOptionsWithoutStream(request, context);
	});

export type ResponsesRequest = z.infer<typeof responsesRequestSchema>;

import { z } from 'zod';

import {
	fromJsonText,
	integerAtLeast,
	jsonObject,
	jsonObjectList,
	numberInRange,
	refuseStreamOptionsWithoutStream,
	requiredText,
	textOrJsonText,
} from './common';

/** POST /v1/chat/completions, as the spec's Endpoints and Limits sections describe it. */

export const CHAT_ROLES = ['system', 'user', 'assistant', 'tool'] as const;

export const chatMessageSchema = z
	.object({
		// The spec lists roles "for example"; other roles are passed on to the gateway.
		role: requiredText('role'),
		content: z.union([z.string(), jsonObjectList, z.null()]).optional(),
		name: z.string().optional(),
		tool_call_id: z.string().optional(),
		tool_calls: fromJsonText(jsonObjectList).optional(),
	})
	.passthrough()
	.superRefine((message, context) => {
		if (message.role === 'tool' && !message.tool_call_id) {
			context.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['tool_call_id'],
				message: 'is required when role is "tool"',
			});
		}
		// The spec: every message has content; only an assistant turn that calls tools may
		// leave it empty.
		const callsTools = Array.isArray(message.tool_calls) && message.tool_calls.length > 0;
		const content = message.content;
		const empty =
			content === undefined ||
			content === null ||
			content === '' ||
			(Array.isArray(content) && content.length === 0);
		if (empty && !(message.role === 'assistant' && callsTools)) {
			context.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['content'],
				message: 'is required (only an assistant message with tool_calls may leave it empty)',
			});
		}
		if (message.tool_calls !== undefined && message.role !== 'assistant') {
			context.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['tool_calls'],
				message: 'is only allowed on assistant messages',
			});
		}
	});

export const toolChoiceSchema = fromJsonText(
	z.union([z.enum(['none', 'auto', 'required']), jsonObject], {
		errorMap: () => ({ message: 'must be "none", "auto", "required" or a tool object' }),
	}),
);

/** OpenAI's documented values (the simulator README's upstream note 2). */
const RESPONSE_FORMAT_TYPES = ['text', 'json_object', 'json_schema'] as const;

const responseFormatSchema = z
	.object({
		type: z.enum(RESPONSE_FORMAT_TYPES, {
			errorMap: () => ({ message: `must be one of ${RESPONSE_FORMAT_TYPES.join(', ')}` }),
		}),
		json_schema: z
			.object({ schema: fromJsonText(jsonObject) }, { invalid_type_error: 'must be a JSON object' })
			.passthrough()
			.optional(),
	})
	.passthrough()
	.superRefine((format, context) => {
		if (format.type === 'json_schema' && format.json_schema === undefined) {
			context.addIssue({
				code: z.ZodIssueCode.custom,
				path: ['json_schema'],
				message: 'is required when type is "json_schema"',
			});
		}
	});

export const chatCompletionRequestSchema = z
	.object({
		model: requiredText('model'),
		messages: fromJsonText(
			z
				.array(chatMessageSchema, { invalid_type_error: 'must be a JSON array of messages' })
				.min(1, 'must contain at least 1 message'),
		),
		temperature: numberInRange(0, 2).optional(),
		top_p: numberInRange(0, 1).optional(),
		max_tokens: integerAtLeast(1).optional(),
		max_completion_tokens: integerAtLeast(1).optional(),
		stream: z.boolean().optional(),
		stream_options: fromJsonText(jsonObject).optional(),
		n: integerAtLeast(1).optional(),
		// "any" in the spec: one stop word, or a JSON list of them.
		stop: textOrJsonText(
			z.union([z.string(), z.array(z.string())], {
				errorMap: () => ({ message: 'must be text or a JSON array of texts' }),
			}),
		).optional(),
		presence_penalty: numberInRange(-2, 2).optional(),
		frequency_penalty: numberInRange(-2, 2).optional(),
		tools: fromJsonText(jsonObjectList).optional(),
		tool_choice: toolChoiceSchema.optional(),
		parallel_tool_calls: z.boolean().optional(),
		response_format: fromJsonText(responseFormatSchema).optional(),
		user: z.string().optional(),
	})
	// Fields a newer gateway adds go through unchanged.
	.passthrough()
	.superRefine(refuseStreamOptionsWithoutStream);

export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

import { z } from 'zod';

import { tryParseJsonText } from '../jsonText';

/** Building blocks shared by the operation schemas. Messages name the limit they enforce. */

export const requiredText = (what: string) =>
	z
		.string({ required_error: `${what} is required`, invalid_type_error: `${what} must be text` })
		.trim()
		.min(1, `${what} is required and must not be empty`);

export const numberInRange = (min: number, max: number) =>
	z
		.number({ invalid_type_error: 'must be a number' })
		.min(min, `must be between ${min} and ${max} (got a smaller value)`)
		.max(max, `must be between ${min} and ${max} (got a larger value)`);

export const integerAtLeast = (min: number) =>
	z
		.number({ invalid_type_error: 'must be a number' })
		.int('must be a whole number')
		.min(min, `must be at least ${min}`);

export const jsonObject = z.record(z.string(), z.unknown(), {
	invalid_type_error: 'must be a JSON object',
});

export const jsonObjectList = z.array(jsonObject, {
	invalid_type_error: 'must be a JSON array of objects',
});

export const listAtMost = <T extends z.ZodTypeAny>(item: T, max: number) =>
	z
		.array(item, { invalid_type_error: 'must be a list' })
		.max(max, `must have at most ${max} entries`);

/**
 * Accepts a value as JSON text too (n8n JSON parameters arrive as strings): text that parses
 * is replaced by the parsed value; text that looks like JSON (starts with `{` or `[`) but does
 * not parse is refused with the parser's position, never passed on as a string.
 */
export const fromJsonText = <T extends z.ZodTypeAny>(schema: T) =>
	z.preprocess((value, context) => {
		if (typeof value !== 'string') return value;
		const text = value.trim();
		if (!text.startsWith('{') && !text.startsWith('[')) return value;
		const parsed = tryParseJsonText(text);
		if (parsed.ok) return parsed.value;
		// Fatal: the field's own schema has nothing to say about text that is not JSON.
		context.addIssue({
			code: z.ZodIssueCode.custom,
			message: `is not valid JSON: ${parsed.problem}`,
			fatal: true,
		});
		return z.NEVER;
	}, schema);

/**
 * For fields where plain text is a value of its own (a Responses input, a stop word): JSON
 * text is parsed when it parses, any other text stays text.
 */
export const textOrJsonText = <T extends z.ZodTypeAny>(schema: T) =>
	z.preprocess((value) => {
		if (typeof value !== 'string') return value;
		const text = value.trim();
		if (!text.startsWith('{') && !text.startsWith('[')) return value;
		const parsed = tryParseJsonText(text);
		return parsed.ok ? parsed.value : value;
	}, schema);

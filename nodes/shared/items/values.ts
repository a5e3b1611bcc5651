import type { IDataObject } from 'n8n-workflow';

/**
 * Small checks on parameter values and gateway answers, written once. A parameter left at
 * its default (an empty text, `{}` or `[]` in a JSON field) means "not set": the field is
 * left out of the request.
 */

/** Undefined, null, or text that is empty once trimmed. */
export function isBlank(value: unknown): value is undefined | null | '' {
	return (
		value === undefined || value === null || (typeof value === 'string' && value.trim() === '')
	);
}

/** Blank, or an empty JSON list or object (as text or as a value). */
export function isBlankJson(value: unknown): boolean {
	if (isBlank(value)) return true;
	if (typeof value === 'string') return ['{}', '[]'].includes(value.replace(/\s/g, ''));
	if (Array.isArray(value)) return value.length === 0;
	return isRecord(value) && Object.keys(value).length === 0;
}

/** The text trimmed, or undefined when it is not text or is blank. */
export function trimmedText(value: unknown): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A plain JSON object (not null, not a list). */
export function isRecord(value: unknown): value is IDataObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The value as a JSON object, or undefined when it is none. */
export function asRecord(value: unknown): IDataObject | undefined {
	return isRecord(value) ? value : undefined;
}

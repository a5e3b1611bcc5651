import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * The one way JSON text from a parameter is read: text that does not parse is refused,
 * naming the field, the item and where the parser stopped. It is never sent on as a string.
 */

export type JsonTextResult = { ok: true; value: unknown } | { ok: false; problem: string };

/** Parses JSON text; on failure, the parser's reason with its position, line and column. */
export function tryParseJsonText(text: string): JsonTextResult {
	try {
		return { ok: true, value: JSON.parse(text) as unknown };
	} catch (error) {
		return { ok: false, problem: describeJsonError(text, error) };
	}
}

function describeJsonError(text: string, error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	const reason = message
		.replace(/\s+(?:in JSON )?at position \d+.*$/s, '')
		.replace(/, .*is not valid JSON$/s, '');
	const position = errorPosition(text, message);
	const before = text.slice(0, position).split('\n');
	const line = before.length;
	const column = before[before.length - 1].length + 1;
	return `${reason} at position ${position} (line ${line}, column ${column})`;
}

/**
 * Where the parser stopped. Node states it for most errors, but not for "Unexpected token":
 * then it is found as the shortest prefix of the text that already fails for another reason
 * than ending early (every shorter prefix is a valid beginning of JSON).
 */
function errorPosition(text: string, message: string): number {
	const stated = /at position (\d+)/.exec(message);
	if (stated) return Number(stated[1]);
	const failsBeforeItsEnd = (length: number): boolean => {
		const result = tryParse(text.slice(0, length));
		if (result === undefined || /end of JSON input/i.test(result)) return false;
		// "Expected property name ... at position 1" for "{": it only ended early.
		const position = /at position (\d+)/.exec(result);
		return !position || Number(position[1]) < length;
	};
	let low = 0;
	let high = text.length;
	if (!failsBeforeItsEnd(high)) return text.length;
	while (low < high) {
		const middle = Math.floor((low + high) / 2);
		if (failsBeforeItsEnd(middle)) high = middle;
		else low = middle + 1;
	}
	return Math.max(0, low - 1);
}

/** The parser's message for text that does not parse, undefined when it parses. */
function tryParse(text: string): string | undefined {
	try {
		JSON.parse(text);
		return undefined;
	} catch (error) {
		return error instanceof Error ? error.message : String(error);
	}
}

export interface JsonTextField {
	node: INode;
	/** The parameter's display name, as the user sees it. */
	field: string;
	itemIndex: number;
}

/**
 * A JSON parameter's value: a string is parsed (or refused), anything else (an expression
 * that already produced an object or array) is returned as it is.
 */
export function parseJsonText(value: unknown, where: JsonTextField): unknown {
	if (typeof value !== 'string') return value;
	const result = tryParseJsonText(value);
	if (result.ok) return result.value;
	throw new NodeOperationError(
		where.node,
		`Item ${where.itemIndex}: "${where.field}" is not valid JSON: ${result.problem}`,
		{
			itemIndex: where.itemIndex,
			description: 'Nothing was sent to the gateway. Correct the JSON and run the node again.',
		},
	);
}

import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import type { ZodIssue, ZodType, ZodTypeDef } from 'zod';

/** `messages[0].role` from a zod issue path. */
export function fieldPath(path: ReadonlyArray<string | number>): string {
	return path.reduce<string>(
		(text, part) =>
			typeof part === 'number' ? `${text}[${part}]` : text ? `${text}.${part}` : part,
		'',
	);
}

function describeIssue(issue: ZodIssue): string {
	const field = fieldPath(issue.path) || 'request';
	return `"${field}": ${issue.message}`;
}

/**
 * Checks a request body against its operation's schema before anything is sent. A violation
 * becomes a NodeOperationError that names the field, the rule and the item.
 */
export function validateRequest<TOutput>(
	schema: ZodType<TOutput, ZodTypeDef, unknown>,
	value: unknown,
	node: INode,
	itemIndex: number,
): TOutput {
	const result = schema.safeParse(value);
	if (result.success) return result.data;
	const issues = result.error.issues;
	const [first] = issues;
	const more =
		issues.length > 1
			? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})`
			: '';
	return throwValidationError(
		node,
		itemIndex,
		`Item ${itemIndex}: ${describeIssue(first)}${more}`,
		issues,
	);
}

function throwValidationError(
	node: INode,
	itemIndex: number,
	message: string,
	issues: ZodIssue[],
): never {
	throw new NodeOperationError(node, message, {
		itemIndex,
		description: `Nothing was sent to the gateway. ${issues.map(describeIssue).join('; ')}`,
	});
}

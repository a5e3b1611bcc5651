import { isRecord, isString } from './validate';

/**
 * A value that satisfies a JSON schema's top level well enough for tests: one
 * placeholder per required property (enum → first value, by type otherwise).
 */
export function placeholderObject(schema: unknown): Record<string, unknown> {
	if (!isRecord(schema)) return {};
	const properties = isRecord(schema.properties) ? schema.properties : {};
	const required = Array.isArray(schema.required) ? schema.required.filter(isString) : [];
	return Object.fromEntries(required.map((name) => [name, placeholderValue(properties[name])]));
}

/** A placeholder for one property schema (enum → first value, by type otherwise; strings "example"). */
export function placeholderValue(propertySchema: unknown): unknown {
	if (!isRecord(propertySchema)) return 'example';
	if (Array.isArray(propertySchema.enum) && propertySchema.enum.length > 0)
		return propertySchema.enum[0];
	const declared = propertySchema.type;
	const type = Array.isArray(declared) ? declared.find((t) => t !== 'null') : declared;
	switch (type) {
		case 'number':
		case 'integer':
			return 1;
		case 'boolean':
			return true;
		case 'array':
			return [];
		case 'object':
			return placeholderObject(propertySchema);
		case 'null':
			return null;
		default:
			return 'example';
	}
}

/**
 * The JSON schema a prompt asks the answer to follow, as output parsers' format instructions
 * put it (LangChain: "... JSON Schema ... ```json {schema} ```"): the first fenced JSON block
 * that is an object schema. Invented: a real model would follow it, so the simulator does too.
 */
export function schemaInPrompt(text: string): Record<string, unknown> | undefined {
	for (const match of text.matchAll(/```(?:json)?\s*\n([\s\S]*?)\n\s*```/g)) {
		try {
			const parsed = JSON.parse(match[1]) as unknown;
			if (
				parsed !== null &&
				typeof parsed === 'object' &&
				!Array.isArray(parsed) &&
				(parsed as Record<string, unknown>).type === 'object'
			)
				return parsed as Record<string, unknown>;
		} catch {
			// not a schema block
		}
	}
	return undefined;
}

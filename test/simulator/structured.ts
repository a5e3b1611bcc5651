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

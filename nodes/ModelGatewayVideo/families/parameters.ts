import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';
import { itemParameter, nodeOfRun } from '../../shared/items/itemParameters';

/**
 * Reading n8n parameters into request bodies. Nothing here validates: a value that cannot
 * be read (e.g. invalid JSON) is passed on as it is, so the operation's zod schema rejects
 * it with a message naming the field and the item.
 */

/** Name of the node option holding extra body fields (JSON), shared by every family. */
export const ADDITIONAL_BODY_FIELDS = 'additionalBodyFields';
/** Node option: add the credential's callback secret to a create's Callback URL. */
export const ADD_CALLBACK_SECRET = 'addCallbackSecret';
export const NODE_OPTIONS = 'options';

/** A JSON parameter (object or text) as a value; unparseable text stays text. */
export function jsonValue(value: unknown): unknown {
	if (typeof value !== 'string') return value;
	if (value.trim() === '') return undefined;
	try {
		return JSON.parse(value) as unknown;
	} catch {
		return value;
	}
}

/** Drops undefined, null and empty-string members so optional fields are simply absent. */
export function compact(record: Record<string, unknown>): IDataObject {
	const result: IDataObject = {};
	for (const [key, value] of Object.entries(record)) {
		if (value === undefined || value === null || value === '') continue;
		result[key] = value as IDataObject[string];
	}
	return result;
}

/** Splits a comma- or newline-separated list of URLs. */
export function listOfText(value: unknown): string[] | undefined {
	if (Array.isArray(value)) return value.map(String);
	if (typeof value !== 'string' || value.trim() === '') return undefined;
	return value
		.split(/[\n,]/)
		.map((entry) => entry.trim())
		.filter((entry) => entry !== '');
}

export function familyOptions(
	context: IExecuteFunctions,
	itemIndex: number,
	name: string,
): IDataObject {
	return itemParameter(context, name, itemIndex, {}) as IDataObject;
}

/** The value a person gave, as short text: the row's cell to fix, never megabytes of it. */
function shownValue(value: unknown): string {
	const text = typeof value === 'string' ? value : JSON.stringify(value);
	return text.length > 80 ? `${text.slice(0, 80)}… (${text.length} characters)` : text;
}

/** A JSON parameter that must hold an object (or JSON text of one); empty gives `{}`. */
export function jsonObjectParameter(
	context: IExecuteFunctions,
	itemIndex: number,
	parameter: string,
	label: string,
): IDataObject {
	const value = jsonValue(itemParameter(context, parameter, itemIndex, '') as unknown);
	if (value === undefined) return {};
	if (value === null || typeof value !== 'object' || Array.isArray(value)) {
		throw new NodeOperationError(
			nodeOfRun(context),
			`Item ${itemIndex}: "${label}": must be a JSON object, and is ${shownValue(value)}`,
			{ itemIndex, description: 'Nothing was sent to the gateway.' },
		);
	}
	return value as IDataObject;
}

/** The "Additional Body Fields (JSON)" escape hatch for fields a newer gateway adds. */
export function additionalBodyFields(context: IExecuteFunctions, itemIndex: number): IDataObject {
	return jsonObjectParameter(
		context,
		itemIndex,
		`${NODE_OPTIONS}.${ADDITIONAL_BODY_FIELDS}`,
		'Additional Body Fields',
	);
}

/** JSON options whose inner shape the spec does not show: parsed and passed through. */
export function jsonFields(options: IDataObject, names: Record<string, string>): IDataObject {
	const result: Record<string, unknown> = {};
	for (const [option, field] of Object.entries(names)) result[field] = jsonValue(options[option]);
	return compact(result);
}

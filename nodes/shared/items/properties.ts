import type { INodeProperties } from 'n8n-workflow';

import { concurrencyOption } from './items';
import { timeoutOption, traceIdOption } from '../gateway/transport';

/**
 * Property builders every node shares, so the same field looks and is named the same
 * everywhere: the model, the options collection, Items in Flight, Trace ID and binary fields.
 */

/** "Items in Flight"; its logic lives with the item loop it controls. */
export const itemsInFlightOption = concurrencyOption;

/**
 * "Trace ID" and "Timeout (Seconds)" (with a per-node default); they live beside the
 * transport that sends X-Trace-ID and applies the timeout.
 */
export { timeoutOption, traceIdOption };

export const modelProperty = (placeholder: string, description: string): INodeProperties => ({
	displayName: 'Model',
	name: 'model',
	type: 'string',
	default: '',
	required: true,
	placeholder,
	description,
});

const byDisplayName = (first: INodeProperties, second: INodeProperties) =>
	first.displayName.localeCompare(second.displayName, 'en');

/** The "Options" collection, its entries sorted by display name as n8n's linter expects. */
export const optionsCollection = (options: INodeProperties[]): INodeProperties => ({
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [...options].sort(byDisplayName),
});

/** n8n's input binary field parameter: one or more field names, separated by commas. */
export const inputBinaryFieldsProperty = (
	description: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties => ({
	displayName: 'Input Binary Field(s)',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	placeholder: 'e.g. data, data_1',
	hint: 'The name of the input binary field(s) holding the files, separated by commas',
	description,
	...extra,
});

/** n8n's output binary field parameter. */
export const outputBinaryFieldProperty = (
	description: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties => ({
	displayName: 'Put Output File in Field',
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	hint: 'The name of the output binary field to put the file in',
	description,
	...extra,
});

import type { INodeProperties } from 'n8n-workflow';

/** Property builders the family editor halves share. */

/** A family's prompt: multi-line text; required unless the family accepts other inputs instead. */
export function promptProperty(
	name: string,
	extra: Pick<INodeProperties, 'description' | 'required'> = {},
): INodeProperties {
	return {
		displayName: 'Prompt',
		name,
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		...extra,
	};
}

/** A family's optional create fields, as one collection (keep `options` sorted by display name). */
export function videoOptionsProperty(name: string, options: INodeProperties[]): INodeProperties {
	return {
		displayName: 'Video Options',
		name,
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		options,
	};
}

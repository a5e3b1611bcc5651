import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { CreateRequest, TaskReference } from '../../shared/tasks';

/**
 * One family's editor half: what the Video node shows and reads for it. The wire half
 * (nodes/shared/tasks) parses and queries tasks; this half only builds create requests from
 * node parameters. The editor table adds the display options, so properties here are plain.
 */
export interface FamilyEditor {
	/** One line under the family's name in the Family selector. */
	description: string;
	/** Create parameters; shown for this family's Create only. */
	createProperties: INodeProperties[];
	/** Get Status parameters besides the task ID, when a task is defined by hand. */
	referenceProperties: INodeProperties[];
	/** Reads `referenceProperties` into the task reference. */
	readReference(
		context: IExecuteFunctions,
		itemIndex: number,
	): Pick<TaskReference, 'model' | 'endpoint'>;
	/** A notice on Get Status about how this family's tasks are queried; empty for none. */
	queryHint: string;
	buildCreateRequest(
		context: IExecuteFunctions,
		itemIndex: number,
		model: string,
	): Promise<CreateRequest>;
}

/** For families whose tasks need nothing but their ID to be queried. */
export const ID_ONLY_REFERENCE: Pick<FamilyEditor, 'referenceProperties' | 'readReference'> = {
	referenceProperties: [],
	readReference: () => ({}),
};

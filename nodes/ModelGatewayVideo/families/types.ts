import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';

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
	/** Reads the family's Create parameters into a checked create request; nothing is sent. */
	buildCreateRequest(
		context: IExecuteFunctions,
		itemIndex: number,
		model: string,
	): Promise<CreateRequest>;
	/**
	 * Checks request fields given as data (a sheet row's JSON, in the gateway's own field names,
	 * without the model) against the family's rules and builds the create request. The one
	 * way from fields to a request: `buildCreateRequest` ends here too.
	 */
	requestFromFields(fields: IDataObject, target: CreateTarget): CreateRequest;
	/** Create endpoints to choose from, for families that have several; the first is the default. */
	createEndpoints?: readonly string[];
}

/** What a create request is for: model, endpoint (families with several) and the item, for errors. */
export interface CreateTarget {
	model: string;
	endpoint?: string;
	node: INode;
	itemIndex: number;
}

/** For families whose tasks need nothing but their ID to be queried. */
export const ID_ONLY_REFERENCE: Pick<FamilyEditor, 'referenceProperties' | 'readReference'> = {
	referenceProperties: [],
	readReference: () => ({}),
};

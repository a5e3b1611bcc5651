import type { IDataObject } from 'n8n-workflow';

import type { WorkflowNodeSpec } from './harness';

/** A Model Gateway Video node spec for the engine harness. */
export function videoNode(
	family: string,
	operation: 'create' | 'getStatus',
	parameters: IDataObject = {},
	extra: Partial<WorkflowNodeSpec> = {},
): WorkflowNodeSpec {
	return { type: 'modelGatewayVideo', parameters: { family, operation, ...parameters }, ...extra };
}

/** Create then Get Status, chained with no configuration on the second node. */
export function createThenGet(family: string, createParameters: IDataObject): WorkflowNodeSpec[] {
	return [
		videoNode(family, 'create', createParameters, { name: 'Create' }),
		// A different family on purpose: the item's own `family` field decides.
		videoNode(family === 'generic' ? 'taskS' : 'generic', 'getStatus', {}, { name: 'Get Status' }),
	];
}

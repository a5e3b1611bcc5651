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

/**
 * Create then Get Status, chained with no configuration on the second node. A Task family S
 * task may be queried only 10 minutes after creation: its items pass a node standing for those
 * minutes (pair it with the simulator's `taskAgeMs`, which ages the gateway's side).
 */
export function createThenGet(family: string, createParameters: IDataObject): WorkflowNodeSpec[] {
	return [
		videoNode(family, 'create', createParameters, { name: 'Create' }),
		...(family === 'taskS'
			? [{ type: 'test.ageTasks', name: '10 Minutes Later', parameters: { ageMs: 601_000 } }]
			: []),
		// A different family on purpose: the item's own `family` field decides.
		videoNode(family === 'generic' ? 'taskS' : 'generic', 'getStatus', {}, { name: 'Get Status' }),
	];
}

import { FAMILY_A_CREDENTIAL_PROBE, familyAFamily } from './familyA';
import { familyBFamily } from './familyB';
import { familyCFamily } from './familyC';
import { genericFamily } from './generic';
import { longRunningFamily } from './longRunning';
import { FAMILY_IDS, type FamilyId } from './familyIds';
import type { NormalizedTask, ParseContext, TaskFamily } from './task';
import { taskSFamily } from './taskS';

/**
 * The family table (wire halves): family id → module. The Video node's editor table and
 * callback recognition follow from it. A new family is one module here, its id in
 * ./familyIds.ts and one line below; the compiler refuses a table whose keys differ from the
 * ids.
 */
export const TASK_FAMILIES = {
	taskS: taskSFamily,
	familyA: familyAFamily,
	generic: genericFamily,
	familyB: familyBFamily,
	familyC: familyCFamily,
	longRunning: longRunningFamily,
} as const satisfies Readonly<Record<FamilyId, TaskFamily>>;

export { FAMILY_IDS, type FamilyId };

/**
 * The free read the API credential's test sends, and the body codes by which its answer
 * says the key is wrong (see credentialTests.ts).
 */
export const CREDENTIAL_PROBE = FAMILY_A_CREDENTIAL_PROBE;

export function isFamilyId(value: unknown): value is FamilyId {
	return typeof value === 'string' && Object.prototype.hasOwnProperty.call(TASK_FAMILIES, value);
}

export function taskFamily(id: FamilyId): TaskFamily {
	return TASK_FAMILIES[id];
}

/** The first family that recognizes a callback body, with the task it describes. */
export function recognizeCallback(
	body: unknown,
	context?: Partial<ParseContext>,
): NormalizedTask | undefined {
	for (const family of FAMILY_IDS) {
		const task = TASK_FAMILIES[family].recognizeCallback(body, context);
		if (task) return task;
	}
	return undefined;
}

export * from './task';

import { FAMILY_A_CREDENTIAL_PROBE, familyAFamily } from './familyA';
import { familyBFamily } from './familyB';
import { familyCFamily } from './familyC';
import { genericFamily } from './generic';
import { longRunningFamily } from './longRunning';
import type { NormalizedTask, ParseContext, TaskFamily } from './task';
import { taskSFamily } from './taskS';

/**
 * The family table (wire halves): family id → module. It is the only list of families; the
 * ids, the Video node's editor table (which must match it) and callback recognition all
 * follow from it. A new family is one module here and one line below.
 */
export const TASK_FAMILIES = {
	taskS: taskSFamily,
	familyA: familyAFamily,
	generic: genericFamily,
	familyB: familyBFamily,
	familyC: familyCFamily,
	longRunning: longRunningFamily,
} as const satisfies Readonly<Record<string, TaskFamily>>;

/** A family id: a key of the family table, written into every task as `family`. */
export type FamilyId = keyof typeof TASK_FAMILIES;

export const FAMILY_IDS = Object.keys(TASK_FAMILIES) as FamilyId[];

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

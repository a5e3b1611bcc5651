/**
 * The family ids, in the order editors list them. The family table (./index.ts) must have
 * exactly these keys (the compiler checks it). They live here, apart from the table, because
 * the task model (./task.ts) needs their type and the table needs the task model.
 */
export const FAMILY_IDS = [
	'taskS',
	'familyA',
	'generic',
	'familyB',
	'familyC',
	'longRunning',
] as const;

/** A family id, written into every task as `family`. */
export type FamilyId = (typeof FAMILY_IDS)[number];

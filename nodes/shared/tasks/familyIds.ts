/**
 * The family ids, in the order editors list them. The family table (./index.ts) must have
 * exactly these keys, each with a module of that id (the compiler checks both), so the ids
 * live here without importing the table: the task model (./task.ts) needs the type, and the
 * table needs the task model.
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

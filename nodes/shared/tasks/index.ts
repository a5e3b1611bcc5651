import { familyAFamily } from './familyA';
import { familyBFamily } from './familyB';
import { familyCFamily } from './familyC';
import { genericFamily } from './generic';
import { longRunningFamily } from './longRunning';
import type { FamilyId, NormalizedTask, ParseContext, TaskFamily } from './task';
import { taskSFamily } from './taskS';

/** The family table: family id → module. A new family is one module and one line here. */
export const TASK_FAMILIES: Readonly<Record<FamilyId, TaskFamily>> = {
	taskS: taskSFamily,
	familyA: familyAFamily,
	generic: genericFamily,
	familyB: familyBFamily,
	familyC: familyCFamily,
	longRunning: longRunningFamily,
};

export const FAMILY_IDS = Object.keys(TASK_FAMILIES) as FamilyId[];

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

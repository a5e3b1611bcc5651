import type { FamilyId } from '../../shared/tasks';
import { familyAEditor } from './familyA';
import { familyBEditor } from './familyB';
import { familyCEditor } from './familyC';
import { genericEditor } from './generic';
import { longRunningEditor } from './longRunning';
import { taskSEditor } from './taskS';
import type { FamilyEditor } from './types';

/**
 * The editor table: each family's editor half, keyed by the wire table's ids. Typed as a
 * record over every family id, so a family without an editor half does not compile.
 */
export const FAMILY_EDITORS: Readonly<Record<FamilyId, FamilyEditor>> = {
	taskS: taskSEditor,
	familyA: familyAEditor,
	generic: genericEditor,
	familyB: familyBEditor,
	familyC: familyCEditor,
	longRunning: longRunningEditor,
};

export type { FamilyEditor } from './types';

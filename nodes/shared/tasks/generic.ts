import type { StatusTable, TaskFamily } from './task';
import { GENERIC_VIDEO_STATUS, videoTaskQuerying } from './videoRecord';

/** Generic video, wire half: created and queried as a generic video task. */

export const GENERIC_STATUS: StatusTable = GENERIC_VIDEO_STATUS;

export const genericFamily: TaskFamily = {
	id: 'generic',
	displayName: 'Generic Video',
	...videoTaskQuerying('generic', GENERIC_STATUS),
	// No callback is documented for this family.
	recognizeCallback: () => undefined,
};

import type { StatusTable, TaskFamily } from './task';
import { GENERIC_VIDEO_STATUS, videoTaskQuerying } from './videoRecord';

/**
 * Family B, wire half: its creation answers with the generic video task field set, and its
 * tasks are queried as generic video tasks (no query of its own is documented).
 */

export const FAMILY_B_STATUS: StatusTable = {
	...GENERIC_VIDEO_STATUS,
	// Upstream words: FINISH with a non-null `error` is a failure (see parseVideoRecord).
	waiting: 'queued',
	finish: 'succeeded',
	finished: 'succeeded',
};

export const familyBFamily: TaskFamily = {
	id: 'familyB',
	displayName: 'Family B',
	...videoTaskQuerying('familyB', FAMILY_B_STATUS),
	recognizeCallback: () => undefined,
};

import type { NormalizedTask, StatusTable, TaskFamily } from './task';
import { asRecord, callbackContext, createdTask, mapStatus, requireTaskId, text } from './task';
import { parseVideoRecord, videoTaskQuerying } from './videoRecord';

/**
 * Family C, wire half: its creation answers {task_id, state, id}; its tasks are queried as
 * generic video tasks, by `id`.
 */

export const FAMILY_C_STATUS: StatusTable = {
	created: 'queued',
	queueing: 'queued',
	queued: 'queued',
	processing: 'running',
	in_progress: 'running',
	success: 'succeeded',
	completed: 'succeeded',
	failed: 'failed',
	fail: 'failed',
};

/** Queried like a generic video task; only creation differs. */
const querying = videoTaskQuerying('familyC', FAMILY_C_STATUS, { statusField: 'state' });

export const familyCFamily: TaskFamily = {
	id: 'familyC',
	displayName: 'Family C',
	parseCreateResponse(body, context) {
		const record = asRecord(body) ?? {};
		// `id` is the video id GET /v1/videos/{id} knows; `task_id` the upstream's number.
		const taskId = requireTaskId(text(record.id) ?? text(record.task_id), 'familyC', body);
		const rawStatus = text(record.state) ?? text(record.status) ?? null;
		return createdTask('familyC', taskId, body, context, {
			status: rawStatus ? mapStatus(FAMILY_C_STATUS, rawStatus) : 'queued',
			rawStatus,
		});
	},
	// Its create answer names the video id as the generic family's does.
	answerFailure: querying.answerFailure,
	buildQueryRequest: querying.buildQueryRequest,
	parseTaskRecord: querying.parseTaskRecord,
	pollPolicy: querying.pollPolicy,
	recognizeCallback(body, context): NormalizedTask | undefined {
		const record = asRecord(body);
		if (!record || typeof record.state !== 'string' || text(record.id) === undefined)
			return undefined;
		return parseVideoRecord(body, 'familyC', FAMILY_C_STATUS, callbackContext(context), {
			statusField: 'state',
		}).task;
	},
};

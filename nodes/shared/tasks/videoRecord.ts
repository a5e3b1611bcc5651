import type {
	FamilyId,
	ParseContext,
	ParsedTask,
	PollPolicy,
	StatusTable,
	TaskAnswerFailures,
	TaskFamily,
	TaskStatus,
} from './task';
import {
	asRecord,
	distinctUrls,
	encodePathSegment,
	finiteNumber,
	isoTime,
	mapStatus,
	normalizedTask,
	requireTaskId,
	taskAnswerFailures,
	taskError,
	text,
} from './task';

/**
 * The generic video task record (`GET /v1/videos/{id}`), which the generic family, Family B
 * and Family C are all queried through. Not a family itself: a parser the three share.
 */

export const VIDEO_QUERY_PATH = '/v1/videos/';

/** Status words of the generic video task shape, including words some upstreams report through it. */
export const GENERIC_VIDEO_STATUS: StatusTable = {
	queued: 'queued',
	in_progress: 'running',
	completed: 'succeeded',
	failed: 'failed',
	preparing: 'queued',
	queueing: 'queued',
	processing: 'running',
	success: 'succeeded',
	fail: 'failed',
};

export function videoQueryPath(taskId: string): string {
	return `${VIDEO_QUERY_PATH}${encodePathSegment(taskId)}`;
}

/** Where result URLs may be: the simulator's top-level `video_url`, and common upstream spots. */
function resultUrls(record: Record<string, unknown>): string[] {
	const lists = [record.creations, record.videos, record.data, record.output]
		.filter(Array.isArray)
		.flatMap((list: unknown[]) => list.map((entry) => asRecord(entry)?.url ?? entry));
	return distinctUrls([record.video_url, record.url, ...lists]);
}

export function parseVideoRecord(
	body: unknown,
	family: FamilyId,
	table: StatusTable,
	context: ParseContext,
	options: { statusField?: string; idField?: string } = {},
): ParsedTask {
	const record = asRecord(body) ?? {};
	const rawStatus =
		text(record[options.statusField ?? 'status']) ??
		text(record.status) ??
		text(record.state) ??
		null;
	let status: TaskStatus = mapStatus(table, rawStatus);
	const error = taskError(record.error);
	// Upstreams that say "finished" for both outcomes report the failure in `error`.
	if (status === 'succeeded' && error) status = 'failed';
	return {
		task: normalizedTask(
			{
				family,
				taskId:
					text(record[options.idField ?? 'id']) ?? text(record.id) ?? text(record.task_id) ?? '',
				model: text(record.model) ?? context.model,
				status,
				rawStatus,
				progress: finiteNumber(record.progress) ?? null,
				videoUrls: status === 'failed' ? [] : resultUrls(record),
				lastFrameUrl: text(record.last_frame_url) ?? null,
				error: status === 'failed' ? error : null,
				createdAt: isoTime(record.created_at),
				raw: body,
			},
			context,
		),
		inlineVideos: [],
	};
}

/** Poll policy for tasks behind GET /v1/videos/{id}: the spec gives none; 10 s is gentle. */
export const VIDEO_TASK_POLL_POLICY: PollPolicy = {
	firstPollAfterMs: 10_000,
	minIntervalMs: 10_000,
	enforcedByGateway: false,
	guidance: 'Query every 10 seconds or more.',
};

/**
 * A create answer names its video task (`id`, or the upstream's `task_id`); a query answer is
 * the task record. The record's `error` is its task's failure, not the request's.
 */
const VIDEO_TASK_ANSWER_FAILURES: TaskAnswerFailures = taskAnswerFailures({
	create: ['id', 'task_id'],
	query: ['id', 'task_id', 'status', 'state'],
});

/**
 * The query side of a family whose tasks are read through GET /v1/videos/{id}; with
 * `createAnswersWithTask`, its create call also answers with the generic task field set.
 */
export function videoTaskQuerying(
	family: FamilyId,
	table: StatusTable,
	options: { statusField?: string } = {},
): Pick<
	TaskFamily,
	'buildQueryRequest' | 'parseTaskRecord' | 'pollPolicy' | 'parseCreateResponse' | 'answerFailure'
> {
	return {
		answerFailure: VIDEO_TASK_ANSWER_FAILURES,
		buildQueryRequest: (reference) => ({
			method: 'GET',
			path: videoQueryPath(reference.taskId),
		}),
		parseTaskRecord: (body, context) => parseVideoRecord(body, family, table, context, options),
		pollPolicy: VIDEO_TASK_POLL_POLICY,
		parseCreateResponse(body, context) {
			requireTaskId(text(asRecord(body)?.id) ?? text(asRecord(body)?.task_id), family, body);
			return parseVideoRecord(body, family, table, context, options);
		},
	};
}

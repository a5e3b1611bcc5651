import { codeMemberFailure } from '../gateway/transport';
import type { NormalizedTask, ParseContext, ParsedTask, StatusTable, TaskFamily } from './task';
import {
	asRecord,
	callbackContext,
	createdTask,
	distinctUrls,
	encodePathSegment,
	isoTime,
	mapStatus,
	normalizedTask,
	requireTaskId,
	taskAnswerFailures,
	taskError,
	text,
} from './task';

/**
 * Family A, wire half: POST {FAMILY_A_PATH}{endpoint} → envelope with task_id;
 * GET {FAMILY_A_PATH}{endpoint}/{task_id} → envelope with data. Business errors arrive as a
 * non-zero numeric `code` inside HTTP 200.
 */

export const FAMILY_A_PATH = '/vendor-a/v1/videos/';

export const FAMILY_A_STATUS: StatusTable = {
	submitted: 'queued',
	processing: 'running',
	succeed: 'succeeded',
	succeeded: 'succeeded',
	failed: 'failed',
};

/** The endpoints a task can be queried under; a task is queried under the one it was created with. */
export const FAMILY_A_ENDPOINTS = ['omni-video', 'image2video', 'text2video'] as const;
export const FAMILY_A_DEFAULT_ENDPOINT = 'omni-video';

/**
 * What the API credential's test sends: a query for a task that does not exist (a free
 * read), and the `code` values by which the answer says the key is wrong (1000-1004).
 */
export const FAMILY_A_CREDENTIAL_PROBE = {
	path: `${FAMILY_A_PATH}${FAMILY_A_DEFAULT_ENDPOINT}/n8n-credential-test`,
	codeKey: 'code',
	authenticationFailureCodes: [1000, 1001, 1002, 1003, 1004],
};

function recordOf(body: unknown): Record<string, unknown> | undefined {
	const record = asRecord(body);
	if (!record) return undefined;
	const data = asRecord(record.data);
	return data && (data.task_id !== undefined || data.task_status !== undefined) ? data : record;
}

function parseRecord(body: unknown, context: ParseContext): ParsedTask {
	const record = recordOf(body) ?? {};
	const result = asRecord(record.task_result) ?? {};
	const videos = Array.isArray(result.videos)
		? result.videos.map((video) => asRecord(video) ?? {})
		: [];
	const status = mapStatus(FAMILY_A_STATUS, record.task_status);
	const message = text(record.task_status_msg);
	return {
		task: normalizedTask(
			{
				family: 'familyA',
				taskId: text(record.task_id) ?? text(asRecord(body)?.task_id) ?? '',
				endpoint: context.endpoint ?? FAMILY_A_DEFAULT_ENDPOINT,
				status,
				rawStatus: text(record.task_status) ?? null,
				progress: null,
				videoUrls: distinctUrls(videos.map((video) => video.url)),
				lastFrameUrl: null,
				error:
					status === 'failed'
						? taskError(message ?? 'The task failed without a message', 'task_failed')
						: null,
				createdAt: isoTime(record.created_at),
				raw: body,
			},
			context,
		),
		inlineVideos: [],
	};
}

/** Business failures: a non-zero `code`, even on HTTP 200. */
const FAMILY_A_CODE = codeMemberFailure((code) => Number(code) === 0);

export const familyAFamily: TaskFamily = {
	id: 'familyA',
	displayName: 'Family A',
	answerFailure: taskAnswerFailures(
		{ create: ['task_id'], query: ['task_id', 'task_status'] },
		FAMILY_A_CODE,
	),
	parseCreateResponse(body, context) {
		const record = asRecord(body) ?? {};
		const data = asRecord(record.data) ?? {};
		const taskId = requireTaskId(text(record.task_id) ?? text(data.task_id), 'familyA', body);
		const rawStatus = text(data.task_status) ?? null;
		return createdTask('familyA', taskId, body, context, {
			endpoint: context.endpoint ?? FAMILY_A_DEFAULT_ENDPOINT,
			status: rawStatus ? mapStatus(FAMILY_A_STATUS, rawStatus) : 'queued',
			rawStatus,
		});
	},
	buildQueryRequest(reference) {
		// No endpoint (a bare task id): the default one. A wrong one is refused, not guessed: a
		// task is found only under the endpoint it was created with.
		const endpoint = reference.endpoint || FAMILY_A_DEFAULT_ENDPOINT;
		if (!(FAMILY_A_ENDPOINTS as readonly string[]).includes(endpoint)) {
			throw new Error(
				`"Endpoint" is "${endpoint}", which is not a Family A endpoint (one of ${FAMILY_A_ENDPOINTS.join(', ')})`,
			);
		}
		return {
			method: 'GET',
			path: `${FAMILY_A_PATH}${endpoint}/${encodePathSegment(reference.taskId)}`,
		};
	},
	parseTaskRecord: parseRecord,
	pollPolicy: {
		firstPollAfterMs: 10_000,
		minIntervalMs: 10_000,
		enforcedByGateway: false,
		guidance: 'Query every 10 seconds or more.',
	},
	recognizeCallback(body, context): NormalizedTask | undefined {
		const record = recordOf(body);
		if (!record || text(record.task_id) === undefined || typeof record.task_status !== 'string')
			return undefined;
		return parseRecord(body, callbackContext(context)).task;
	},
};

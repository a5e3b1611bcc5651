import { normalizeCost, normalizeUsage } from '../gateway/usage';
import { codeMemberFailure } from '../gateway/transport';
import type { NormalizedTask, ParseContext, ParsedTask, StatusTable, TaskFamily } from './task';
import {
	asRecord,
	callbackContext,
	createdTask,
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
 * Task family S, wire half: POST {TASK_S_PATH}create → {id}; GET {TASK_S_PATH}get/{id} →
 * {code, message, data}. A `code` other than `success` is a failure inside HTTP 200.
 */

export const TASK_S_PATH = '/v1/task/';

export const TASK_S_STATUS: StatusTable = {
	queued: 'queued',
	running: 'running',
	succeeded: 'succeeded',
	failed: 'failed',
	cancelled: 'failed',
	canceled: 'failed',
	expired: 'failed',
};

/** The record's `usage` (token counts) and `cost` (money as strings, with its currency). */
const TASK_S_USAGE = { output: 'completion_tokens', total: 'total_tokens' };
const TASK_S_COST = {
	currency: 'currency',
	input: 'input_cost',
	output: 'output_cost',
	total: 'total_cost',
};

/** The task record, bare or inside the query envelope `{code, message, data}`. */
function recordOf(body: unknown): Record<string, unknown> | undefined {
	const record = asRecord(body);
	if (!record) return undefined;
	const data = asRecord(record.data);
	return data && (data.id !== undefined || data.status !== undefined) ? data : record;
}

function parseRecord(body: unknown, context: ParseContext): ParsedTask {
	const record = recordOf(body) ?? {};
	const content = asRecord(record.content) ?? {};
	const status = mapStatus(TASK_S_STATUS, record.status);
	return {
		task: normalizedTask(
			{
				family: 'taskS',
				taskId: text(record.id) ?? '',
				model: text(record.model) ?? context.model,
				status,
				rawStatus: text(record.status) ?? null,
				progress: finiteNumber(record.progress) ?? null,
				videoUrls: distinctUrls([content.video_url]),
				lastFrameUrl: text(content.last_frame_url) ?? null,
				error: status === 'failed' ? taskError(record.error) : null,
				createdAt: isoTime(record.created_at),
				usage: normalizeUsage(record.usage, TASK_S_USAGE),
				cost: normalizeCost(record.cost, TASK_S_COST),
				raw: body,
			},
			context,
		),
		inlineVideos: [],
	};
}

/** A `code` other than `success` is a failure; creation answers are a bare `{id}` without one. */
const TASK_S_CODE = codeMemberFailure((code) => String(code).toLowerCase() === 'success');

export const taskSFamily: TaskFamily = {
	id: 'taskS',
	displayName: 'Task Family S',
	answerFailure: taskAnswerFailures({ create: ['id'], query: ['id', 'status'] }, TASK_S_CODE),
	parseCreateResponse(body, context) {
		const record = asRecord(body) ?? {};
		const taskId = requireTaskId(text(record.id) ?? text(asRecord(record.data)?.id), 'taskS', body);
		return createdTask('taskS', taskId, body, context);
	},
	buildQueryRequest(reference) {
		return {
			method: 'GET',
			path: `${TASK_S_PATH}get/${encodePathSegment(reference.taskId)}`,
		};
	},
	parseTaskRecord: parseRecord,
	pollPolicy: {
		firstPollAfterMs: 10 * 60_000,
		minIntervalMs: 60_000,
		enforcedByGateway: true,
		queryOnlyWithoutCallback: true,
		guidance:
			'Query only when no callback arrived 10 minutes after creation, then at most once per minute.',
	},
	recognizeCallback(body, context): NormalizedTask | undefined {
		const record = recordOf(body);
		// Fields of other record shapes (`task_status`, `state`, `creations`, the generic and
		// Family B records' `object`): not a record of this family.
		if (!record || text(record.id) === undefined || typeof record.status !== 'string')
			return undefined;
		if (['task_status', 'state', 'creations', 'object'].some((field) => field in record))
			return undefined;
		return parseRecord(body, callbackContext(context)).task;
	},
};

import { newId, unixSeconds } from '../../ids';
import { MAGIC, UNKNOWN_STATUS_WORD } from '../../magic';
import { retryAfterHeaders } from '../../rateLimit';
import { json, refused, type Reply } from '../../reply';
import type { Route } from '../../router';
import type { SimState } from '../../state';
import {
	statusAt,
	statusChangedAt,
	TASK_S_QUERY_INTERVAL_MS,
	taskSPollingVerdict,
	type PollingVerdict,
	type SimTask,
	type TaskStatus,
} from '../../tasks';
import {
	arrayField,
	booleanField,
	firstIssue,
	isHttpUrl,
	isRecord,
	type Issue,
	type JsonObject,
	notAnObject,
	numberField,
	optionalBoolean,
	optionalHttpUrl,
	optionalNumber,
	optionalString,
	requiredArray,
	requiredString,
	stringField,
} from '../../validate';
import { createVideoTask, failureMessage, findTask, resultUrls } from './videoTasks';

/** Task family S: POST /v1/task/create, GET /v1/task/get/{id}. */
export function taskSRoutes(state: SimState): Route[] {
	return [
		{
			host: 'base',
			methods: ['POST'],
			pattern: /^\/v1\/task\/create$/,
			handle: ({ body }) => createTask(state, body),
		},
		{
			host: 'base',
			methods: ['GET'],
			pattern: /^\/v1\/task\/get\/([^/]+)$/,
			polledTaskId: ([id]) => id,
			handle: ({ params: [id] }) => getTask(state, id),
		},
	];
}

function taskSError(status: number, code: string, message: string): Reply {
	return json(status, { code, message });
}

function invalidBody(message: string): Reply {
	return refused('invalid-body', message, 400, { code: 'InvalidParameter', message });
}

function createTask(state: SimState, body: unknown): Reply {
	if (!isRecord(body)) return invalidBody(notAnObject().message);
	const issue = validateCreate(body);
	if (issue) return invalidBody(issue.message);

	const prompt = arrayField(body, 'content')
		.filter(isRecord)
		.map((item) => (item.type === 'text' && typeof item.text === 'string' ? item.text : ''))
		.join(' ')
		.trim();
	if (prompt.includes(MAGIC.businessError))
		return taskSError(200, 'QuotaExceeded', 'quota exceeded');

	const callbackUrl = stringField(body, 'callback_url');
	const task = createVideoTask(state, {
		family: 'taskS',
		id: newId('cgt-'),
		model: String(body.model),
		prompt,
		request: body,
		callback: callbackUrl
			? { url: callbackUrl, body: (created, status) => taskRecord(state, created, status) }
			: undefined,
	});
	return json(200, { id: task.id });
}

function getTask(state: SimState, id: string): Reply {
	const task = findTask(state, id, ['taskS']);
	if (!task) {
		const message = `The specified task ${id} is not found.`;
		return refused('unknown-id', message, 404, { code: 'NotFound', message });
	}
	const now = Date.now();
	const verdict = taskSPollingVerdict(task, now);
	// "At most once per minute per task" counts every query, a refused one too.
	task.lastQueryAt = now;
	if (verdict !== undefined) return refuseQuery(state, task, verdict, now);
	return json(200, {
		code: 'success',
		message: '',
		data: taskRecord(state, task, statusAt(task, now)),
	});
}

/** A query against the polling rule: 429 with the wait, recorded as a violation for tests. */
function refuseQuery(state: SimState, task: SimTask, verdict: PollingVerdict, now: number): Reply {
	// This query counts as the last one: the next is allowed a minute after it at the earliest.
	const waitMs = Math.max(verdict.allowedAt, now + TASK_S_QUERY_INTERVAL_MS) - now;
	const message =
		verdict.rule === 'task-s-query-too-early'
			? `Task ${task.id} was queried ${Math.round((now - task.createdAt) / 1000)} s after creation; query only when no callback arrived 10 minutes after creation.`
			: `Task ${task.id} was queried again within a minute; query at most once per minute per task.`;
	state.violations.push({ rule: verdict.rule, taskId: task.id, at: now, message });
	return json(429, { code: 'TooManyRequests', message }, retryAfterHeaders(waitMs));
}

/** The task record (`data` of the query response; also the bare callback body). */
function taskRecord(state: SimState, task: SimTask, status: TaskStatus): JsonObject {
	const request = task.request;
	const succeeded = status === 'succeeded';
	const record: JsonObject = {
		id: task.id,
		model: task.model,
		status: status === 'unknown' ? UNKNOWN_STATUS_WORD : status,
		created_at: unixSeconds(task.createdAt),
		updated_at: unixSeconds(statusChangedAt(task, status)),
		duration: numberField(request, 'duration') ?? 5,
		execution_expires_after: 172800,
		framespersecond: 24,
		generate_audio: booleanField(request, 'generate_audio') ?? false,
		ratio: stringField(request, 'ratio') ?? '16:9',
		resolution: stringField(request, 'resolution') ?? '720p',
		seed: numberField(request, 'seed') ?? 42,
		service_tier: 'default',
		cost: {
			currency: 'USD',
			input_cost: '0',
			output_cost: succeeded ? '0.25' : '0',
			total_cost: succeeded ? '0.25' : '0',
		},
		usage: { completion_tokens: succeeded ? 108900 : 0, total_tokens: succeeded ? 108900 : 0 },
	};
	if (succeeded) {
		const urls = resultUrls(state, task);
		record.content = { video_url: urls.video, last_frame_url: urls.lastFrame };
	}
	if (status === 'failed')
		record.error = { code: 'GenerationFailed', message: failureMessage(task) };
	return record;
}

const CONTENT_TYPES = ['text', 'image_url', 'video_url', 'audio_url'];

/**
 * Media roles: the spec's observed reference_* roles plus first/last frames ("also allowed"),
 * each only on its own media type. A media item without a role is accepted (the spec does
 * not say it is required).
 */
const ROLES_BY_TYPE: Record<string, readonly string[]> = {
	image_url: ['reference_image', 'first_frame', 'last_frame'],
	video_url: ['reference_video'],
	audio_url: ['reference_audio'],
};

/** Spec: "aspect ratio in the form <w>:<h>", both positive whole numbers. */
function isRatio(value: string): boolean {
	const parts = /^(\d+):(\d+)$/.exec(value);
	return parts !== null && Number(parts[1]) > 0 && Number(parts[2]) > 0;
}

function validateCreate(body: JsonObject): Issue | undefined {
	return firstIssue(
		requiredString(body, 'model'),
		requiredArray(body, 'content', { min: 1, items: 'object' }),
		validateContent(arrayField(body, 'content')),
		optionalBoolean(body, 'generate_audio'),
		optionalString(body, 'ratio'),
		typeof body.ratio === 'string' && !isRatio(body.ratio)
			? { param: 'ratio', message: "'ratio' must be an aspect ratio in the form '<w>:<h>'." }
			: undefined,
		optionalNumber(body, 'duration'),
		optionalBoolean(body, 'watermark'),
		optionalHttpUrl(body, 'callback_url'),
		optionalString(body, 'resolution'),
		optionalNumber(body, 'seed', { integer: true }),
	);
}

function validateContent(items: unknown[]): Issue | undefined {
	for (const [index, item] of items.entries()) {
		if (!isRecord(item)) continue;
		const param = `content[${index}]`;
		const type = item.type;
		if (typeof type !== 'string' || !CONTENT_TYPES.includes(type)) {
			return {
				param: `${param}.type`,
				message: `'${param}.type' must be one of ${CONTENT_TYPES.join(', ')}.`,
			};
		}
		if (type === 'text' && typeof item.text !== 'string')
			return { param: `${param}.text`, message: `'${param}.text' must be a string.` };
		const media = item[type];
		if (
			type !== 'text' &&
			(!isRecord(media) || typeof media.url !== 'string' || !isHttpUrl(media.url))
		) {
			return {
				param: `${param}.${type}.url`,
				message: `'${param}.${type}.url' must be an http(s) URL.`,
			};
		}
		const roles = ROLES_BY_TYPE[type] ?? [];
		if (type !== 'text' && item.role !== undefined && !roles.includes(String(item.role))) {
			return {
				param: `${param}.role`,
				message: `'${param}.role' must be one of ${roles.join(', ')} for ${type} items.`,
			};
		}
	}
	return undefined;
}

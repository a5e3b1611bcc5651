import { isImageUrlOrBase64 } from '../../imageData';
import { newNumericId, newRequestId } from '../../ids';
import { MAGIC, UNKNOWN_STATUS_WORD } from '../../magic';
import { json, refused, type Reply } from '../../reply';
import type { Route } from '../../router';
import type { SimState } from '../../state';
import type { RefusalRule } from '../../types';
import { statusAt, statusChangedAt, type SimTask, type TaskStatus } from '../../tasks';
import {
	arrayField,
	firstIssue,
	isHttpUrl,
	isRecord,
	notAnObject,
	optionalArray,
	optionalHttpUrl,
	optionalNumber,
	optionalObject,
	optionalOneOf,
	optionalString,
	recordField,
	requiredString,
	stringField,
	type Issue,
	type JsonObject,
} from '../../validate';
import { createVideoTask, failureMessage, resultUrls } from './videoTasks';

/** Family A: create omni-video and image2video tasks; query all three kinds. */
type CreatableKind = 'omni-video' | 'image2video';

const STATUS_WORDS: Record<TaskStatus, string> = {
	queued: 'submitted',
	running: 'processing',
	succeeded: 'succeed',
	failed: 'failed',
	unknown: UNKNOWN_STATUS_WORD,
};

// Known Family A business codes (upstream-notes.md).
const INVALID_REQUEST = 1201;
const TASK_NOT_FOUND = 1203;
const CONCURRENCY_LIMIT = 1303;

export function familyARoutes(state: SimState): Route[] {
	return [
		{
			host: 'base',
			methods: ['POST'],
			pattern: /^\/vendor-a\/v1\/videos\/omni-video$/,
			handle: ({ body }) => createTask(state, 'omni-video', body),
		},
		{
			host: 'base',
			methods: ['POST'],
			pattern: /^\/vendor-a\/v1\/videos\/image2video$/,
			handle: ({ body }) => createTask(state, 'image2video', body),
		},
		{
			host: 'base',
			methods: ['GET'],
			pattern: /^\/vendor-a\/v1\/videos\/(omni-video|image2video|text2video)\/([^/]+)$/,
			polledTaskId: ([, taskId]) => taskId,
			handle: ({ params: [kind, taskId] }) => getTask(state, kind, taskId),
		},
	];
}

/** Family A answers business failures with HTTP 200 and a non-zero code. */
function businessError(code: number, message: string): Reply {
	return json(200, { code, message, request_id: newRequestId() });
}

/** A refusal in Family A's shape: HTTP 200 with a non-zero code, recorded as a violation. */
function refusedWithCode(rule: RefusalRule, code: number, message: string): Reply {
	return refused(rule, message, 200, { code, message, request_id: newRequestId() });
}

function envelope(taskId: string, data: JsonObject): Reply {
	return json(200, { code: 0, message: '', task_id: taskId, request_id: newRequestId(), data });
}

function createTask(state: SimState, kind: CreatableKind, body: unknown): Reply {
	if (!isRecord(body))
		return refusedWithCode('invalid-body', INVALID_REQUEST, notAnObject().message);
	const issue = kind === 'omni-video' ? validateOmniVideo(body) : validateImage2Video(body);
	if (issue) return refusedWithCode('invalid-body', INVALID_REQUEST, issue.message);

	const shotPrompts = arrayField(body, 'multi_prompt')
		.filter(isRecord)
		.map((shot) => (typeof shot.prompt === 'string' ? shot.prompt : ''));
	const prompt = [stringField(body, 'prompt') ?? '', ...shotPrompts].join(' ').trim();
	if (prompt.includes(MAGIC.businessError))
		return businessError(CONCURRENCY_LIMIT, 'concurrency limit');

	const callbackUrl = stringField(body, 'callback_url');
	const task = createVideoTask(state, {
		family: 'familyA',
		variant: kind,
		id: newNumericId(),
		model: String(body.model_name),
		prompt,
		request: body,
		callback: callbackUrl
			? { url: callbackUrl, body: (created, status) => taskData(state, created, status) }
			: undefined,
	});
	const status: TaskStatus = task.reportsUnknownStatus ? 'unknown' : 'queued';
	return envelope(task.id, taskData(state, task, status));
}

function getTask(state: SimState, kind: string, taskId: string): Reply {
	const task = state.tasks.find(taskId);
	// A task is only found under the kind that created it, like upstream.
	if (task?.family !== 'familyA' || task.variant !== kind)
		return refusedWithCode('unknown-id', TASK_NOT_FOUND, 'task not found');
	return envelope(task.id, taskData(state, task, statusAt(task, Date.now())));
}

/** `data` of the query response; also the bare callback body. Timestamps in milliseconds. */
function taskData(state: SimState, task: SimTask, status: TaskStatus): JsonObject {
	const externalTaskId = stringField(task.request, 'external_task_id');
	const urls = resultUrls(state, task);
	return {
		task_id: task.id,
		task_status: STATUS_WORDS[status],
		task_status_msg: status === 'failed' ? failureMessage(task) : '',
		task_info: externalTaskId === undefined ? {} : { external_task_id: externalTaskId },
		watermark_info: { enabled: recordField(task.request, 'watermark_info')?.enabled === true },
		task_result: {
			videos:
				status === 'succeeded'
					? [
							{
								id: `${task.id}-0`,
								url: urls.video,
								watermark_url: urls.watermarkedVideo,
								duration: durationText(task.request.duration),
							},
						]
					: [],
			images: null,
		},
		created_at: task.createdAt,
		updated_at: statusChangedAt(task, status),
	};
}

function durationText(duration: unknown): string {
	const seconds =
		typeof duration === 'number'
			? duration
			: typeof duration === 'string'
				? Number.parseFloat(duration)
				: Number.NaN;
	return (Number.isFinite(seconds) ? seconds : 5).toFixed(1);
}

// ---- Validation (limits from the spec) ----

function isCustomMultiShot(body: JsonObject): boolean {
	return (
		(body.shot_type === 'customize' || body.multi_shot === 'customize') &&
		arrayField(body, 'multi_prompt').length > 0
	);
}

function commonChecks(body: JsonObject): Array<Issue | undefined> {
	return [
		requiredString(body, 'model_name'),
		isCustomMultiShot(body) ? optionalString(body, 'prompt') : requiredString(body, 'prompt'),
		optionalString(body, 'negative_prompt'),
		optionalArray(body, 'element_list', { max: 3 }),
		listItemIssue(body, 'element_list', (item) =>
			(typeof item.element_id === 'string' && item.element_id !== '') ||
			typeof item.element_id === 'number'
				? undefined
				: 'must be an object with an element_id',
		),
		optionalOneOf(body, 'sound', ['on', 'off']),
		optionalOneOf(body, 'mode', ['std', 'pro']),
		body.duration === undefined ||
		body.duration === null ||
		typeof body.duration === 'number' ||
		(typeof body.duration === 'string' && /^\d+(\.\d+)?$/.test(body.duration))
			? undefined
			: { param: 'duration', message: "'duration' must be a number of seconds." },
		optionalString(body, 'aspect_ratio'),
		optionalNumber(body, 'cfg_scale', { min: 0, max: 1 }),
		optionalArray(body, 'multi_prompt', { items: 'object' }),
		// Spec (omni-video): items `index` (integer), `prompt` (string), `duration` (string, seconds).
		listItemIssue(body, 'multi_prompt', (shot) =>
			shot.index !== undefined && !Number.isInteger(shot.index)
				? 'index must be an integer'
				: typeof shot.prompt !== 'string'
					? 'prompt must be a string'
					: shot.duration !== undefined &&
						  (typeof shot.duration !== 'string' || !/^\d+(\.\d+)?$/.test(shot.duration))
						? 'duration must be a string of seconds'
						: undefined,
		),
		// Spec Limits: element_list and voice_list are mutually exclusive.
		optionalArray(body, 'voice_list', { max: 2 }),
		arrayField(body, 'element_list').length > 0 && arrayField(body, 'voice_list').length > 0
			? { param: 'voice_list', message: "'element_list' and 'voice_list' cannot be used together." }
			: undefined,
		optionalObject(body, 'watermark_info'),
		optionalHttpUrl(body, 'callback_url'),
		optionalString(body, 'external_task_id'),
	];
}

function validateOmniVideo(body: JsonObject): Issue | undefined {
	const badImage = arrayField(body, 'image_list').findIndex(
		(item) =>
			!isRecord(item) ||
			typeof item.image_url !== 'string' ||
			!isImageUrlOrBase64(item.image_url, { dataUri: false }) ||
			(item.type !== undefined && item.type !== 'first_frame' && item.type !== 'end_frame'),
	);
	return firstIssue(
		...commonChecks(body),
		optionalArray(body, 'image_list', { max: 7 }),
		badImage >= 0
			? {
					param: `image_list[${badImage}].image_url`,
					message: `'image_list[${badImage}]' needs an image_url (http(s) URL or raw Base64 image) and, if typed, type first_frame or end_frame.`,
				}
			: undefined,
		optionalArray(body, 'video_list', { max: 1 }),
		listItemIssue(body, 'video_list', (item) =>
			typeof item.video_url !== 'string' || !isHttpUrl(item.video_url)
				? 'must be an object with an http(s) video_url'
				: item.refer_type !== undefined &&
					  item.refer_type !== 'feature' &&
					  item.refer_type !== 'base'
					? "refer_type must be 'feature' or 'base'"
					: undefined,
		),
		// Spec: "normally required unless a first frame or video editing is used".
		typeof body.aspect_ratio === 'string' || hasFirstFrame(body) || isVideoEditing(body)
			? undefined
			: {
					param: 'aspect_ratio',
					message:
						"'aspect_ratio' is required unless image_list has a first_frame or video_list edits a video (refer_type 'base').",
				},
		body.multi_shot === undefined || typeof body.multi_shot === 'boolean'
			? undefined
			: { param: 'multi_shot', message: "'multi_shot' must be a boolean." },
		optionalOneOf(body, 'shot_type', ['customize']),
		// Spec: `multi_shot` "enables custom shots": shots without it are not custom shots.
		(body.shot_type === 'customize' || arrayField(body, 'multi_prompt').length > 0) &&
			body.multi_shot !== true
			? {
					param: 'multi_shot',
					message: "Custom shots ('shot_type' customize, 'multi_prompt') need 'multi_shot': true.",
				}
			: undefined,
	);
}

/**
 * Item shapes are "not shown" in the spec; these follow the upstream's public API
 * (video_list: video_url, refer_type feature|base; element_list: element_id). See README.
 */
function listItemIssue(
	body: JsonObject,
	key: string,
	problem: (item: JsonObject) => string | undefined,
): Issue | undefined {
	for (const [index, item] of arrayField(body, key).entries()) {
		const found = isRecord(item) ? problem(item) : 'must be an object';
		if (found !== undefined)
			return { param: `${key}[${index}]`, message: `'${key}[${index}]' ${found}.` };
	}
	return undefined;
}

function hasFirstFrame(body: JsonObject): boolean {
	return arrayField(body, 'image_list').some(
		(item) => isRecord(item) && item.type === 'first_frame',
	);
}

function isVideoEditing(body: JsonObject): boolean {
	return arrayField(body, 'video_list').some(
		(item) => isRecord(item) && item.refer_type === 'base',
	);
}

/** Spec: "URL or Base64"; the upstream wants raw Base64, without a data: prefix. */
function frameIssue(body: JsonObject, key: string): Issue | undefined {
	const value = body[key];
	if (value === undefined || value === null) return undefined;
	if (typeof value === 'string' && isImageUrlOrBase64(value, { dataUri: false })) return undefined;
	return { param: key, message: `'${key}' must be an http(s) URL or raw Base64 image data.` };
}

function validateImage2Video(body: JsonObject): Issue | undefined {
	const hasFrame = [body.image, body.image_tail].some(
		(frame) => typeof frame === 'string' && frame !== '',
	);
	return firstIssue(
		...commonChecks(body),
		hasFrame
			? undefined
			: { param: 'image', message: "At least one of 'image' and 'image_tail' is required." },
		frameIssue(body, 'image'),
		frameIssue(body, 'image_tail'),
		body.multi_shot === undefined ||
			typeof body.multi_shot === 'boolean' ||
			body.multi_shot === 'intelligence' ||
			body.multi_shot === 'customize'
			? undefined
			: {
					param: 'multi_shot',
					message: "'multi_shot' must be a boolean, 'intelligence' or 'customize'.",
				},
		optionalOneOf(body, 'shot_type', ['intelligence', 'customize']),
		optionalString(body, 'static_mask'),
		optionalArray(body, 'dynamic_masks'),
		optionalObject(body, 'camera_control'),
	);
}

import { openAiInvalid } from '../../errors';
import { newId, newNumericId } from '../../ids';
import { json, type Reply } from '../../reply';
import type { Route } from '../../router';
import type { SimState } from '../../state';
import {
	arrayField,
	firstIssue,
	isHttpUrl,
	isRecord,
	type Issue,
	type JsonObject,
	notAnObject,
	optionalArray,
	optionalBoolean,
	optionalHttpUrl,
	optionalNumber,
	optionalObject,
	optionalString,
	requiredString,
} from '../../validate';
import { createVideoTask } from './videoTasks';

/** Family C: create only; the task is queried through GET /v1/videos/{id} (either id works). */
export function familyCRoutes(state: SimState): Route[] {
	return [
		{
			host: 'base',
			methods: ['POST'],
			pattern: /^\/vendor-c\/ent\/v2\/reference2video$/,
			handle: ({ body }) => createReferenceVideo(state, body),
		},
	];
}

function createReferenceVideo(state: SimState, body: unknown): Reply {
	if (!isRecord(body)) return openAiInvalid(notAnObject());
	const issue = validateCreate(body);
	if (issue) return openAiInvalid(issue);
	const task = createVideoTask(state, {
		family: 'familyC',
		id: newId('video_'),
		otherIds: [newNumericId()],
		model: String(body.model),
		prompt: String(body.prompt),
		request: body,
	});
	return json(200, { task_id: task.aliases[1], state: 'created', id: task.id });
}

function validateCreate(body: JsonObject): Issue | undefined {
	return firstIssue(
		requiredString(body, 'model'),
		requiredString(body, 'prompt'),
		...[
			'version',
			'type',
			'aspect_ratio',
			'resolution',
			'size',
			'movement_amplitude',
			'audio_type',
			'voice_id',
			'style',
		].map((key) => optionalString(body, key)),
		// Spec: "image URLs", "first-frame URL", "reference video URLs".
		optionalHttpUrl(body, 'init_image'),
		urlListIssue(body, 'images'),
		urlListIssue(body, 'videos'),
		optionalArray(body, 'subjects', { items: 'object' }),
		...['auto_subjects', 'bgm', 'audio', 'is_audio', 'is_rec', 'off_peak'].map((key) =>
			optionalBoolean(body, key),
		),
		body.duration === undefined ||
			body.duration === null ||
			typeof body.duration === 'number' ||
			(typeof body.duration === 'string' && /^\d+(\.\d+)?$/.test(body.duration))
			? undefined
			: {
					param: 'duration',
					message: "'duration' must be a number of seconds (a number or a numeric string).",
				},
		optionalNumber(body, 'seed', { integer: true }),
		optionalObject(body, 'payload'),
		optionalObject(body, 'params'),
	);
}

function urlListIssue(body: JsonObject, key: string): Issue | undefined {
	const listIssue = optionalArray(body, key, { items: 'string' });
	if (listIssue) return listIssue;
	const bad = arrayField(body, key).findIndex((url) => !isHttpUrl(String(url)));
	return bad < 0
		? undefined
		: { param: `${key}[${bad}]`, message: `'${key}[${bad}]' must be an http(s) URL.` };
}

import { openAiInvalid, openAiNotFound } from '../../errors';
import { newId } from '../../ids';
import { json, type Reply } from '../../reply';
import type { Route } from '../../router';
import type { SimState } from '../../state';
import { statusAt, type TaskStatus } from '../../tasks';
import {
	firstIssue,
	isRecord,
	notAnObject,
	optionalBoolean,
	optionalObject,
	optionalOneOf,
	recordField,
	requiredString,
	type Issue,
	type JsonObject,
} from '../../validate';
import { videoTaskView } from './genericTask';
import { createVideoTask, findTask } from './videoTasks';

/** Generic video: POST /v1/videos; GET /v1/videos/{id} also serves Family B and C tasks. */
export function genericVideoRoutes(state: SimState): Route[] {
	return [
		{
			host: 'base',
			methods: ['POST'],
			pattern: /^\/v1\/videos$/,
			handle: ({ body }) => createVideo(state, body),
		},
		{
			host: 'base',
			methods: ['GET'],
			pattern: /^\/v1\/videos\/([^/]+)$/,
			polledTaskId: ([id]) => id,
			handle: ({ params: [id] }) => getVideo(state, id),
		},
	];
}

function createVideo(state: SimState, body: unknown): Reply {
	if (!isRecord(body)) return openAiInvalid(notAnObject());
	const issue = validateCreate(body);
	if (issue) return openAiInvalid(issue);
	const task = createVideoTask(state, {
		family: 'generic',
		id: newId('video_'),
		otherIds: [newId('task_')],
		model: String(body.model),
		prompt: String(body.prompt),
		request: body,
	});
	const status: TaskStatus = task.reportsUnknownStatus ? 'unknown' : 'queued';
	return json(200, videoTaskView(state, task, status));
}

function getVideo(state: SimState, id: string): Reply {
	const task = findTask(state, id, ['generic', 'familyB', 'familyC']);
	if (!task) return openAiNotFound(`Video '${id}' not found.`);
	return json(200, videoTaskView(state, task, statusAt(task, Date.now())));
}

const METADATA_FLAGS = ['prompt_optimizer', 'fast_pretreatment', 'aigc_watermark'];

function validateCreate(body: JsonObject): Issue | undefined {
	const metadata = recordField(body, 'metadata') ?? {};
	const badFlag = METADATA_FLAGS.find((key) => optionalBoolean(metadata, key) !== undefined);
	return firstIssue(
		requiredString(body, 'model'),
		requiredString(body, 'prompt'),
		optionalOneOf(body, 'duration', [6, 10]),
		optionalOneOf(body, 'size', ['768p', '1080p']),
		optionalObject(body, 'metadata'),
		badFlag === undefined
			? undefined
			: { param: `metadata.${badFlag}`, message: `'metadata.${badFlag}' must be a boolean.` },
	);
}

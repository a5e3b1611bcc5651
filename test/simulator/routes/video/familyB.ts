import { openAiInvalid } from '../../errors';
import { newId, newNumericId } from '../../ids';
import { json, type Reply } from '../../reply';
import type { Route } from '../../router';
import type { SimState } from '../../state';
import type { TaskStatus } from '../../tasks';
import {
	firstIssue,
	isRecord,
	notAnObject,
	optionalArray,
	optionalNumber,
	optionalObject,
	optionalString,
	recordField,
	requiredString,
	stringField,
	type Issue,
	type JsonObject,
} from '../../validate';
import { videoTaskView } from './genericTask';
import { createVideoTask } from './videoTasks';

/** Family B: PascalCase create body; answers (and is queried) as a generic video task. */
export function familyBRoutes(state: SimState): Route[] {
	return [
		{
			host: 'base',
			methods: ['POST'],
			pattern: /^\/vendor-b\/v1\/video\/generations$/,
			handle: ({ body }) => createGeneration(state, body),
		},
	];
}

function createGeneration(state: SimState, body: unknown): Reply {
	if (!isRecord(body)) return openAiInvalid(notAnObject());
	const issue = validateCreate(body);
	if (issue) return openAiInvalid(issue);
	const task = createVideoTask(state, {
		family: 'familyB',
		id: newId('video_'),
		otherIds: [newNumericId()],
		model: String(body.ModelName),
		prompt: stringField(body, 'Prompt') ?? '',
		request: body,
	});
	const status: TaskStatus = task.reportsUnknownStatus ? 'unknown' : 'queued';
	return json(200, videoTaskView(state, task, status));
}

function validateCreate(body: JsonObject): Issue | undefined {
	const output = recordField(body, 'OutputConfig') ?? {};
	const otherCase = Object.keys(body).find((key) => {
		const specName = specFieldName(key);
		return specName !== undefined && specName !== key;
	});
	return firstIssue(
		otherCase === undefined
			? undefined
			: {
					param: otherCase,
					message: `'${otherCase}' is not a Family B field: the spec names it '${specFieldName(otherCase)}' (PascalCase).`,
				},
		requiredString(body, 'ModelName'),
		...[
			'ModelVersion',
			'Prompt',
			'LastFrameFileId',
			'LastFrameUrl',
			'NegativePrompt',
			'EnhancePrompt',
			'InputRegion',
			'SceneType',
			'SessionId',
			'SessionContext',
		].map((key) => optionalString(body, key)),
		optionalArray(body, 'FileInfos', { items: 'object' }),
		optionalObject(body, 'OutputConfig'),
		optionalNumber(output, 'Duration', { min: 1, integer: true }) && {
			param: 'OutputConfig.Duration',
			message: "'OutputConfig.Duration' must be a positive integer.",
		},
		optionalString(output, 'Resolution') && {
			param: 'OutputConfig.Resolution',
			message: "'OutputConfig.Resolution' must be a string.",
		},
		optionalNumber(body, 'Seed', { integer: true }),
		optionalNumber(body, 'TasksPriority', { integer: true }),
	);
}

/** The spec's Family B fields, all PascalCase (written here again: the simulator reads the spec, not the nodes). */
const SPEC_FIELDS = [
	'ModelName',
	'ModelVersion',
	'Prompt',
	'FileInfos',
	'LastFrameFileId',
	'LastFrameUrl',
	'NegativePrompt',
	'EnhancePrompt',
	'OutputConfig',
	'InputRegion',
	'SceneType',
	'Seed',
	'SessionId',
	'SessionContext',
	'TasksPriority',
	'ExtInfo',
];

/** The spec's field for `key` in any case (`seed` → `Seed`, `output_config` → `OutputConfig`). */
function specFieldName(key: string): string | undefined {
	const folded = key.replace(/_/g, '').toLowerCase();
	return SPEC_FIELDS.find((field) => field.toLowerCase() === folded);
}

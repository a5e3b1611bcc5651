import { resultMp4 } from '../../files';
import { isBase64Text } from '../../imageData';
import { newId } from '../../ids';
import { MAGIC, UNKNOWN_STATUS_WORD } from '../../magic';
import { json, refused, type Reply } from '../../reply';
import type { Route } from '../../router';
import type { SimState } from '../../state';
import type { RefusalRule } from '../../types';
import { statusAt, type SimTask, type TaskStatus } from '../../tasks';
import {
	arrayField,
	firstIssue,
	isRecord,
	notAnObject,
	numberField,
	optionalBoolean,
	optionalNumber,
	optionalObject,
	optionalString,
	recordField,
	type Issue,
	type JsonObject,
} from '../../validate';
import { createVideoTask, failureMessage, findTask } from './videoTasks';

const RESPONSE_TYPE = 'type.googleapis.com/cloud.ai.large_models.vision.GenerateVideoResponse';
/** google.rpc.Code INVALID_ARGUMENT, the code a failed operation carries. */
const RPC_INVALID_ARGUMENT = 3;

/** Long-running family: create an operation, then poll it by name. */
export function longRunningRoutes(state: SimState): Route[] {
	return [
		{
			host: 'base',
			methods: ['POST'],
			pattern: /^\/v1beta\/models\/([^/:]+):predictLongRunning$/,
			handle: ({ params: [model], body }) => createOperation(state, model, body),
		},
		{
			host: 'base',
			methods: ['GET'],
			pattern: /^\/v1\/models\/([^/]+)\/operations\/([^/]+)$/,
			polledTaskId: ([, operationId]) => operationId,
			handle: ({ params: [model, operationId] }) => getOperation(state, model, operationId),
		},
	];
}

function googleError(rule: RefusalRule, status: number, rpcStatus: string, message: string): Reply {
	return refused(rule, message, status, { error: { code: status, message, status: rpcStatus } });
}

function operationName(model: string, operationId: string): string {
	return `models/${model}/operations/${operationId}`;
}

function createOperation(state: SimState, model: string, body: unknown): Reply {
	if (!isRecord(body))
		return googleError('invalid-body', 400, 'INVALID_ARGUMENT', notAnObject().message);
	const issue = validateCreate(body);
	if (issue)
		return googleError(
			'invalid-body',
			400,
			'INVALID_ARGUMENT',
			`${issue.param ?? 'body'}: ${issue.message}`,
		);
	const operationId = newId('op', 10);
	const prompt = arrayField(body, 'instances')
		.filter(isRecord)
		.map((instance) => (typeof instance.prompt === 'string' ? instance.prompt : ''))
		.join(' ');
	createVideoTask(state, {
		family: 'longRunning',
		id: operationId,
		otherIds: [operationName(model, operationId)],
		model,
		prompt,
		request: body,
	});
	return json(200, { name: operationName(model, operationId) });
}

function getOperation(state: SimState, model: string, operationId: string): Reply {
	const task = findTask(state, operationId, ['longRunning']);
	// The operation name embeds the model: a different model names a different operation.
	if (!task || task.model !== model)
		return googleError(
			'unknown-id',
			404,
			'NOT_FOUND',
			`Operation ${operationName(model, operationId)} not found.`,
		);
	return json(200, operationView(state, task, statusAt(task, Date.now())));
}

function operationView(state: SimState, task: SimTask, status: TaskStatus): JsonObject {
	const name = operationName(task.model, task.id);
	switch (status) {
		case 'queued':
		case 'running':
			return { name, done: false };
		case 'unknown':
			// There is no status field here; an unknown state shows as never finishing.
			return { name, done: false, metadata: { state: UNKNOWN_STATUS_WORD } };
		case 'failed':
			return {
				name,
				done: true,
				error: { code: RPC_INVALID_ARGUMENT, message: failureMessage(task), details: [] },
			};
		case 'succeeded':
			if (task.prompt.includes(MAGIC.safety)) {
				return {
					name,
					done: true,
					response: {
						'@type': RESPONSE_TYPE,
						raiMediaFilteredCount: 1,
						raiMediaFilteredReasons: ['The video was filtered by safety policies.'],
						videos: [],
					},
				};
			}
			return {
				name,
				done: true,
				response: {
					'@type': RESPONSE_TYPE,
					videos: Array.from({ length: sampleCount(task) }, () => videoSample(state, task)),
				},
			};
	}
}

function videoSample(state: SimState, task: SimTask): JsonObject {
	return {
		mimeType: 'video/mp4',
		encoding: 'base64',
		bytesBase64Encoded: resultMp4(state.options.resultVideoBytes, task.id).bytes.toString('base64'),
	};
}

function sampleCount(task: SimTask): number {
	return numberField(recordField(task.request, 'parameters') ?? {}, 'sampleCount') ?? 1;
}

function validateCreate(body: JsonObject): Issue | undefined {
	const instances = arrayField(body, 'instances');
	const parameters = recordField(body, 'parameters') ?? {};
	const parameterIssue = firstIssue(
		optionalNumber(parameters, 'sampleCount', { min: 1, integer: true }),
		optionalNumber(parameters, 'durationSeconds', { min: 1, integer: true }),
		optionalString(parameters, 'aspectRatio'),
		optionalString(parameters, 'resolution'),
		optionalString(parameters, 'negativePrompt'),
		optionalBoolean(parameters, 'generateAudio'),
		optionalBoolean(parameters, 'enhancePrompt'),
	);
	return firstIssue(
		instances.length > 0 && instances.every(isRecord)
			? undefined
			: { param: 'instances', message: 'at least one instance object is required' },
		...instances.filter(isRecord).map(validateInstance),
		optionalObject(body, 'parameters'),
		parameterIssue && {
			param: `parameters.${parameterIssue.param ?? ''}`,
			message: parameterIssue.message,
		},
	);
}

function validateInstance(instance: JsonObject, index: number): Issue | undefined {
	// The spec: "Which fields are required: not shown"; only the types are checked.
	const prompt = optionalString(instance, 'prompt');
	if (prompt) return { ...prompt, param: `instances[${index}].prompt` };
	for (const key of ['image', 'lastFrame']) {
		const media = instance[key];
		if (media === undefined) continue;
		if (
			!isRecord(media) ||
			typeof media.bytesBase64Encoded !== 'string' ||
			typeof media.mimeType !== 'string'
		) {
			return {
				param: `instances[${index}].${key}`,
				message: 'must be {bytesBase64Encoded, mimeType}',
			};
		}
		if (!isBase64Text(media.bytesBase64Encoded)) {
			return {
				param: `instances[${index}].${key}.bytesBase64Encoded`,
				message: 'must be Base64 text (the image bytes)',
			};
		}
	}
	return undefined;
}

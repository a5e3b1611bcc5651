import type { IDataObject } from 'n8n-workflow';

import { familyCCreateSchema } from '../schemas/video/familyC';
import { validateRequest } from '../schemas/validate';
import { additionalBodyFields, compact, familyOptions, jsonFields, listOfText } from './parameters';
import type { NormalizedTask, StatusTable, TaskFamily } from './task';
import {
	asRecord,
	callbackContext,
	forCreateOf,
	mapStatus,
	normalizedTask,
	requireTaskId,
	text,
} from './task';
import { parseVideoRecord, videoTaskQuerying } from './videoRecord';

/**
 * Family C: POST /vendor-c/ent/v2/reference2video → {task_id, state, id}; queried through
 * GET /v1/videos/{id}, which accepts Family C ids.
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

const PROMPT = 'familyCPrompt';
const OPTIONS = 'familyCOptions';
const JSON_OPTIONS = { subjects: 'subjects', payload: 'payload', params: 'params' };
const LIST_OPTIONS = ['images', 'videos'];

const booleanOption = (displayName: string, name: string, description?: string) => ({
	displayName,
	name,
	type: 'boolean' as const,
	default: false,
	...(description ? { description } : {}),
});
const textOption = (displayName: string, name: string, description?: string) => ({
	displayName,
	name,
	type: 'string' as const,
	default: '',
	...(description ? { description } : {}),
});

export const familyCFamily: TaskFamily = {
	id: 'familyC',
	displayName: 'Family C',
	description: 'POST /vendor-c/ent/v2/reference2video, reference to video',
	queryHint: 'Queried with GET /v1/videos/{id}, which accepts Family C ids.',
	createProperties: forCreateOf('familyC', [
		{
			displayName: 'Prompt',
			name: PROMPT,
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			required: true,
		},
		{
			displayName: 'Video Options',
			name: OPTIONS,
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				textOption('Aspect Ratio', 'aspect_ratio'),
				booleanOption('Audio', 'audio'),
				textOption('Audio Type', 'audio_type'),
				booleanOption('Auto Subjects', 'auto_subjects'),
				booleanOption('Background Music', 'bgm'),
				textOption('Duration (Seconds)', 'duration', 'Sent as text, as in the spec sample'),
				textOption('Images', 'images', 'Reference image URLs, separated by commas or new lines'),
				textOption('Init Image', 'init_image', 'First-frame URL'),
				booleanOption('Is Audio', 'is_audio', 'Compatibility field for audio'),
				booleanOption('Is Rec', 'is_rec', 'Whether to use a recommended voice or audio'),
				textOption('Movement Amplitude', 'movement_amplitude'),
				booleanOption('Off Peak', 'off_peak', 'Whether to run in off-peak mode'),
				{
					displayName: 'Params (JSON)',
					name: 'params',
					type: 'json',
					default: '{}',
					description: 'Passed to the upstream unchanged',
				},
				{
					displayName: 'Payload (JSON)',
					name: 'payload',
					type: 'json',
					default: '{}',
					description: 'Passed to the upstream unchanged',
				},
				textOption('Resolution', 'resolution'),
				{
					displayName: 'Seed',
					name: 'seed',
					type: 'number',
					typeOptions: { numberPrecision: 0 },
					default: 0,
				},
				textOption('Size', 'size', 'Alternative to Resolution'),
				textOption('Style', 'style'),
				{
					displayName: 'Subjects (JSON)',
					name: 'subjects',
					type: 'json',
					default: '[]',
					description: 'List of subject objects, passed unchanged',
				},
				textOption('Type', 'type', 'Reference video type'),
				textOption('Version', 'version', 'Model version'),
				textOption('Videos', 'videos', 'Reference video URLs, separated by commas or new lines'),
				textOption('Voice ID', 'voice_id'),
			],
		},
	]),
	async buildCreateRequest(context, itemIndex, model) {
		const options = familyOptions(context, itemIndex, OPTIONS);
		const plain: IDataObject = { ...options };
		for (const name of [...Object.keys(JSON_OPTIONS), ...LIST_OPTIONS]) delete plain[name];
		const body = validateRequest(
			familyCCreateSchema,
			{
				model,
				prompt: context.getNodeParameter(PROMPT, itemIndex, '') as string,
				...compact(plain),
				...compact({ images: listOfText(options.images), videos: listOfText(options.videos) }),
				...jsonFields(options, JSON_OPTIONS),
				...additionalBodyFields(context, itemIndex),
			},
			context.getNode(),
			itemIndex,
		);
		return {
			method: 'POST',
			path: '/vendor-c/ent/v2/reference2video',
			body: body as IDataObject,
			envelope: 'none',
			model,
		};
	},
	parseCreateResponse(body, context) {
		const record = asRecord(body) ?? {};
		// `id` is the video id GET /v1/videos/{id} knows; `task_id` the upstream's number.
		const taskId = requireTaskId(text(record.id) ?? text(record.task_id), 'familyC', body);
		const rawStatus = text(record.state) ?? text(record.status) ?? null;
		return {
			task: normalizedTask(
				{
					family: 'familyC',
					taskId,
					status: rawStatus ? mapStatus(FAMILY_C_STATUS, rawStatus) : 'queued',
					rawStatus,
					progress: null,
					videoUrls: [],
					lastFrameUrl: null,
					error: null,
					raw: body,
				},
				context,
			),
			inlineVideos: [],
		};
	},
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

import type { IDataObject } from 'n8n-workflow';

import { taskSCreateSchema } from '../schemas/video/taskS';
import { validateRequest } from '../schemas/validate';
import { additionalBodyFields, compact, familyOptions } from './parameters';
import type { NormalizedTask, ParseContext, ParsedTask, StatusTable, TaskFamily } from './task';
import {
	asRecord,
	callbackContext,
	distinctUrls,
	encodePathSegment,
	finiteNumber,
	forCreateOf,
	isoTime,
	mapStatus,
	normalizedTask,
	requireTaskId,
	taskError,
	text,
} from './task';

/** Task family S: POST /v1/task/create → {id}; GET /v1/task/get/{id} → {code, message, data}. */

export const TASK_S_STATUS: StatusTable = {
	queued: 'queued',
	running: 'running',
	succeeded: 'succeeded',
	failed: 'failed',
	cancelled: 'failed',
	canceled: 'failed',
	expired: 'failed',
};

const CONTENT = 'taskSContent';
const OPTIONS = 'taskSOptions';

const mediaTypes = ['image_url', 'video_url', 'audio_url'];

function contentItem(entry: IDataObject): IDataObject {
	const type = String(entry.type ?? 'text');
	if (type === 'text') return { type, text: entry.text };
	const item: IDataObject = { type, [type]: { url: entry.url } };
	if (entry.role) item.role = entry.role;
	return item;
}

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
				raw: body,
			},
			context,
		),
		inlineVideos: [],
	};
}

export const taskSFamily: TaskFamily = {
	id: 'taskS',
	displayName: 'Task Family S',
	description: 'POST /v1/task/create, multimodal content items',
	queryHint:
		'Queried with GET /v1/task/get/{id}. The gateway advises querying only when no callback arrived 10 minutes after creation, and at most once per minute.',
	createProperties: forCreateOf('taskS', [
		{
			displayName: 'Content',
			name: CONTENT,
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			default: { items: [{ type: 'text', text: '' }] },
			placeholder: 'Add Content Item',
			description: 'Prompt text and reference media, in order',
			options: [
				{
					displayName: 'Item',
					name: 'items',
					values: [
						{
							displayName: 'Type',
							name: 'type',
							type: 'options',
							options: [
								{ name: 'Text', value: 'text' },
								{ name: 'Image URL', value: 'image_url' },
								{ name: 'Video URL', value: 'video_url' },
								{ name: 'Audio URL', value: 'audio_url' },
							],
							default: 'text',
						},
						{
							displayName: 'Text',
							name: 'text',
							type: 'string',
							typeOptions: { rows: 3 },
							default: '',
							displayOptions: { show: { type: ['text'] } },
							description: 'The prompt',
						},
						{
							displayName: 'URL',
							name: 'url',
							type: 'string',
							default: '',
							placeholder: 'https://example.com/reference.png',
							displayOptions: { show: { type: mediaTypes } },
							description: 'Public URL of the media',
						},
						{
							displayName: 'Role',
							name: 'role',
							type: 'options',
							options: [
								{ name: 'First Frame', value: 'first_frame' },
								{ name: 'Last Frame', value: 'last_frame' },
								{ name: 'None', value: '' },
								{ name: 'Reference Audio', value: 'reference_audio' },
								{ name: 'Reference Image', value: 'reference_image' },
								{ name: 'Reference Video', value: 'reference_video' },
							],
							default: '',
							displayOptions: { show: { type: mediaTypes } },
							description: 'How the model uses this media',
						},
					],
				},
			],
		},
		{
			displayName: 'Video Options',
			name: OPTIONS,
			type: 'collection',
			placeholder: 'Add Option',
			default: {},
			options: [
				{
					displayName: 'Callback URL',
					name: 'callback_url',
					type: 'string',
					default: '',
					placeholder: 'https://example.com/hook?secret=...',
					description:
						'Public URL that receives every status change (a Task Callback Trigger webhook, for example)',
				},
				{
					displayName: 'Duration (Seconds)',
					name: 'duration',
					type: 'number',
					typeOptions: { minValue: 1 },
					default: 5,
				},
				{ displayName: 'Generate Audio', name: 'generate_audio', type: 'boolean', default: false },
				{
					displayName: 'Ratio',
					name: 'ratio',
					type: 'string',
					default: '16:9',
					description: 'Aspect ratio in the form width:height',
				},
				{
					displayName: 'Resolution',
					name: 'resolution',
					type: 'string',
					default: '720p',
					placeholder: 'e.g. 720p',
				},
				{
					displayName: 'Seed',
					name: 'seed',
					type: 'number',
					typeOptions: { numberPrecision: 0 },
					default: -1,
					description: 'Random seed; -1 lets the model choose',
				},
				{ displayName: 'Watermark', name: 'watermark', type: 'boolean', default: false },
			],
		},
	]),
	async buildCreateRequest(context, itemIndex, model) {
		const entries = context.getNodeParameter(`${CONTENT}.items`, itemIndex, []) as IDataObject[];
		const options = familyOptions(context, itemIndex, OPTIONS);
		const body = validateRequest(
			taskSCreateSchema,
			{
				model,
				content: entries.map(contentItem),
				...compact(options),
				...additionalBodyFields(context, itemIndex),
			},
			context.getNode(),
			itemIndex,
		);
		return {
			method: 'POST',
			path: '/v1/task/create',
			body: body as IDataObject,
			envelope: 'familyS',
			model,
		};
	},
	parseCreateResponse(body, context) {
		const record = asRecord(body) ?? {};
		const taskId = requireTaskId(text(record.id) ?? text(asRecord(record.data)?.id), 'taskS', body);
		return {
			task: normalizedTask(
				{
					family: 'taskS',
					taskId,
					status: 'queued',
					rawStatus: null,
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
	buildQueryRequest(reference) {
		return {
			method: 'GET',
			path: `/v1/task/get/${encodePathSegment(reference.taskId)}`,
			envelope: 'familyS',
		};
	},
	parseTaskRecord: parseRecord,
	pollPolicy: {
		firstPollAfterMs: 10 * 60_000,
		minIntervalMs: 60_000,
		guidance:
			'Query only when no callback arrived 10 minutes after creation, then at most once per minute.',
	},
	recognizeCallback(body, context): NormalizedTask | undefined {
		const record = recordOf(body);
		// A Family A record has task_id/task_status; a Family C one has state/creations.
		if (!record || text(record.id) === undefined || typeof record.status !== 'string')
			return undefined;
		if ('task_status' in record || 'state' in record || 'creations' in record) return undefined;
		return parseRecord(body, callbackContext(context)).task;
	},
};

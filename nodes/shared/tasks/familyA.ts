import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readBinaryAsBase64 } from '../binary';
import { familyAImage2VideoSchema, familyAOmniVideoSchema } from '../schemas/video/familyA';
import { validateRequest } from '../schemas/validate';
import { additionalBodyFields, compact, familyOptions, jsonFields } from './parameters';
import type { NormalizedTask, ParseContext, ParsedTask, StatusTable, TaskFamily } from './task';
import {
	asRecord,
	callbackContext,
	distinctUrls,
	encodePathSegment,
	forCreateOf,
	isoTime,
	mapStatus,
	normalizedTask,
	requireTaskId,
	taskError,
	text,
} from './task';

/**
 * Family A: POST /vendor-a/v1/videos/{omni-video,image2video} → envelope with task_id;
 * GET /vendor-a/v1/videos/{kind}/{task_id} → envelope with data. Business errors arrive
 * as a non-zero `code` in HTTP 200 (handled by the transport's `familyA` envelope).
 */

export const FAMILY_A_STATUS: StatusTable = {
	submitted: 'queued',
	processing: 'running',
	succeed: 'succeeded',
	succeeded: 'succeeded',
	failed: 'failed',
};

export const FAMILY_A_ENDPOINTS = ['omni-video', 'image2video', 'text2video'] as const;
const CREATE_ENDPOINTS = ['omni-video', 'image2video'];

const ENDPOINT = 'familyAEndpoint';
const PROMPT = 'familyAPrompt';
const FRAME_SOURCE = 'familyAFrameSource';
const IMAGE = 'familyAImage';
const IMAGE_TAIL = 'familyAImageTail';
const IMAGE_PROPERTY = 'familyAImageBinaryProperty';
const IMAGE_TAIL_PROPERTY = 'familyAImageTailBinaryProperty';
const IMAGE_LIST = 'familyAImageList';
const OPTIONS = 'familyAOptions';

const onlyFor = (endpoint: string, extra: IDataObject = {}) => ({
	show: { [ENDPOINT]: [endpoint], ...extra },
});

const jsonOption = (
	displayName: string,
	name: string,
	description: string,
	list: boolean,
): INodeProperties => {
	const defaultJson = list ? '[]' : '{}';
	return { displayName, name, type: 'json', default: defaultJson, description };
};

/** The JSON options passed through unchanged (shapes not shown by the spec). */
const JSON_OPTIONS: Record<string, string> = {
	elementList: 'element_list',
	videoList: 'video_list',
	voiceList: 'voice_list',
	dynamicMasks: 'dynamic_masks',
	cameraControl: 'camera_control',
	watermarkInfo: 'watermark_info',
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
				endpoint: context.endpoint ?? 'omni-video',
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

async function frame(
	context: IExecuteFunctions,
	itemIndex: number,
	source: string,
	urlParameter: string,
	propertyParameter: string,
): Promise<string | undefined> {
	if (source === 'binary') {
		const property = (context.getNodeParameter(propertyParameter, itemIndex, '') as string).trim();
		if (property === '') return undefined;
		// Family A takes raw Base64 (no data: prefix) where it accepts "URL or Base64".
		return (await readBinaryAsBase64(context, itemIndex, property)).base64;
	}
	return (context.getNodeParameter(urlParameter, itemIndex, '') as string).trim() || undefined;
}

function multiShot(value: unknown): boolean | string | undefined {
	if (value === 'true') return true;
	if (value === 'false') return false;
	return typeof value === 'string' && value !== '' ? value : undefined;
}

export const familyAFamily: TaskFamily = {
	id: 'familyA',
	displayName: 'Family A',
	description: 'Omni-video and image-to-video under /vendor-a/v1/videos',
	queryHint:
		'Queried with GET /vendor-a/v1/videos/{endpoint}/{task_id}, under the endpoint the task was created with.',
	createProperties: forCreateOf('familyA', [
		{
			displayName: 'Endpoint',
			name: ENDPOINT,
			type: 'options',
			options: [
				{
					name: 'Omni-Video',
					value: 'omni-video',
					description: 'Text, reference images, videos and subjects',
				},
				{
					name: 'Image to Video',
					value: 'image2video',
					description: 'Animate a first and/or last frame',
				},
			],
			default: 'omni-video',
		},
		{
			displayName: 'Prompt',
			name: PROMPT,
			type: 'string',
			typeOptions: { rows: 3 },
			default: '',
			description: 'Required unless custom multi-shot prompts are given',
		},
		{
			displayName: 'Frame Input',
			name: FRAME_SOURCE,
			type: 'options',
			options: [
				{ name: 'URL or Base64 Text', value: 'url' },
				{
					name: 'Binary Property',
					value: 'binary',
					description: 'Images from the input item, sent as Base64',
				},
			],
			default: 'url',
			displayOptions: onlyFor('image2video'),
		},
		{
			displayName: 'First Frame (Image)',
			name: IMAGE,
			type: 'string',
			default: '',
			placeholder: 'https://example.com/first.png',
			description:
				'URL or Base64 of the first frame. At least one of first and last frame is required.',
			displayOptions: onlyFor('image2video', { [FRAME_SOURCE]: ['url'] }),
		},
		{
			displayName: 'Last Frame (Image Tail)',
			name: IMAGE_TAIL,
			type: 'string',
			default: '',
			description: 'URL or Base64 of the last frame',
			displayOptions: onlyFor('image2video', { [FRAME_SOURCE]: ['url'] }),
		},
		{
			displayName: 'First Frame Binary Property',
			name: IMAGE_PROPERTY,
			type: 'string',
			default: 'data',
			description:
				'Binary property of the input item holding the first frame; leave empty for none',
			displayOptions: onlyFor('image2video', { [FRAME_SOURCE]: ['binary'] }),
		},
		{
			displayName: 'Last Frame Binary Property',
			name: IMAGE_TAIL_PROPERTY,
			type: 'string',
			default: '',
			description: 'Binary property of the input item holding the last frame; leave empty for none',
			displayOptions: onlyFor('image2video', { [FRAME_SOURCE]: ['binary'] }),
		},
		{
			displayName: 'Reference Images',
			name: IMAGE_LIST,
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			default: {},
			placeholder: 'Add Image',
			description: 'At most 7 reference images',
			displayOptions: onlyFor('omni-video'),
			options: [
				{
					displayName: 'Image',
					name: 'images',
					values: [{ displayName: 'Image URL', name: 'image_url', type: 'string', default: '' }],
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
					displayName: 'Aspect Ratio',
					name: 'aspect_ratio',
					type: 'string',
					default: '16:9',
					description: 'Normally required unless a first frame or video editing is used',
				},
				{
					displayName: 'Callback URL',
					name: 'callback_url',
					type: 'string',
					default: '',
					description: 'Public URL that receives task status changes',
				},
				jsonOption(
					'Camera Control (JSON)',
					'cameraControl',
					'Image to video only. Passed to the upstream unchanged.',
					false,
				),
				{
					displayName: 'CFG Scale',
					name: 'cfg_scale',
					type: 'number',
					typeOptions: { minValue: 0, maxValue: 1, numberPrecision: 2 },
					default: 0.5,
					description: 'How strictly the video follows the prompt, 0 to 1',
				},
				{ displayName: 'Duration (Seconds)', name: 'duration', type: 'number', default: 5 },
				jsonOption(
					'Dynamic Masks (JSON)',
					'dynamicMasks',
					'Image to video only. List of local-region motion masks.',
					true,
				),
				jsonOption(
					'Element List (JSON)',
					'elementList',
					'Subject references, at most 3. Image to video: not together with a voice list.',
					true,
				),
				{
					displayName: 'External Task ID',
					name: 'external_task_id',
					type: 'string',
					default: '',
					description: 'Your own ID for the task, echoed in callbacks',
				},
				{
					displayName: 'Mode',
					name: 'mode',
					type: 'options',
					options: [
						{ name: 'Standard', value: 'std' },
						{ name: 'Professional', value: 'pro' },
					],
					default: 'std',
				},
				{
					displayName: 'Multi-Shot',
					name: 'multi_shot',
					type: 'options',
					options: [
						{ name: 'On', value: 'true' },
						{ name: 'Off', value: 'false' },
						{ name: 'Intelligence (Image to Video)', value: 'intelligence' },
						{ name: 'Customize (Image to Video)', value: 'customize' },
					],
					default: 'true',
				},
				{
					displayName: 'Multi-Shot Prompts',
					name: 'multiPrompt',
					type: 'fixedCollection',
					typeOptions: { multipleValues: true, sortable: true },
					default: {},
					placeholder: 'Add Shot',
					options: [
						{
							displayName: 'Shot',
							name: 'shots',
							values: [
								{
									displayName: 'Index',
									name: 'index',
									type: 'number',
									typeOptions: { numberPrecision: 0 },
									default: 1,
								},
								{ displayName: 'Prompt', name: 'prompt', type: 'string', default: '' },
								{
									displayName: 'Duration (Seconds)',
									name: 'duration',
									type: 'string',
									default: '5',
								},
							],
						},
					],
				},
				{ displayName: 'Negative Prompt', name: 'negative_prompt', type: 'string', default: '' },
				{
					displayName: 'Shot Type',
					name: 'shot_type',
					type: 'options',
					options: [
						{ name: 'Customize', value: 'customize' },
						{ name: 'Intelligence (Image to Video)', value: 'intelligence' },
					],
					default: 'customize',
				},
				{
					displayName: 'Sound',
					name: 'sound',
					type: 'options',
					options: [
						{ name: 'On', value: 'on' },
						{ name: 'Off', value: 'off' },
					],
					default: 'off',
				},
				{
					displayName: 'Static Mask',
					name: 'static_mask',
					type: 'string',
					default: '',
					description: 'Image to video only',
				},
				jsonOption('Video List (JSON)', 'videoList', 'Omni-video only, at most 1 video', true),
				jsonOption(
					'Voice List (JSON)',
					'voiceList',
					'Image to video only, at most 2; not together with an element list',
					true,
				),
				jsonOption(
					'Watermark Info (JSON)',
					'watermarkInfo',
					'Watermark control, e.g. {"enabled": true}',
					false,
				),
			],
		},
	]),
	async buildCreateRequest(context, itemIndex, model) {
		const endpoint = context.getNodeParameter(ENDPOINT, itemIndex, 'omni-video') as string;
		if (!CREATE_ENDPOINTS.includes(endpoint)) {
			throw new NodeOperationError(
				context.getNode(),
				`Item ${itemIndex}: "Endpoint": must be one of ${CREATE_ENDPOINTS.join(', ')}`,
				{ itemIndex },
			);
		}
		const options = familyOptions(context, itemIndex, OPTIONS);
		const { multiPrompt, multi_shot: multiShotOption, ...plain } = options;
		for (const name of Object.keys(JSON_OPTIONS)) delete plain[name];
		const shots = (asRecord(multiPrompt)?.shots as IDataObject[] | undefined) ?? [];
		const common = {
			model_name: model,
			...compact({ prompt: context.getNodeParameter(PROMPT, itemIndex, '') as string, ...plain }),
			...jsonFields(options, JSON_OPTIONS),
			...compact({
				multi_shot: multiShot(multiShotOption),
				multi_prompt: shots.length > 0 ? shots : undefined,
			}),
		};
		let body: IDataObject;
		if (endpoint === 'image2video') {
			const source = context.getNodeParameter(FRAME_SOURCE, itemIndex, 'url') as string;
			const frames = compact({
				image: await frame(context, itemIndex, source, IMAGE, IMAGE_PROPERTY),
				image_tail: await frame(context, itemIndex, source, IMAGE_TAIL, IMAGE_TAIL_PROPERTY),
			});
			body = validateRequest(
				familyAImage2VideoSchema,
				{ ...common, ...frames, ...additionalBodyFields(context, itemIndex) },
				context.getNode(),
				itemIndex,
			) as IDataObject;
		} else {
			const images = (
				context.getNodeParameter(`${IMAGE_LIST}.images`, itemIndex, []) as IDataObject[]
			).map((image) => ({ image_url: image.image_url }));
			body = validateRequest(
				familyAOmniVideoSchema,
				{
					...common,
					...compact({ image_list: images.length > 0 ? images : undefined }),
					...additionalBodyFields(context, itemIndex),
				},
				context.getNode(),
				itemIndex,
			) as IDataObject;
		}
		return {
			method: 'POST',
			path: `/vendor-a/v1/videos/${endpoint}`,
			body,
			envelope: 'familyA',
			model,
			endpoint,
		};
	},
	parseCreateResponse(body, context) {
		const record = asRecord(body) ?? {};
		const data = asRecord(record.data) ?? {};
		const taskId = requireTaskId(text(record.task_id) ?? text(data.task_id), 'familyA', body);
		const rawStatus = text(data.task_status) ?? null;
		return {
			task: normalizedTask(
				{
					family: 'familyA',
					taskId,
					endpoint: context.endpoint ?? 'omni-video',
					status: rawStatus ? mapStatus(FAMILY_A_STATUS, rawStatus) : 'queued',
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
	buildQueryRequest(reference) {
		const endpoint =
			reference.endpoint && (FAMILY_A_ENDPOINTS as readonly string[]).includes(reference.endpoint)
				? reference.endpoint
				: 'omni-video';
		return {
			method: 'GET',
			path: `/vendor-a/v1/videos/${endpoint}/${encodePathSegment(reference.taskId)}`,
			envelope: 'familyA',
		};
	},
	parseTaskRecord: parseRecord,
	pollPolicy: {
		firstPollAfterMs: 10_000,
		minIntervalMs: 10_000,
		guidance: 'Query every 10 seconds or more.',
	},
	recognizeCallback(body, context): NormalizedTask | undefined {
		const record = recordOf(body);
		if (!record || text(record.task_id) === undefined || typeof record.task_status !== 'string')
			return undefined;
		return parseRecord(body, callbackContext(context)).task;
	},
};

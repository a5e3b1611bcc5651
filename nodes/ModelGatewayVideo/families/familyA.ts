import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { readBinaryAsBase64 } from '../../shared/media/binary';
import {
	familyAImage2VideoSchema,
	familyAOmniVideoSchema,
} from '../../shared/schemas/video/familyA';
import { validateRequest } from '../../shared/schemas/validate';
import { asRecord } from '../../shared/tasks';
import { FAMILY_A_DEFAULT_ENDPOINT, FAMILY_A_PATH } from '../../shared/tasks/familyA';
import { additionalBodyFields, compact, familyOptions, jsonFields } from './parameters';
import { promptProperty, videoOptionsProperty } from './properties';
import type { FamilyEditor } from './types';
import { itemParameter, nodeOfRun } from '../../shared/items/itemParameters';

/** Family A, editor half: omni-video and image-to-video create parameters. */

const CREATE_ENDPOINTS = ['omni-video', 'image2video'];
const REFERENCE_ENDPOINT = 'taskEndpoint';

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

async function frame(
	context: IExecuteFunctions,
	itemIndex: number,
	source: string,
	urlParameter: string,
	propertyParameter: string,
): Promise<string | undefined> {
	if (source === 'binary') {
		const property = (itemParameter(context, propertyParameter, itemIndex, '') as string).trim();
		if (property === '') return undefined;
		// Family A takes raw Base64 (no data: prefix) where it accepts "URL or Base64".
		return (await readBinaryAsBase64(context, itemIndex, property)).base64;
	}
	return (itemParameter(context, urlParameter, itemIndex, '') as string).trim() || undefined;
}

function multiShot(value: unknown): boolean | string | undefined {
	if (value === 'true') return true;
	if (value === 'false') return false;
	return typeof value === 'string' && value !== '' ? value : undefined;
}

export const familyAEditor: FamilyEditor = {
	description: 'Omni-video and image-to-video',
	queryHint: 'A task is queried under the endpoint it was created with.',
	createProperties: [
		{
			displayName: 'Endpoint',
			name: ENDPOINT,
			type: 'options',
			noDataExpression: true,
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
		promptProperty(PROMPT, {
			description: 'Required unless custom multi-shot prompts are given',
		}),
		{
			displayName: 'Frame Input',
			name: FRAME_SOURCE,
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'URL or Base64 Text', value: 'url' },
				{
					name: 'Binary Field',
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
			displayName: 'First Frame Input Binary Field',
			name: IMAGE_PROPERTY,
			type: 'string',
			default: 'data',
			hint: 'The name of the input binary field containing the first frame',
			description: 'Leave empty for no first frame',
			displayOptions: onlyFor('image2video', { [FRAME_SOURCE]: ['binary'] }),
		},
		{
			displayName: 'Last Frame Input Binary Field',
			name: IMAGE_TAIL_PROPERTY,
			type: 'string',
			default: '',
			hint: 'The name of the input binary field containing the last frame',
			description: 'Leave empty for no last frame',
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
					values: [
						{ displayName: 'Image URL', name: 'image_url', type: 'string', default: '' },
						{
							displayName: 'Use As',
							name: 'type',
							type: 'options',
							options: [
								{ name: 'Reference', value: '' },
								{ name: 'First Frame', value: 'first_frame' },
								{ name: 'Last Frame', value: 'end_frame' },
							],
							default: '',
							description:
								"A first frame also sets the video's shape, so Aspect Ratio is then not needed",
						},
					],
				},
			],
		},
		videoOptionsProperty(OPTIONS, [
			{
				displayName: 'Aspect Ratio',
				name: 'aspect_ratio',
				type: 'string',
				default: '16:9',
				description:
					'Required for omni-video unless a reference image is used as the first frame or a reference video is edited',
			},
			{
				displayName: 'Callback URL',
				name: 'callback_url',
				type: 'string',
				default: '',
				description: 'Public URL that receives task status changes',
				hint: 'Paste the Production URL of a Model Gateway Task Callback Trigger to start a workflow when the task calls back',
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
		]),
	],
	referenceProperties: [
		{
			displayName: 'Endpoint',
			name: REFERENCE_ENDPOINT,
			type: 'options',
			options: [
				{ name: 'Image to Video', value: 'image2video' },
				{ name: 'Omni-Video', value: 'omni-video' },
				{ name: 'Text to Video', value: 'text2video' },
			],
			default: FAMILY_A_DEFAULT_ENDPOINT,
			description: 'The endpoint the task was created under',
		},
	],
	readReference: (context, itemIndex) => ({
		endpoint: itemParameter(
			context,
			REFERENCE_ENDPOINT,
			itemIndex,
			FAMILY_A_DEFAULT_ENDPOINT,
		) as string,
	}),
	createEndpoints: CREATE_ENDPOINTS,
	async buildCreateRequest(context, itemIndex, model) {
		const endpoint = itemParameter(
			context,
			ENDPOINT,
			itemIndex,
			FAMILY_A_DEFAULT_ENDPOINT,
		) as string;
		const options = familyOptions(context, itemIndex, OPTIONS);
		const { multiPrompt, multi_shot: multiShotOption, ...plain } = options;
		for (const name of Object.keys(JSON_OPTIONS)) delete plain[name];
		const shots = (asRecord(multiPrompt)?.shots as IDataObject[] | undefined) ?? [];
		const common = {
			...compact({ prompt: itemParameter(context, PROMPT, itemIndex, '') as string, ...plain }),
			...jsonFields(options, JSON_OPTIONS),
			...compact({
				multi_shot: multiShot(multiShotOption),
				multi_prompt: shots.length > 0 ? shots : undefined,
			}),
		};
		let fields: IDataObject;
		if (endpoint === 'image2video') {
			const source = itemParameter(context, FRAME_SOURCE, itemIndex, 'url') as string;
			const frames = compact({
				image: await frame(context, itemIndex, source, IMAGE, IMAGE_PROPERTY),
				image_tail: await frame(context, itemIndex, source, IMAGE_TAIL, IMAGE_TAIL_PROPERTY),
			});
			fields = { ...common, ...frames };
		} else {
			const images = (
				itemParameter(context, `${IMAGE_LIST}.images`, itemIndex, []) as IDataObject[]
			).map((image) => ({
				image_url: image.image_url,
				...(typeof image.type === 'string' && image.type !== '' ? { type: image.type } : {}),
			}));
			fields = { ...common, ...compact({ image_list: images.length > 0 ? images : undefined }) };
		}
		return this.requestFromFields(
			{ ...fields, ...additionalBodyFields(context, itemIndex) },
			{ model, endpoint, node: nodeOfRun(context), itemIndex },
		);
	},
	requestFromFields(fields, { model, endpoint = FAMILY_A_DEFAULT_ENDPOINT, node, itemIndex }) {
		if (!CREATE_ENDPOINTS.includes(endpoint)) {
			throw new NodeOperationError(
				node,
				`Item ${itemIndex}: "Endpoint": must be one of ${CREATE_ENDPOINTS.join(', ')}`,
				{ itemIndex },
			);
		}
		const value = { ...fields, model_name: model };
		const body =
			endpoint === 'image2video'
				? validateRequest(familyAImage2VideoSchema, value, node, itemIndex)
				: validateRequest(familyAOmniVideoSchema, value, node, itemIndex);
		return {
			method: 'POST',
			path: `${FAMILY_A_PATH}${endpoint}`,
			body: body as IDataObject,
			model,
			endpoint,
		};
	},
};

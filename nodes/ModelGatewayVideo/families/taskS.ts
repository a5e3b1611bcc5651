import type { IDataObject } from 'n8n-workflow';

import { taskSCreateSchema } from '../../shared/schemas/video/taskS';
import { validateRequest } from '../../shared/schemas/validate';
import { TASK_S_PATH, taskSFamily } from '../../shared/tasks/taskS';
import { additionalBodyFields, compact, familyOptions } from './parameters';
import { videoOptionsProperty } from './properties';
import { ID_ONLY_REFERENCE, type FamilyEditor } from './types';
import { itemParameter, nodeOfRun } from '../../shared/items/itemParameters';

/** Task family S, editor half: multimodal content items. */

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

export const taskSEditor: FamilyEditor = {
	description: 'Multimodal content: text with reference images, videos and audio',
	queryHint: taskSFamily.pollPolicy.guidance,
	...ID_ONLY_REFERENCE,
	createProperties: [
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
		videoOptionsProperty(OPTIONS, [
			{
				displayName: 'Callback URL',
				name: 'callback_url',
				type: 'string',
				default: '',
				placeholder: 'https://example.com/hook?secret=...',
				description: 'Public URL that receives every status change of the task',
				hint: 'Paste the Production URL of a Model Gateway Task Callback Trigger to start a workflow when the task calls back',
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
		]),
	],
	async buildCreateRequest(context, itemIndex, model) {
		const entries = itemParameter(context, `${CONTENT}.items`, itemIndex, []) as IDataObject[];
		const options = familyOptions(context, itemIndex, OPTIONS);
		return this.requestFromFields(
			{
				content: entries.map(contentItem),
				...compact(options),
				...additionalBodyFields(context, itemIndex),
			},
			{ model, node: nodeOfRun(context), itemIndex },
		);
	},
	requestFromFields(fields, { model, node, itemIndex }) {
		const body = validateRequest(taskSCreateSchema, { ...fields, model }, node, itemIndex);
		return {
			method: 'POST',
			path: `${TASK_S_PATH}create`,
			body: body as IDataObject,
			model,
		};
	},
};

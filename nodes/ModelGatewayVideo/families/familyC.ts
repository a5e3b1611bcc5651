import type { IDataObject } from 'n8n-workflow';

import { familyCCreateSchema } from '../../shared/schemas/video/familyC';
import { validateRequest } from '../../shared/schemas/validate';
import { additionalBodyFields, compact, familyOptions, jsonFields, listOfText } from './parameters';
import { promptProperty, videoOptionsProperty } from './properties';
import { ID_ONLY_REFERENCE, type FamilyEditor } from './types';
import { itemParameter, nodeOfRun } from '../../shared/items/itemParameters';

/** Family C, editor half: reference to video. */

const FAMILY_C_CREATE_PATH = '/vendor-c/ent/v2/reference2video';

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

export const familyCEditor: FamilyEditor = {
	description: 'Reference images or videos to video',
	queryHint: '',
	...ID_ONLY_REFERENCE,
	createProperties: [
		promptProperty(PROMPT, { required: true }),
		videoOptionsProperty(OPTIONS, [
			textOption('Aspect Ratio', 'aspect_ratio'),
			booleanOption('Audio', 'audio'),
			textOption('Audio Type', 'audio_type'),
			booleanOption('Auto Subjects', 'auto_subjects'),
			booleanOption('Background Music', 'bgm'),
			textOption('Duration (Seconds)', 'duration', 'Sent as text, e.g. 5'),
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
		]),
	],
	async buildCreateRequest(context, itemIndex, model) {
		const options = familyOptions(context, itemIndex, OPTIONS);
		const plain: IDataObject = { ...options };
		for (const name of [...Object.keys(JSON_OPTIONS), ...LIST_OPTIONS]) delete plain[name];
		return this.requestFromFields(
			{
				prompt: itemParameter(context, PROMPT, itemIndex, '') as string,
				...compact(plain),
				...compact({ images: listOfText(options.images), videos: listOfText(options.videos) }),
				...jsonFields(options, JSON_OPTIONS),
				...additionalBodyFields(context, itemIndex),
			},
			{ model, node: nodeOfRun(context), itemIndex },
		);
	},
	requestFromFields(fields, { model, node, itemIndex }) {
		const body = validateRequest(familyCCreateSchema, { ...fields, model }, node, itemIndex);
		return {
			method: 'POST',
			path: FAMILY_C_CREATE_PATH,
			body: body as IDataObject,
			model,
		};
	},
};

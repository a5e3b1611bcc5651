import type { IDataObject } from 'n8n-workflow';

import { familyBCreateSchema } from '../../shared/schemas/video/familyB';
import { validateRequest } from '../../shared/schemas/validate';
import { asRecord } from '../../shared/tasks';
import { additionalBodyFields, compact, familyOptions, jsonFields, jsonValue } from './parameters';
import { promptProperty, videoOptionsProperty } from './properties';
import { ID_ONLY_REFERENCE, type FamilyEditor } from './types';
import { itemParameter, nodeOfRun } from '../../shared/items/itemParameters';

/** Family B, editor half: PascalCase create fields. */

const FAMILY_B_CREATE_PATH = '/vendor-b/v1/video/generations';
const PROMPT = 'familyBPrompt';
const OPTIONS = 'familyBOptions';
const JSON_OPTIONS = { fileInfos: 'FileInfos', extInfo: 'ExtInfo' };

export const familyBEditor: FamilyEditor = {
	description: 'Text, image or reference to video, with output settings',
	queryHint: 'Family B tasks are queried like generic video tasks; Get Status does this for you.',
	...ID_ONLY_REFERENCE,
	createProperties: [
		promptProperty(PROMPT, {
			description: 'Main field for text to video; required unless File Infos are given',
		}),
		videoOptionsProperty(OPTIONS, [
			{
				displayName: 'Enhance Prompt',
				name: 'EnhancePrompt',
				type: 'string',
				default: '',
				description: 'Prompt enhancement content',
			},
			{
				displayName: 'Ext Info (JSON)',
				name: 'extInfo',
				type: 'json',
				default: '{}',
				description: 'Extension information, passed unchanged',
			},
			{
				displayName: 'File Infos (JSON)',
				name: 'fileInfos',
				type: 'json',
				default: '[]',
				description:
					'Resources for image, reference, video-reference or edit scenes, passed unchanged',
			},
			{ displayName: 'Input Region', name: 'InputRegion', type: 'string', default: '' },
			{ displayName: 'Last Frame File ID', name: 'LastFrameFileId', type: 'string', default: '' },
			{ displayName: 'Last Frame URL', name: 'LastFrameUrl', type: 'string', default: '' },
			{ displayName: 'Model Version', name: 'ModelVersion', type: 'string', default: '' },
			{ displayName: 'Negative Prompt', name: 'NegativePrompt', type: 'string', default: '' },
			{
				displayName: 'Output Config (JSON)',
				name: 'outputConfig',
				type: 'json',
				default: '{}',
				description:
					'Further OutputConfig members, merged with Output Duration and Output Resolution',
			},
			{
				displayName: 'Output Duration (Seconds)',
				name: 'outputDuration',
				type: 'number',
				typeOptions: { minValue: 1, numberPrecision: 0 },
				default: 5,
				description: 'OutputConfig.Duration',
			},
			{
				displayName: 'Output Resolution',
				name: 'outputResolution',
				type: 'string',
				default: '720p',
				description: 'OutputConfig.Resolution',
			},
			{ displayName: 'Scene Type', name: 'SceneType', type: 'string', default: '' },
			{
				displayName: 'Seed',
				name: 'Seed',
				type: 'number',
				typeOptions: { numberPrecision: 0 },
				default: 0,
			},
			{ displayName: 'Session Context', name: 'SessionContext', type: 'string', default: '' },
			{ displayName: 'Session ID', name: 'SessionId', type: 'string', default: '' },
			{
				displayName: 'Tasks Priority',
				name: 'TasksPriority',
				type: 'number',
				typeOptions: { numberPrecision: 0 },
				default: 0,
			},
		]),
	],
	async buildCreateRequest(context, itemIndex, model) {
		const { outputConfig, outputDuration, outputResolution, fileInfos, extInfo, ...plain } =
			familyOptions(context, itemIndex, OPTIONS);
		const output = {
			...(asRecord(jsonValue(outputConfig)) ?? {}),
			...compact({ Duration: outputDuration, Resolution: outputResolution }),
		};
		return this.requestFromFields(
			{
				...compact({ Prompt: itemParameter(context, PROMPT, itemIndex, '') as string }),
				...compact(plain),
				...jsonFields({ fileInfos, extInfo }, JSON_OPTIONS),
				...(Object.keys(output).length > 0 ? { OutputConfig: output } : {}),
				...additionalBodyFields(context, itemIndex),
			},
			{ model, node: nodeOfRun(context), itemIndex },
		);
	},
	requestFromFields(fields, { model, node, itemIndex }) {
		const body = validateRequest(
			familyBCreateSchema,
			{ ...fields, ModelName: model },
			node,
			itemIndex,
		);
		return {
			method: 'POST',
			path: FAMILY_B_CREATE_PATH,
			body: body as IDataObject,
			model,
		};
	},
};

import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { readBinaryAsBase64 } from '../../shared/media/binary';
import { longRunningCreateSchema } from '../../shared/schemas/video/longRunning';
import { validateRequest } from '../../shared/schemas/validate';
import { encodePathSegment } from '../../shared/tasks';
import { additionalBodyFields, compact, familyOptions } from './parameters';
import type { FamilyEditor } from './types';
import { itemParameter, nodeOfRun } from '../../shared/items/itemParameters';

/** Long-running operations, editor half: instances and prediction parameters. */

const INSTANCES = 'longRunningInstances';
const PARAMETERS = 'longRunningParameters';
const REFERENCE_MODEL = 'taskModel';

async function inlineImage(context: IExecuteFunctions, itemIndex: number, property: unknown) {
	const name = typeof property === 'string' ? property.trim() : '';
	if (name === '') return undefined;
	const media = await readBinaryAsBase64(context, itemIndex, name);
	return { bytesBase64Encoded: media.base64, mimeType: media.mimeType };
}

export const longRunningEditor: FamilyEditor = {
	description: 'Long-running prediction; the finished video comes back as a file',
	queryHint: 'The finished video arrives as bytes and is stored as binary data on the item.',
	createProperties: [
		{
			displayName: 'Instances',
			name: INSTANCES,
			type: 'fixedCollection',
			typeOptions: { multipleValues: true },
			default: { instances: [{ prompt: '' }] },
			placeholder: 'Add Instance',
			description: 'Usually one instance: a prompt and optionally a first and last frame',
			options: [
				{
					displayName: 'Instance',
					name: 'instances',
					values: [
						{
							displayName: 'Prompt',
							name: 'prompt',
							type: 'string',
							typeOptions: { rows: 3 },
							default: '',
						},
						{
							displayName: 'First Frame Input Binary Field',
							name: 'imageBinaryProperty',
							type: 'string',
							default: '',
							hint: 'The name of the input binary field containing the first frame',
							description: 'Sent as Base64. Leave empty for no first frame.',
						},
						{
							displayName: 'Last Frame Input Binary Field',
							name: 'lastFrameBinaryProperty',
							type: 'string',
							default: '',
							hint: 'The name of the input binary field containing the last frame',
							description: 'Leave empty for no last frame',
						},
					],
				},
			],
		},
		{
			displayName: 'Parameters',
			name: PARAMETERS,
			type: 'collection',
			placeholder: 'Add Parameter',
			default: {},
			options: [
				{ displayName: 'Aspect Ratio', name: 'aspectRatio', type: 'string', default: '16:9' },
				{
					displayName: 'Duration (Seconds)',
					name: 'durationSeconds',
					type: 'number',
					typeOptions: { minValue: 1, numberPrecision: 0 },
					default: 8,
				},
				{ displayName: 'Enhance Prompt', name: 'enhancePrompt', type: 'boolean', default: true },
				{ displayName: 'Generate Audio', name: 'generateAudio', type: 'boolean', default: false },
				{ displayName: 'Negative Prompt', name: 'negativePrompt', type: 'string', default: '' },
				{ displayName: 'Resolution', name: 'resolution', type: 'string', default: '720p' },
				{
					displayName: 'Sample Count',
					name: 'sampleCount',
					type: 'number',
					typeOptions: { minValue: 1, numberPrecision: 0 },
					default: 1,
					description: 'How many videos to generate',
				},
			],
		},
	],
	referenceProperties: [
		{
			displayName: 'Model',
			name: REFERENCE_MODEL,
			type: 'string',
			default: '',
			description:
				'The model the operation was created with (needed unless the task ID is the full operation name)',
		},
	],
	readReference: (context, itemIndex) => ({
		model: (itemParameter(context, REFERENCE_MODEL, itemIndex, '') as string).trim(),
	}),
	async buildCreateRequest(context, itemIndex, model) {
		const entries = itemParameter(
			context,
			`${INSTANCES}.instances`,
			itemIndex,
			[],
		) as IDataObject[];
		const instances: IDataObject[] = [];
		for (const entry of entries) {
			instances.push(
				compact({
					prompt: entry.prompt,
					image: await inlineImage(context, itemIndex, entry.imageBinaryProperty),
					lastFrame: await inlineImage(context, itemIndex, entry.lastFrameBinaryProperty),
				}),
			);
		}
		const parameters = compact(familyOptions(context, itemIndex, PARAMETERS));
		return this.requestFromFields(
			{
				instances,
				...(Object.keys(parameters).length > 0 ? { parameters } : {}),
				...additionalBodyFields(context, itemIndex),
			},
			{ model, node: nodeOfRun(context), itemIndex },
		);
	},
	requestFromFields(fields, { model, node, itemIndex }) {
		// The model travels in the path, not the body.
		const { model: validModel, ...body } = validateRequest(
			longRunningCreateSchema,
			{ ...fields, model },
			node,
			itemIndex,
		);
		return {
			method: 'POST',
			path: `/v1beta/models/${encodePathSegment(validModel)}:predictLongRunning`,
			body: body as IDataObject,
			model: validModel,
		};
	},
};

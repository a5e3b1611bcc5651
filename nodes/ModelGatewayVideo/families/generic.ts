import type { IDataObject } from 'n8n-workflow';

import { genericVideoCreateSchema } from '../../shared/schemas/video/generic';
import { validateRequest } from '../../shared/schemas/validate';
import { asRecord } from '../../shared/tasks';
import { additionalBodyFields, compact, familyOptions } from './parameters';
import { promptProperty, videoOptionsProperty } from './properties';
import { ID_ONLY_REFERENCE, type FamilyEditor } from './types';
import { itemParameter, nodeOfRun } from '../../shared/items/itemParameters';

/** Generic video, editor half: text or image to video. */

const GENERIC_CREATE_PATH = '/v1/videos';

const PROMPT = 'genericPrompt';
const OPTIONS = 'genericOptions';
const METADATA_FLAGS = ['prompt_optimizer', 'fast_pretreatment', 'aigc_watermark'];

/** The flags merged with any `metadata` from the additional body fields; a non-object is left for validation to reject. */
function metadataField(flags: Record<string, unknown>, extra: unknown): { metadata?: unknown } {
	if (extra !== undefined && !asRecord(extra)) return { metadata: extra };
	const merged = { ...flags, ...(asRecord(extra) ?? {}) };
	return Object.keys(merged).length > 0 ? { metadata: merged } : {};
}

export const genericEditor: FamilyEditor = {
	description: 'Text or image to video',
	queryHint: '',
	...ID_ONLY_REFERENCE,
	createProperties: [
		promptProperty(PROMPT, { required: true }),
		videoOptionsProperty(OPTIONS, [
			{
				displayName: 'AIGC Watermark',
				name: 'aigc_watermark',
				type: 'boolean',
				default: false,
				description: 'Whether to add the AI-generated content watermark (metadata flag)',
			},
			{
				displayName: 'Duration',
				name: 'duration',
				type: 'options',
				options: [
					{ name: '6 Seconds', value: 6 },
					{ name: '10 Seconds', value: 10 },
				],
				default: 6,
			},
			{
				displayName: 'Fast Pretreatment',
				name: 'fast_pretreatment',
				type: 'boolean',
				default: false,
				description: 'Whether to use fast pre-processing (metadata flag)',
			},
			{
				displayName: 'Prompt Optimizer',
				name: 'prompt_optimizer',
				type: 'boolean',
				default: true,
				description: 'Whether the gateway may rewrite the prompt (metadata flag)',
			},
			{
				displayName: 'Size',
				name: 'size',
				type: 'options',
				options: [
					{ name: '768p', value: '768p' },
					{ name: '1080p', value: '1080p' },
				],
				default: '768p',
			},
		]),
	],
	async buildCreateRequest(context, itemIndex, model) {
		const options = familyOptions(context, itemIndex, OPTIONS);
		const metadata: Record<string, unknown> = {};
		const plain: Record<string, unknown> = {};
		for (const [key, value] of Object.entries(options))
			(METADATA_FLAGS.includes(key) ? metadata : plain)[key] = value;
		const extra = additionalBodyFields(context, itemIndex);
		return this.requestFromFields(
			{
				prompt: itemParameter(context, PROMPT, itemIndex, '') as string,
				...compact(plain),
				...extra,
				...metadataField(metadata, extra.metadata),
			} as IDataObject,
			{ model, node: nodeOfRun(context), itemIndex },
		);
	},
	requestFromFields(fields, { model, node, itemIndex }) {
		const body = validateRequest(genericVideoCreateSchema, { ...fields, model }, node, itemIndex);
		return {
			method: 'POST',
			path: GENERIC_CREATE_PATH,
			body: body as IDataObject,
			model,
		};
	},
};

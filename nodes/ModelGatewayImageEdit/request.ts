import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { ImageEditRequest } from '../shared/schemas/imageEdit';
import { imageEditRequestSchema } from '../shared/schemas/imageEdit';
import { itemParameter, nodeOfRun } from '../shared/items/itemParameters';
import { validateRequest } from '../shared/schemas/validate';
import { isBlankJson } from '../shared/items/values';
import type { BinaryEncoding, ImageEntry } from './inputImages';
import { resolveInputImages } from './inputImages';

/** Reads one item's parameters into a request body checked against the image edit schema. */
export async function buildImageEditRequest(
	context: IExecuteFunctions,
	itemIndex: number,
	options: IDataObject,
): Promise<ImageEditRequest> {
	const entries = itemParameter(context, 'images.values', itemIndex, []) as ImageEntry[];
	const encoding = (options.binaryEncoding as BinaryEncoding | undefined) ?? 'dataUri';
	const body: Record<string, unknown> = {
		model: itemParameter(context, 'model', itemIndex, ''),
		prompt: itemParameter(context, 'prompt', itemIndex, ''),
		image: await resolveInputImages(context, itemIndex, entries, encoding),
	};
	// The option's default `[]` (or a cleared field) means "no regions": the field is left out.
	if (!isBlankJson(options.bboxList)) body.bbox_list = options.bboxList;
	if (options.n !== undefined) body.n = options.n;
	if (options.size !== undefined) body.size = options.size;
	if (options.thinkingMode !== undefined) body.thinking_mode = options.thinkingMode;
	if (options.watermark !== undefined) body.watermark = options.watermark;
	return validateRequest(imageEditRequestSchema, body, nodeOfRun(context), itemIndex);
}

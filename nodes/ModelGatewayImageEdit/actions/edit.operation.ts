import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { mediaStoringReader } from '../../shared/media/binary';
import { itemParameter } from '../../shared/items/itemParameters';
import { processItems } from '../../shared/items/items';
import {
	inputBinaryFieldsProperty,
	itemsInFlightOption,
	modelProperty,
	optionsCollection,
	outputBinaryFieldProperty,
	timeoutOption,
	traceIdOption,
} from '../../shared/items/properties';
import { IMAGE_EDIT_SIZES, imageEditFailure } from '../../shared/schemas/imageEdit';
import type { ImageEditRequest } from '../../shared/schemas/imageEdit';
import { gatewayRequest } from '../../shared/gateway/transport';
import { asRecord, trimmedText } from '../../shared/items/values';
import { buildImageEditRequest } from '../request';
import type { ImageEditResponse, OutputContent, OutputLayout } from '../results';
import { imageEditOutput, INLINE_IMAGE_KEYS } from '../results';

/**
 * Edit images with an instruction: the parameters and the run. Descriptions name the request
 * field an option sets (e.g. "bbox_list") so users can match the gateway's documentation.
 */

/** Image edits (4K, several images, thinking mode) take far longer than a chat answer. */
const DEFAULT_TIMEOUT_SECONDS = 300;

export const description: INodeProperties[] = [
	modelProperty(
		'e.g. qwen-image-edit',
		'An image-editing model name enabled for your account in the gateway console',
	),
	{
		displayName: 'Prompt',
		name: 'prompt',
		type: 'string',
		typeOptions: { rows: 3 },
		default: '',
		required: true,
		placeholder: 'e.g. Replace the sky with a sunset',
		description: 'The edit instruction',
	},
	{
		displayName: 'Images',
		name: 'images',
		type: 'fixedCollection',
		typeOptions: { multipleValues: true, sortable: true },
		default: { values: [{ source: 'binary', binaryPropertyName: 'data' }] },
		placeholder: 'Add Image',
		description: 'The input images, sent to the gateway in this order. At least one is required.',
		options: [
			{
				displayName: 'Image',
				name: 'values',
				values: [
					{
						displayName: 'Source',
						name: 'source',
						type: 'options',
						options: [
							{
								name: 'Binary File(s)',
								value: 'binary',
								description: 'Binary fields of the input item, sent as base64',
							},
							{ name: 'URL', value: 'url', description: 'A public http(s) address of the image' },
							{
								name: 'Base64',
								value: 'base64',
								description: 'Base64 image data, raw or as a data:image/...;base64, URI',
							},
						],
						default: 'binary',
						noDataExpression: true,
					},
					inputBinaryFieldsProperty('The binary fields of the input item that hold the images', {
						displayOptions: { show: { source: ['binary'] } },
					}),
					{
						displayName: 'Image URL',
						name: 'url',
						type: 'string',
						default: '',
						placeholder: 'https://example.com/photo.png',
						displayOptions: { show: { source: ['url'] } },
					},
					{
						displayName: 'Base64 Data',
						name: 'base64',
						type: 'string',
						typeOptions: { rows: 2 },
						default: '',
						placeholder: 'data:image/png;base64,iVBORw0KGgo...',
						displayOptions: { show: { source: ['base64'] } },
					},
				],
			},
		],
	},
	optionsCollection([
		{
			displayName: 'Binary Input Encoding',
			name: 'binaryEncoding',
			type: 'options',
			options: [
				{
					name: 'Data URI',
					value: 'dataUri',
					description:
						'A URI like data:image/png;base64,iVBOR..., which tells the gateway the file type',
				},
				{ name: 'Raw Base64', value: 'base64', description: 'Only the base64 characters' },
			],
			default: 'dataUri',
			description: 'How binary input images are encoded in the request',
		},
		{
			displayName: 'Bounding Boxes',
			name: 'bboxList',
			type: 'json',
			default: '[]',
			description:
				'Regions for local interactive editing (bbox_list), as a JSON list. Its item format depends on the model; an empty list is not sent.',
		},
		itemsInFlightOption,
		{
			displayName: 'Number of Images',
			name: 'n',
			type: 'number',
			typeOptions: { minValue: 1, numberPrecision: 0 },
			default: 1,
			description: 'How many edited images to generate (n, at least 1)',
		},
		{
			displayName: 'Output Content',
			name: 'outputContent',
			type: 'options',
			options: [
				{
					name: 'Binary and URLs',
					value: 'both',
					description: 'Attach each image as binary data and keep its URL in the JSON',
				},
				{ name: 'Binary Only', value: 'binary', description: 'Attach each image as binary data' },
				{
					name: 'URLs Only',
					value: 'url',
					description:
						'Output the result URLs without downloading them (they expire after a few hours)',
				},
			],
			default: 'both',
		},
		{
			displayName: 'Output Layout',
			name: 'outputLayout',
			type: 'options',
			options: [
				{ name: 'One Item per Image', value: 'itemPerImage' },
				{
					name: 'One Item with All Images',
					value: 'oneItem',
					description: 'Binary fields data, data_1, data_2 and so on, on a single item',
				},
			],
			default: 'itemPerImage',
			description: 'How several result images are laid out in the output',
		},
		outputBinaryFieldProperty(
			'The binary field for the result image. With several images on one item, the others get _1, _2, ... appended.',
		),
		{
			displayName: 'Size',
			name: 'size',
			type: 'options',
			options: IMAGE_EDIT_SIZES.map((size) => ({ name: size, value: size })),
			default: '1K',
			description: 'Output resolution class (size)',
		},
		{
			displayName: 'Thinking Mode',
			name: 'thinkingMode',
			type: 'boolean',
			default: false,
			description: 'Whether the model reasons about the instruction before editing (thinking_mode)',
		},
		timeoutOption(DEFAULT_TIMEOUT_SECONDS),
		traceIdOption,
		{
			displayName: 'Watermark',
			name: 'watermark',
			type: 'boolean',
			default: false,
			description: 'Whether the provider adds a watermark to the result (watermark)',
		},
	]),
];

interface PreparedEdit {
	options: IDataObject;
	request: ImageEditRequest;
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const concurrency = this.getNodeParameter('options.concurrency', 0, 1) as number;
	const output = await processItems(
		this,
		{
			// Every item's images are read and checked before the first edit is sent (and billed).
			prepare: async (itemIndex): Promise<PreparedEdit> => {
				const options = itemParameter(this, 'options', itemIndex, {}) as IDataObject;
				return { options, request: await buildImageEditRequest(this, itemIndex, options) };
			},
			send: async ({ options, request }: PreparedEdit, itemIndex) => {
				// b64_json images go to binary storage while the answer arrives (named in results.ts).
				const images = mediaStoringReader(this, INLINE_IMAGE_KEYS, (index) => ({
					fileName: `edited-image-${index + 1}.png`,
					mimeType: 'image/png',
				}));
				const response = await gatewayRequest<ImageEditResponse>(this, {
					method: 'POST',
					path: '/v1/images/edits',
					kind: 'create',
					body: request,
					traceId: options.traceId as string | undefined,
					itemIndex,
					timeoutMs: Number(options.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
					readJson: images.readJson,
					// Only an answer with its images comes back; an HTTP 200 error body fails the item.
					businessFailure: imageEditFailure,
				});
				return await imageEditOutput(
					this,
					itemIndex,
					response.body,
					response.traceId,
					{
						content: (options.outputContent as OutputContent | undefined) ?? 'both',
						layout: (options.outputLayout as OutputLayout | undefined) ?? 'itemPerImage',
						binaryPropertyName: trimmedText(options.binaryPropertyName) ?? 'data',
					},
					images.storedMedia(),
				);
			},
			createdId: editedImageId,
		},
		{ concurrency },
	);
	return [output];
}

/** An edit already made: the provider's request ID, else the X-Trace-ID it was sent with. */
function editedImageId(item: INodeExecutionData): string | undefined {
	const requestId = trimmedText(asRecord(item.json.providerMetadata)?.requestId);
	if (requestId) return `edit request ${requestId}`;
	const traceId = trimmedText(item.json.traceId);
	return traceId ? `edit with X-Trace-ID ${traceId}` : undefined;
}

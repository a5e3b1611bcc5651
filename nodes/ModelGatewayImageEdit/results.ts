import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { StoredMedia } from '../shared/streams/jsonMediaStream';
import { storedMediaOf } from '../shared/streams/jsonMediaStream';
import { base64ToBinary, binaryHead, extensionFor, renamedBinary } from '../shared/media/binary';
import { downloadToBinary } from '../shared/media/download';
import { normalizeUsage, type UsageFields } from '../shared/gateway/usage';
import { imageWithoutDataMessage } from '../shared/schemas/imageEdit';
import { mimeTypeForOutputFormat, sniffImageMimeType } from './imageFormat';

/**
 * The gateway's image edit result turned into output items. Every key this package adds is
 * camelCase; `usage` is the package's normalized usage (see shared/gateway/usage.ts).
 */

/** Token counts as in responses-style usage; the image count from the provider metadata. */
const IMAGE_USAGE: UsageFields = {
	input: 'input_tokens',
	output: 'output_tokens',
	total: 'total_tokens',
	imageCount: 'image_count',
};

interface ResultImage {
	url?: string;
	b64_json?: string;
	revised_prompt?: string;
}

export interface ImageEditResponse {
	created?: number;
	model?: string;
	data?: Array<ResultImage | null>;
	background?: string;
	output_format?: string;
	quality?: string;
	size?: string;
	usage?: IDataObject;
	metadata?: {
		output?: { choices?: Array<{ finish_reason?: string }>; finished?: boolean };
		usage?: { image_count?: number; size?: string; [count: string]: unknown };
		request_id?: string;
	};
}

/** `both`: binary + URL in the JSON; `binary`: binary only; `url`: URLs, nothing downloaded. */
export type OutputContent = 'both' | 'binary' | 'url';
export type OutputLayout = 'itemPerImage' | 'oneItem';

export interface OutputSettings {
	content: OutputContent;
	layout: OutputLayout;
	binaryPropertyName: string;
}

/** The `b64_json` key, whose values the answer's reader stores while they arrive. */
export const INLINE_IMAGE_KEYS = ['b64_json'] as const;

const DEFAULT_IMAGE_MIME_TYPE = 'image/png';

/**
 * The output items of one edit. `response` is a success (the transport held it to
 * `imageEditFailure`): it has images, each with a URL or base64 data.
 */
export async function imageEditOutput(
	context: IExecuteFunctions,
	itemIndex: number,
	response: ImageEditResponse,
	traceId: string | undefined,
	settings: OutputSettings,
	/** The `b64_json` values already in binary storage (their places in `response` hold markers). */
	storedImages: ReadonlyArray<StoredMedia<IBinaryData>> = [],
): Promise<INodeExecutionData[]> {
	const shared = sharedJson(response, traceId);
	const images = response.data ?? [];
	const results: Array<{ json: IDataObject; binary?: IBinaryData }> = [];
	// One at a time: a failing download names its image, and n is small.
	for (const [index, entry] of images.entries()) {
		const image = entry ?? {}; // a null entry is reported below as an image without data
		const json: IDataObject = { imageIndex: index, revisedPrompt: image.revised_prompt ?? null };
		if (settings.content !== 'binary') json.url = image.url ?? null;
		results.push({
			json,
			binary: await resultBinary(context, itemIndex, response, index, image, {
				content: settings.content,
				storedImages,
				traceId,
			}),
		});
	}

	if (settings.layout === 'oneItem') {
		const binary: Record<string, IBinaryData> = {};
		const summaries = results.map((result, index) => {
			if (!result.binary) return result.json;
			const property =
				index === 0 ? settings.binaryPropertyName : `${settings.binaryPropertyName}_${index}`;
			binary[property] = result.binary;
			return { ...result.json, binaryPropertyName: property };
		});
		return [
			{
				json: { ...shared, images: summaries },
				...(Object.keys(binary).length ? { binary } : {}),
				pairedItem: { item: itemIndex },
			},
		];
	}
	return results.map((result) => ({
		json: { ...result.json, ...shared },
		...(result.binary ? { binary: { [settings.binaryPropertyName]: result.binary } } : {}),
		pairedItem: { item: itemIndex },
	}));
}

function sharedJson(response: ImageEditResponse, traceId: string | undefined): IDataObject {
	const metadata = response.metadata;
	return {
		model: response.model ?? null,
		created: response.created ?? null,
		size: response.size ?? null,
		quality: response.quality ?? null,
		background: response.background ?? null,
		outputFormat: response.output_format ?? null,
		// The top-level usage's shape is not specified; the provider metadata's counts fill in.
		usage: normalizeUsage({ ...metadata?.usage, ...response.usage }, IMAGE_USAGE),
		providerMetadata: metadata
			? {
					finishReasons: (metadata.output?.choices ?? []).map(
						(choice) => choice.finish_reason ?? null,
					),
					finished: metadata.output?.finished ?? null,
					imageCount: metadata.usage?.image_count ?? null,
					size: metadata.usage?.size ?? null,
					requestId: metadata.request_id ?? null,
				}
			: null,
		traceId: traceId ?? null,
	};
}

/**
 * The image as n8n binary data. A URL is the gateway's canonical result, so it is downloaded
 * when present (a URL that cannot be fetched is an error naming the image, rather than a
 * silently broken link in the output); `b64_json` is decoded when there is no URL. "URLs
 * only" downloads nothing, but an image that came only as base64 is still attached: it would
 * otherwise be lost.
 */
async function resultBinary(
	context: IExecuteFunctions,
	itemIndex: number,
	response: ImageEditResponse,
	index: number,
	image: ResultImage,
	{
		content,
		storedImages,
		traceId,
	}: {
		content: OutputContent;
		storedImages: ReadonlyArray<StoredMedia<IBinaryData>>;
		traceId: string | undefined;
	},
): Promise<IBinaryData | undefined> {
	const what = `result image ${index + 1} of ${response.data?.length ?? 0}`;
	const fileNameBase = `edited-image-${index + 1}`;
	const formatMimeType = mimeTypeForOutputFormat(response.output_format);
	if (image.url) {
		if (content === 'url') return undefined;
		return await downloadToBinary(context, image.url, {
			fileNameBase,
			what,
			itemIndex,
			fallbackMimeType: formatMimeType ?? DEFAULT_IMAGE_MIME_TYPE,
		});
	}
	const stored = storedMediaOf(image.b64_json, storedImages);
	if (stored && stored.byteLength > 0) {
		// Stored while the answer arrived; its first bytes tell the format.
		const header = await binaryHead(context, stored.stored, 18);
		const mimeType = sniffImageMimeType(header) ?? formatMimeType ?? DEFAULT_IMAGE_MIME_TYPE;
		const extension = extensionFor(mimeType, mimeType.split('/')[1]);
		return renamedBinary(stored.stored, `${fileNameBase}.${extension}`, mimeType);
	}
	if (typeof image.b64_json === 'string' && !stored && image.b64_json !== '') {
		// The first bytes tell the format; the whole image is decoded once, by base64ToBinary.
		const header = Buffer.from(image.b64_json.slice(0, 24), 'base64');
		const mimeType = sniffImageMimeType(header) ?? formatMimeType ?? DEFAULT_IMAGE_MIME_TYPE;
		const extension = extensionFor(mimeType, mimeType.split('/')[1]);
		return await base64ToBinary(context, image.b64_json, `${fileNameBase}.${extension}`, mimeType);
	}
	// Base64 data that was empty: only its stored bytes tell (the transport saw a marker).
	throw new NodeOperationError(
		context.getNode(),
		imageWithoutDataMessage(index, response.data?.length ?? 0),
		{ itemIndex, description: traceId ? `X-Trace-ID ${traceId}` : undefined },
	);
}

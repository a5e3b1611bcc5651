import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Media in and out of n8n items: binary properties read as base64 for request bodies, and
 * gateway results (base64 or a URL) stored as n8n binary data. Only n8n's own helpers are
 * used, so binary data modes (memory, filesystem, S3) all work.
 */

export interface InlineMedia {
	base64: string;
	mimeType: string;
	fileName?: string;
}

/** Reads an input item's binary property (e.g. `data`) as base64. */
export async function readBinaryAsBase64(
	context: IExecuteFunctions,
	itemIndex: number,
	propertyName: string,
): Promise<InlineMedia> {
	const name = propertyName.trim();
	const binary = context.helpers.assertBinaryData(itemIndex, name);
	const buffer = await context.helpers.getBinaryDataBuffer(itemIndex, name);
	return {
		base64: buffer.toString('base64'),
		mimeType: binary.mimeType,
		fileName: binary.fileName,
	};
}

/** `data:<mime>;base64,<bytes>`, the form gateways accept for "URL or Base64" fields. */
export function toDataUri(media: InlineMedia): string {
	return `data:${media.mimeType};base64,${media.base64}`;
}

/** Splits a comma-separated list of binary property names (`data, data_1`). */
export function binaryPropertyNames(list: string): string[] {
	return list
		.split(',')
		.map((name) => name.trim())
		.filter((name) => name !== '');
}

const EXTENSIONS: Record<string, string> = {
	'image/png': 'png',
	'image/jpeg': 'jpg',
	'image/webp': 'webp',
	'image/gif': 'gif',
	'video/mp4': 'mp4',
	'video/webm': 'webm',
	'video/quicktime': 'mov',
	'audio/mpeg': 'mp3',
	'audio/wav': 'wav',
};

export function extensionFor(mimeType: string, fallback = 'bin'): string {
	return EXTENSIONS[mimeType.split(';')[0].trim().toLowerCase()] ?? fallback;
}

/** Stores base64 bytes from a gateway answer as n8n binary data. */
export async function base64ToBinary(
	context: IExecuteFunctions,
	base64: string,
	fileName: string,
	mimeType: string,
): Promise<IBinaryData> {
	return await context.helpers.prepareBinaryData(Buffer.from(base64, 'base64'), fileName, mimeType);
}

/**
 * Downloads a result file (public, expiring URL: no credentials are sent) into n8n binary
 * data. A failure names what was being downloaded.
 */
export async function downloadToBinary(
	context: IExecuteFunctions,
	url: string,
	options: { fileNameBase: string; what: string; itemIndex: number; fallbackMimeType?: string },
): Promise<IBinaryData> {
	let response: { body: unknown; headers: Record<string, unknown>; statusCode: number };
	try {
		response = (await context.helpers.httpRequest({
			method: 'GET',
			url,
			encoding: 'arraybuffer',
			returnFullResponse: true,
			timeout: 300_000,
			abortSignal: context.getExecutionCancelSignal(),
		})) as typeof response;
	} catch (error) {
		throw new NodeOperationError(
			context.getNode(),
			`Could not download ${options.what} from ${url}: ${(error as Error).message}`,
			{
				itemIndex: options.itemIndex,
				description:
					'Result URLs expire after a few hours; download them soon after the task finishes.',
			},
		);
	}
	const contentType = String(response.headers['content-type'] ?? '')
		.split(';')[0]
		.trim();
	const mimeType =
		contentType && contentType !== 'application/octet-stream'
			? contentType
			: (options.fallbackMimeType ?? 'application/octet-stream');
	const fileName = `${options.fileNameBase}.${extensionFor(mimeType)}`;
	return await context.helpers.prepareBinaryData(
		Buffer.from(response.body as ArrayBuffer),
		fileName,
		mimeType,
	);
}

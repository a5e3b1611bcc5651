import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';
import { fileTypeFromMimeType } from 'n8n-workflow';

import type { StoredMedia } from '../streams/jsonMediaStream';
import { readJsonWithMedia } from '../streams/jsonMediaStream';

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
 * A reader for the transport's `readJson`: the answer's JSON, with the base64 values under
 * `keys` stored as n8n binary data while they arrive (in n8n's filesystem mode they go
 * straight to disk). The stored media are named by `fileName` until `renamedBinary` gives
 * them their final name and type, once the rest of the answer says what they are.
 */
export function mediaStoringReader(
	context: IExecuteFunctions,
	keys: readonly string[],
	fileName: (index: number) => { fileName: string; mimeType: string },
): {
	readJson: (body: AsyncIterable<Buffer>) => Promise<unknown>;
	storedMedia: () => Array<StoredMedia<IBinaryData>>;
} {
	let media: Array<StoredMedia<IBinaryData>> = [];
	let count = 0;
	return {
		readJson: async (body) => {
			const result = await readJsonWithMedia(body, {
				keys,
				store: async (bytes) => {
					const name = fileName(count++);
					return await context.helpers.prepareBinaryData(
						bytes as unknown as Buffer, // a Node.js Readable, made by readJsonWithMedia
						name.fileName,
						name.mimeType,
					);
				},
			});
			media = result.media;
			return result.body;
		},
		storedMedia: () => media,
	};
}

/** The first `length` bytes of stored binary data (enough to tell a file's format). */
export async function binaryHead(
	context: IExecuteFunctions,
	binary: IBinaryData,
	length: number,
): Promise<Buffer> {
	if (!binary.id) return Buffer.from(binary.data.slice(0, Math.ceil(length / 3) * 4), 'base64');
	const stream = await context.helpers.getBinaryStream(binary.id, length);
	try {
		for await (const chunk of stream as AsyncIterable<Buffer>) return chunk.subarray(0, length);
		return Buffer.alloc(0);
	} finally {
		stream.destroy();
	}
}

/** Stored binary data under its final file name and type (the bytes stay where they are). */
export function renamedBinary(
	binary: IBinaryData,
	fileName: string,
	mimeType: string,
): IBinaryData {
	const extension = fileName.includes('.') ? fileName.slice(fileName.lastIndexOf('.') + 1) : '';
	return {
		...binary,
		mimeType,
		fileType: fileTypeFromMimeType(mimeType),
		fileName,
		...(extension ? { fileExtension: extension } : {}),
	};
}

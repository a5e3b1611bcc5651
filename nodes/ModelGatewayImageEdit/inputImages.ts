import type { IExecuteFunctions } from 'n8n-workflow';

import { binaryPropertyNames, readBinaryAsBase64, toDataUri } from '../shared/media/binary';
import { itemInputError } from '../shared/items/errors';
import { sniffImageMimeType } from './imageFormat';

/**
 * Turns the node's "Images" entries into the request's `image` list, in the order given:
 * URLs and base64 text as typed, n8n binary fields read and encoded as base64. Whether
 * the result is a valid image reference is the request schema's job, not this module's.
 */

export type ImageSource = 'url' | 'base64' | 'binary';

/**
 * How binary inputs are encoded. A data URI (`data:image/png;base64,...`) is the default
 * because it carries the MIME type, so the gateway need not guess the format from the bytes;
 * raw base64 is there for upstreams that accept only the bare string.
 */
export type BinaryEncoding = 'dataUri' | 'base64';

export interface ImageEntry {
	source?: ImageSource;
	url?: string;
	base64?: string;
	binaryPropertyName?: string;
}

export async function resolveInputImages(
	context: IExecuteFunctions,
	itemIndex: number,
	entries: ImageEntry[],
	encoding: BinaryEncoding,
): Promise<string[]> {
	const images: string[] = [];
	for (const entry of entries) {
		const source = entry.source ?? 'binary'; // the UI's default
		if (source === 'url') images.push((entry.url ?? '').trim());
		// Base64 is often pasted wrapped over several lines; line breaks are not data.
		else if (source === 'base64') images.push((entry.base64 ?? '').replace(/\s+/g, ''));
		else
			images.push(
				...(await readBinaryImages(
					context,
					itemIndex,
					entry.binaryPropertyName ?? 'data',
					encoding,
				)),
			);
	}
	return images;
}

async function readBinaryImages(
	context: IExecuteFunctions,
	itemIndex: number,
	propertyList: string,
	encoding: BinaryEncoding,
): Promise<string[]> {
	const names = binaryPropertyNames(propertyList);
	if (names.length === 0) {
		throw itemInputError(
			context.getNode(),
			itemIndex,
			'"Input Binary Field(s)" is empty',
			'Name the binary fields holding the images, separated by commas (e.g. data, data_1).',
		);
	}
	const available = Object.keys(context.getInputData()[itemIndex]?.binary ?? {});
	const images: string[] = [];
	for (const name of names) {
		if (!available.includes(name)) {
			throw itemInputError(
				context.getNode(),
				itemIndex,
				`binary property "${name}" not found on the input item`,
				available.length
					? `The item has: ${available.join(', ')}.`
					: 'The item has no binary data.',
			);
		}
		const media = await readBinaryAsBase64(context, itemIndex, name);
		if (encoding === 'base64') {
			images.push(media.base64);
			continue;
		}
		const mimeType = media.mimeType.startsWith('image/')
			? media.mimeType
			: sniffImageMimeType(Buffer.from(media.base64.slice(0, 24), 'base64'));
		if (!mimeType) {
			throw itemInputError(
				context.getNode(),
				itemIndex,
				`binary property "${name}" is not an image (MIME type ${media.mimeType || 'unknown'})`,
				'Only image files can be edited.',
			);
		}
		images.push(toDataUri({ ...media, mimeType }));
	}
	return images;
}

/**
 * Checks for fields the spec types as "URL or Base64" images: an http(s) URL, or Base64 that
 * really decodes to an image (PNG, JPEG, GIF, WebP or BMP), not just any run of letters.
 */
import { isHttpUrl } from './validate';

const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DATA_URI_PATTERN = /^data:image\/[\w.+-]+;base64,(.*)$/s;

const IMAGE_SIGNATURES: ReadonlyArray<{ offset: number; bytes: number[] }> = [
	{ offset: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] }, // PNG
	{ offset: 0, bytes: [0xff, 0xd8, 0xff] }, // JPEG
	{ offset: 0, bytes: [0x47, 0x49, 0x46, 0x38] }, // GIF8
	{ offset: 8, bytes: [0x57, 0x45, 0x42, 0x50] }, // WEBP (after RIFF....)
	{ offset: 0, bytes: [0x42, 0x4d] }, // BMP
];

/** Base64 text, standard or URL-safe alphabet, padding optional. */
export function isBase64Text(value: unknown): boolean {
	return typeof value === 'string' && /^[A-Za-z0-9+/_-]+={0,2}$/.test(value.replace(/\s/g, ''));
}

/** Raw Base64 (standard alphabet, padded) whose bytes start like an image file. */
export function isBase64Image(value: string): boolean {
	if (value.length === 0 || !BASE64_PATTERN.test(value)) return false;
	const head = Buffer.from(value.slice(0, 32), 'base64');
	return IMAGE_SIGNATURES.some(({ offset, bytes }) =>
		bytes.every((byte, index) => head[offset + index] === byte),
	);
}

/** A `data:image/...;base64,` URI around a Base64 image. */
export function isImageDataUri(value: string): boolean {
	const payload = DATA_URI_PATTERN.exec(value)?.[1];
	return payload !== undefined && isBase64Image(payload);
}

export function isImageUrlOrBase64(value: string, options: { dataUri: boolean }): boolean {
	return isHttpUrl(value) || isBase64Image(value) || (options.dataUri && isImageDataUri(value));
}

/**
 * Image formats recognised from their first bytes, so a file stored without a useful MIME
 * type (e.g. `application/octet-stream` from a disk read) can still be sent as a
 * `data:image/...` URI, and a `b64_json` result gets the right MIME type.
 */

const SIGNATURES: Array<{ mimeType: string; matches: (bytes: Buffer) => boolean }> = [
	{
		mimeType: 'image/png',
		matches: (bytes) =>
			bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
	},
	{
		mimeType: 'image/jpeg',
		matches: (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff,
	},
	{ mimeType: 'image/gif', matches: (bytes) => bytes.subarray(0, 4).toString('latin1') === 'GIF8' },
	{
		mimeType: 'image/webp',
		matches: (bytes) =>
			bytes.subarray(0, 4).toString('latin1') === 'RIFF' &&
			bytes.subarray(8, 12).toString('latin1') === 'WEBP',
	},
	{ mimeType: 'image/bmp', matches: (bytes) => bytes.subarray(0, 2).toString('latin1') === 'BM' },
];

export function sniffImageMimeType(bytes: Buffer): string | undefined {
	return SIGNATURES.find((signature) => signature.matches(bytes))?.mimeType;
}

/** The gateway's `output_format` (`png`, `jpeg`, `webp`) as a MIME type. */
export function mimeTypeForOutputFormat(outputFormat: unknown): string | undefined {
	if (typeof outputFormat !== 'string' || outputFormat.trim() === '') return undefined;
	const format = outputFormat.trim().toLowerCase();
	return `image/${format === 'jpg' ? 'jpeg' : format}`;
}

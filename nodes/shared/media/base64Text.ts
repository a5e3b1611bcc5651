/**
 * Base64 as text, written once: what a pasted value looks like (raw, or a `data:` URI), whether
 * it is Base64 at all, and how many bytes it stands for. Decoding into n8n binary data is
 * binary.ts's job; this module never allocates the bytes.
 */

/** `data:<mime>;base64,<payload>`, as browsers and many tools copy images. */
const DATA_URI = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w.+-]+=[^;,]*)*);base64,([\s\S]*)$/i;

/** Standard or URL-safe alphabet, padded at most twice at the end. */
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

export interface DataUri {
	mimeType?: string;
	/** The Base64 payload, line breaks and spaces removed. */
	base64: string;
}

/** Splits a Base64 `data:` URI into its MIME type and payload; undefined for anything else. */
export function parseDataUri(text: string): DataUri | undefined {
	const match = DATA_URI.exec(text.trim());
	if (!match) return undefined;
	return { mimeType: match[1]?.toLowerCase(), base64: match[3].replace(/\s+/g, '') };
}

/** Raw Base64 from raw Base64 or a Base64 `data:` URI; whitespace (wrapped lines) dropped. */
export function rawBase64(text: string): string {
	return parseDataUri(text)?.base64 ?? text.replace(/\s+/g, '');
}

/** Whether text (whitespace removed) is Base64 of a length that can decode. */
export function isBase64(text: string, minLength = 4): boolean {
	const compact = text.replace(/\s+/g, '');
	if (compact.length < minLength || !BASE64.test(compact)) return false;
	// Padding only makes sense on a complete final quantum; one character left over never decodes.
	return compact.endsWith('=') ? compact.length % 4 === 0 : compact.length % 4 !== 1;
}

/** The number of bytes a Base64 text decodes to: padding and whitespace are not data. */
export function base64ByteLength(text: string): number {
	const compact = text.replace(/\s+/g, '');
	const data = compact.replace(/=+$/, '');
	return Math.floor((data.length * 3) / 4);
}

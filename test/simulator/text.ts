import { isRecord } from './validate';

/** Arguments of every simulated tool call. */
export const TOOL_CALL_ARGUMENTS = '{"city":"Paris"}';

/** A rough, deterministic token estimate (about four characters per token). */
export function estimateTokens(text: string): number {
	return Math.max(1, Math.ceil(text.length / 4));
}

/** Splits text into about `pieces` parts on code-point boundaries (for stream deltas). */
export function splitIntoPieces(text: string, pieces: number): string[] {
	const chars = Array.from(text);
	if (chars.length === 0) return [];
	const size = Math.max(1, Math.ceil(chars.length / pieces));
	const parts: string[] = [];
	for (let start = 0; start < chars.length; start += size)
		parts.push(chars.slice(start, start + size).join(''));
	return parts;
}

export function mentionsWeather(text: string): boolean {
	return /weather/i.test(text);
}

/**
 * The first tool whose name the text says as a word, case-insensitively, with `_` and `-` read
 * as spaces: "make a video of a red fox" names the tool `Video` (n8n names a tool after its node).
 */
export function namedTool(text: string, names: readonly string[]): string | undefined {
	const words = ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
	return names.find((name) => {
		const spoken = name.toLowerCase().replace(/[_-]+/g, ' ').trim();
		return spoken !== '' && words.includes(` ${spoken} `);
	});
}

/** The text of a message's content: a string, or the `text` of its parts joined by spaces. */
export function contentText(content: unknown): string {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return '';
	return content
		.filter(isRecord)
		.map((part) => (typeof part.text === 'string' ? part.text : ''))
		.filter((text) => text !== '')
		.join(' ');
}

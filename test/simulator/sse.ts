import type { ServerResponse } from 'node:http';
import { MAGIC } from './magic';

/** One server-sent event: a comment line, or an optional event name plus a data payload. */
export interface SseFrame {
	event?: string;
	/** A string is written as is (e.g. `[DONE]`); anything else as JSON. */
	data?: unknown;
	comment?: string;
}

export interface SseStyle {
	lineEnding: '\n' | '\r\n';
	/** Spread each JSON payload over several `data:` lines (legal SSE, rarely seen). */
	multilineData: boolean;
}

export const DONE_FRAME: SseFrame = { data: '[DONE]' };
export const KEEP_ALIVE_FRAME: SseFrame = { comment: 'keep-alive' };

export function sseStyleFor(promptText: string): SseStyle {
	return {
		lineEnding: promptText.includes(MAGIC.streamCrlf) ? '\r\n' : '\n',
		multilineData: promptText.includes(MAGIC.streamMultiline),
	};
}

export function serializeSse(frames: SseFrame[], style: SseStyle): string {
	return frames
		.map((frame) => {
			const lines: string[] = [];
			if (frame.comment !== undefined) lines.push(`: ${frame.comment}`);
			if (frame.event !== undefined) lines.push(`event: ${frame.event}`);
			if (frame.data !== undefined) {
				const payload =
					typeof frame.data === 'string'
						? frame.data
						: JSON.stringify(frame.data, null, style.multilineData ? 1 : undefined);
				for (const line of payload.split('\n')) lines.push(`data: ${line}`);
			}
			return lines.join(style.lineEnding) + style.lineEnding + style.lineEnding;
		})
		.join('');
}

// Uneven slice sizes so boundaries land mid-line and, with non-ASCII text, mid-character.
const SLICE_SIZES = [19, 5, 37, 11, 53, 7, 29];
const MAX_SLICES = 48;
const GAP_MS = 2;

/**
 * Writes `text` in many separate socket writes with small pauses between them, the way a
 * real upstream's bytes arrive, so clients must reassemble lines across chunks.
 */
export async function writeInSlices(
	res: ServerResponse,
	text: string,
	sleep: (ms: number) => Promise<void>,
	ending: 'end' | 'destroy',
): Promise<void> {
	const payload = Buffer.from(text, 'utf8');
	const minimumSlice = Math.ceil(payload.length / MAX_SLICES);
	res.flushHeaders();
	let offset = 0;
	for (let index = 0; offset < payload.length; index++) {
		if (res.destroyed) return;
		const size = Math.max(SLICE_SIZES[index % SLICE_SIZES.length], minimumSlice);
		res.write(payload.subarray(offset, offset + size));
		offset += size;
		await sleep(GAP_MS);
	}
	if (ending === 'destroy') res.destroy();
	else res.end();
}

import type { ServerResponse } from 'node:http';

/** At most this many writes per answer, so a long answer costs at most ~100 ms of gaps. */
const MAX_WRITES = 48;
const GAP_MS = 2;

/** Byte length of the UTF-8 sequence a lead byte starts (1 for ASCII and continuation bytes). */
function sequenceLength(byte: number): number {
	if (byte >= 0xf0) return 4;
	if (byte >= 0xe0) return 3;
	if (byte >= 0xc0) return 2;
	return 1;
}

/**
 * Where to cut `payload` so that every cut falls inside a multi-byte character: after 1, 2 or
 * 3 of its bytes in turn (a 4-byte emoji cut after 3 is the split seen in issue 34). Spread
 * evenly over the characters when there are more than MAX_WRITES.
 */
export function cutsInsideCharacters(payload: Buffer): number[] {
	const starts: number[] = [];
	for (let index = 0; index < payload.length; index++) {
		if (sequenceLength(payload[index]) > 1) starts.push(index);
	}
	const step = Math.max(1, Math.ceil(starts.length / (MAX_WRITES - 1)));
	const cuts: number[] = [];
	for (let nth = 0; nth < starts.length; nth += step) {
		const start = starts[nth];
		const inner = sequenceLength(payload[start]) - 1;
		cuts.push(start + 1 + ((nth / step) % inner));
	}
	return cuts;
}

/**
 * Writes a whole answer in separate socket writes cut inside its multi-byte characters, with
 * short pauses, as an upstream's bytes may arrive: a client that decodes each network chunk
 * by itself turns those characters into U+FFFD. ASCII-only answers go out in one write.
 */
export async function writeSplittingCharacters(
	res: ServerResponse,
	payload: Buffer,
	sleep: (ms: number) => Promise<void>,
): Promise<void> {
	const cuts = cutsInsideCharacters(payload);
	if (cuts.length === 0) {
		res.end(payload);
		return;
	}
	res.flushHeaders();
	let offset = 0;
	for (const cut of cuts) {
		if (res.destroyed) return;
		res.write(payload.subarray(offset, cut));
		offset = cut;
		await sleep(GAP_MS);
	}
	res.end(payload.subarray(offset));
}

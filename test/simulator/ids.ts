import { randomBytes, randomInt, randomUUID } from 'node:crypto';

/** `prefix` + random hex, e.g. newId('chatcmpl-'). */
export function newId(prefix: string, bytes = 8): string {
	return `${prefix}${randomBytes(bytes).toString('hex')}`;
}

/** An all-digit id, the shape several upstreams use for task ids. */
export function newNumericId(): string {
	return `${Date.now()}${String(randomInt(0, 1_000_000)).padStart(6, '0')}`;
}

export function newRequestId(): string {
	return randomUUID();
}

export function unixSeconds(ms: number): number {
	return Math.floor(ms / 1000);
}

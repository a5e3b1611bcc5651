import type { RefusalRule } from './types';

/** Why a route refused a request, recorded by the server as a spec violation. */
export interface Refusal {
	rule: RefusalRule;
	message: string;
}

/** What a route answers; the server turns it into bytes on the wire. */
export type Reply =
	| {
			kind: 'json';
			status: number;
			body: unknown;
			headers?: Record<string, string>;
			refusal?: Refusal;
	  }
	| { kind: 'bytes'; status: number; contentType: string; bytes: Buffer }
	/** A whole server-sent-events payload, written in small delayed slices. */
	| { kind: 'sse'; text: string; ending: 'end' | 'destroy' };

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
	return { kind: 'json', status, body, headers };
}

export function bytes(contentType: string, content: Buffer): Reply {
	return { kind: 'bytes', status: 200, contentType, bytes: content };
}

/**
 * A JSON answer that refuses the request because the client broke a rule of the spec (a body
 * it refuses, an id it does not know): the server records it in `violations`.
 */
export function refused(
	rule: RefusalRule,
	message: string,
	status: number,
	body: unknown,
	headers?: Record<string, string>,
): Reply {
	return { kind: 'json', status, body, headers, refusal: { rule, message } };
}

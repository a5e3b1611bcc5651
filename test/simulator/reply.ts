/** What a route answers; the server turns it into bytes on the wire. */
export type Reply =
	| { kind: 'json'; status: number; body: unknown; headers?: Record<string, string> }
	| { kind: 'bytes'; status: number; contentType: string; bytes: Buffer }
	/** A whole server-sent-events payload, written in small delayed slices. */
	| { kind: 'sse'; text: string; ending: 'end' | 'destroy' };

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
	return { kind: 'json', status, body, headers };
}

export function bytes(contentType: string, content: Buffer): Reply {
	return { kind: 'bytes', status: 200, contentType, bytes: content };
}

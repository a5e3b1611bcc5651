import { json, type Reply } from './reply';
import { serializeSse, type SseFrame } from './sse';
import type { Fault, HostName } from './types';

/** Faults that answer instead of the route. */
export type AnsweringFault = Extract<
	Fault,
	{ kind: 'status' | 'malformed-json' | 'html-error' | 'echo-key' | 'stream-error' }
>;

export interface FaultedRequest {
	host: HostName;
	path: string;
	headers: Record<string, string>;
}

export function faultReply(fault: AnsweringFault, request: FaultedRequest): Reply {
	switch (fault.kind) {
		case 'malformed-json':
			return {
				kind: 'bytes',
				status: 200,
				contentType: 'application/json; charset=utf-8',
				bytes: Buffer.from('{"id":"broken","choices":[{"index":0,'),
			};
		case 'html-error':
			return htmlErrorPage(fault.status ?? 502);
		case 'echo-key':
			return echoKeyError(fault.status ?? 400, request);
		case 'stream-error':
			return streamError(request, fault.echoKey === true);
		case 'status':
			return statusReply(fault);
	}
}

function statusReply(fault: Extract<Fault, { kind: 'status' }>): Reply {
	// A string body goes out verbatim (e.g. an HTML error page from a proxy).
	if (typeof fault.body === 'string') {
		return {
			kind: 'bytes',
			status: fault.status,
			contentType: fault.headers?.['content-type'] ?? 'text/plain; charset=utf-8',
			bytes: Buffer.from(fault.body),
		};
	}
	const body = fault.body ?? {
		error: {
			message: `injected fault: HTTP ${fault.status}`,
			type: 'server_error',
			param: null,
			code: null,
		},
	};
	return json(fault.status, body, fault.headers);
}

const REASONS: Record<number, string> = {
	500: 'Internal Server Error',
	502: 'Bad Gateway',
	503: 'Service Temporarily Unavailable',
	504: 'Gateway Time-out',
};

/** The page a proxy in front of the gateway (nginx here) sends for a 5xx. */
function htmlErrorPage(status: number): Reply {
	const title = `${status} ${REASONS[status] ?? 'Error'}`;
	const page = [
		'<!DOCTYPE html>',
		'<html>',
		`<head><title>${title}</title></head>`,
		'<body>',
		`<center><h1>${title}</h1></center>`,
		'<hr><center>nginx/1.25.3</center>',
		'</body>',
		'</html>',
		'',
	].join('\r\n');
	return { kind: 'bytes', status, contentType: 'text/html', bytes: Buffer.from(page) };
}

/** The credential the request carried, as a careless gateway would echo it back. */
function sentSecret(request: FaultedRequest): string {
	if (request.host === 'identity') return request.headers['x-access-token'] ?? '';
	return /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1] ?? '';
}

/**
 * An error body that echoes the caller's key three ways: inside the message, in a nested
 * field, and as a whole `Bearer <key>` header value. A client must redact all of them and
 * still show the message.
 */
function echoKeyError(status: number, request: FaultedRequest): Reply {
	const secret = sentSecret(request);
	if (request.host === 'identity') {
		const message = `access token ${secret} has no permission for this group`;
		return json(status, {
			code: status,
			message,
			error_message: message,
			detail: { request: { headers: { 'x-access-token': secret } } },
		});
	}
	return json(status, {
		error: {
			message: `Incorrect API key provided: ${secret}. Check the key in the console.`,
			type: 'invalid_request_error',
			param: null,
			code: 'invalid_api_key',
			details: { request: { headers: { authorization: `Bearer ${secret}` } }, key: secret },
		},
	});
}

/**
 * A stream that starts well and then carries an in-stream error: chat as a `data:` payload
 * with an `error` member, Responses as `event: error` then `response.failed`. With `echoKey`
 * the error message contains the caller's key.
 */
function streamError(request: FaultedRequest, echoKey: boolean): Reply {
	const message = echoKey ? `upstream rejected key ${sentSecret(request)}` : 'upstream overloaded';
	const frames: SseFrame[] = request.path.startsWith('/v1/responses')
		? [
				{ event: 'response.created', data: responsesEvent('response.created', 0, 'in_progress') },
				{
					event: 'error',
					data: { type: 'error', sequence_number: 1, code: 'server_error', message, param: null },
				},
				{
					event: 'response.failed',
					data: {
						...responsesEvent('response.failed', 2, 'failed'),
						response: {
							id: 'resp_fault',
							object: 'response',
							status: 'failed',
							error: { code: 'server_error', message },
						},
					},
				},
			]
		: [
				{
					data: {
						id: 'chatcmpl-fault',
						object: 'chat.completion.chunk',
						created: Math.floor(Date.now() / 1000),
						model: 'fault',
						choices: [
							{ index: 0, delta: { role: 'assistant', content: 'Hel' }, finish_reason: null },
						],
					},
				},
				{ data: { error: { message, type: 'server_error', code: 'upstream_error' } } },
			];
	return {
		kind: 'sse',
		text: serializeSse(frames, { lineEnding: '\n', multilineData: false }),
		ending: 'end',
	};
}

function responsesEvent(type: string, sequenceNumber: number, status: string): object {
	return {
		type,
		sequence_number: sequenceNumber,
		response: { id: 'resp_fault', object: 'response', status },
	};
}

import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { AmbiguousCreates } from './ambiguousCreates';
import { faultReply } from './faultReplies';
import type { FaultQueue } from './faults';
import { retryAfterHeaders, type RateLimiter } from './rateLimit';
import { json, type Reply } from './reply';
import { findRoute, type Route } from './router';
import { writeSplittingCharacters } from './splitWrites';
import { writeInSlices } from './sse';
import type { TaskTable } from './tasks';
import type { Timers } from './timers';
import type { HostName, RecordedRequest, ResolvedOptions, Violation, ViolationRule } from './types';

/**
 * The request log keeps an answer's text up to this many characters. A long-running video
 * operation answers with its videos inline (base64, 1.4 MB for a 1 MiB video): a day of
 * thousands kept whole would hold gigabytes in the log (the pipeline bench ran out of heap).
 */
export const RECORDED_ANSWER_CHARS = 64 * 1024;

export interface PipelineDeps {
	routes: readonly Route[];
	controlRoutes: readonly Route[];
	/** Live options: credentials and latency are read per request. */
	options: ResolvedOptions;
	faults: FaultQueue;
	tasks: TaskTable;
	requestLog: RecordedRequest[];
	/** Result file downloads, logged apart from the gateway's requests. */
	fileDownloads: Array<{ path: string; at: number }>;
	/** Latency, delay faults and stream gaps; stopped on close(). */
	requestTimers: Timers;
	rateLimiter: RateLimiter;
	violations: Violation[];
	ambiguousCreates: AmbiguousCreates;
}

const CONTROL_PREFIX = '/__control/';

export function createRequestHandler(
	host: HostName,
	deps: PipelineDeps,
): (req: IncomingMessage, res: ServerResponse) => void {
	return (req, res) => {
		handleRequest(host, req, res, deps).catch((error: unknown) => answerInternalError(res, error));
	};
}

/**
 * The pipeline: record → latency → injected fault → redirect mode → credentials → rate limit → route.
 * Recording comes first so tests see every attempt, including faulted and rejected ones.
 */
async function handleRequest(
	host: HostName,
	req: IncomingMessage,
	res: ServerResponse,
	deps: PipelineDeps,
): Promise<void> {
	const rawBody = await readBody(req);
	const url = new URL(req.url ?? '/', 'http://simulator.invalid');
	const method = (req.method ?? 'GET').toUpperCase();
	const path = url.pathname;
	const query = Object.fromEntries(url.searchParams);
	const headers = flattenHeaders(req.headers);
	const body = parseBody(rawBody, headers['content-type']);

	if (path.startsWith(CONTROL_PREFIX)) {
		const control = findRoute(deps.controlRoutes, host, method, path);
		const reply = control
			? await control.route.handle({
					host,
					method,
					path,
					params: control.params,
					query,
					headers,
					body,
				})
			: json(404, { error: { message: `unknown control route: ${method} ${path}` } });
		await sendReply(res, reply, deps.requestTimers);
		return;
	}

	const match = findRoute(deps.routes, host, method, path);
	const isPublicFile = match?.route.isPublicFile === true;
	const request = `${method} ${path}`;
	const violation = (rule: ViolationRule, message: string): void => {
		deps.violations.push({ rule, request, at: Date.now(), message });
	};
	// Every POST of the gateway creates something billed (a completion, an edit, a task, a review).
	const createKey =
		match !== undefined && !isPublicFile && method === 'POST'
			? AmbiguousCreates.key(host, path, rawBody.toString('utf8'))
			: undefined;
	const markAmbiguous = (): void => {
		if (createKey !== undefined) deps.ambiguousCreates.remember(createKey);
	};
	let record: RecordedRequest | undefined;
	if (isPublicFile && method === 'GET') deps.fileDownloads.push({ path, at: Date.now() });
	if (!isPublicFile) {
		const at = Date.now();
		record = { host, method, path, query, headers, body, at };
		deps.requestLog.push(record);
		const polledTaskId = match?.route.polledTaskId?.(match.params);
		if (polledTaskId !== undefined) deps.tasks.recordPoll(polledTaskId, at);
		if (host === 'identity' && headers.authorization !== undefined) {
			// Spec: the identity host uses X-Access-Token "and no Authorization header".
			violation(
				'authorization-on-identity-host',
				`${request} on the identity host carried an Authorization header.`,
			);
		}
		if (createKey !== undefined && deps.ambiguousCreates.has(createKey)) {
			violation(
				'create-repeated-after-ambiguous-failure',
				`${request} repeated a create whose earlier attempt failed ambiguously (5xx, dropped connection or timeout): it may have been processed, and a repeat can bill twice.`,
			);
		}
	}
	// The client gave up (a timeout) before any answer: it cannot know whether it was processed.
	// (Once an answer is under way it knows; a close racing the end of a sent answer is no timeout.)
	let answerStarted = false;
	res.on('close', () => {
		if (!answerStarted) markAmbiguous();
	});
	const answer = async (reply: Reply): Promise<void> => {
		answerStarted = true;
		if (record !== undefined) record.status = reply.kind === 'sse' ? 200 : reply.status;
		// A 5xx, or an answer to a client that already gave up, leaves the outcome unknown to it.
		if (res.destroyed || (reply.kind !== 'sse' && reply.status >= 500)) markAmbiguous();
		if (reply.kind === 'json' && reply.refusal !== undefined) {
			violation(reply.refusal.rule, `${request}: ${reply.refusal.message}`);
		}
		const sent = await sendReply(res, reply, deps.requestTimers);
		if (record !== undefined && sent !== undefined) {
			if (sent.length <= RECORDED_ANSWER_CHARS) record.answer = sent;
			else {
				// Copied: V8's slice of a long string points into it and keeps all of it alive.
				record.answer = Buffer.from(sent.slice(0, RECORDED_ANSWER_CHARS)).toString();
				record.answerTruncated = true;
			}
		}
	};

	await deps.requestTimers.sleep(deps.options.latencyMs);

	const fault = deps.faults.take(method, path);
	if (fault !== undefined) {
		if (fault.kind === 'drop' || fault.kind === 'refuse') {
			markAmbiguous();
			req.socket.destroy();
			return;
		}
		if (fault.kind === 'delay') {
			await deps.requestTimers.sleep(fault.ms);
		} else {
			await answer(faultReply(fault, { host, path, headers }));
			return;
		}
	}

	if (!isPublicFile && deps.options.redirectTo !== '') {
		// Redirect mode: sent elsewhere before anything is checked, as a proxy in front would.
		await answer(
			json(
				307,
				{ redirected: true },
				{ location: redirectTarget(deps.options.redirectTo, req.url) },
			),
		);
		return;
	}
	if (!isPublicFile) {
		const denial = checkCredentials(host, headers, deps.options);
		if (denial !== undefined) {
			violation(denial.rule, `${request}: ${denial.message}`);
			await answer(denial.reply);
			return;
		}
	}
	if (!isPublicFile) {
		const waitMs = deps.rateLimiter.check(Date.now());
		if (waitMs !== undefined) {
			await answer(rateLimited(host, waitMs));
			return;
		}
	}
	if (match === undefined) {
		violation('unknown-route', `${request} is no route of the ${host} host.`);
		await answer(unknownRoute(host, method, path));
		return;
	}
	const reply = await match.route.handle({
		host,
		method,
		path,
		params: match.params,
		query,
		headers,
		body,
	});
	await answer(reply);
}

interface CredentialDenial {
	rule: 'missing-credential' | 'wrong-credential';
	message: string;
	reply: Reply;
}

function checkCredentials(
	host: HostName,
	headers: Record<string, string>,
	options: ResolvedOptions,
): CredentialDenial | undefined {
	if (host === 'base') {
		const token = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1];
		if (token === options.apiKey) return undefined;
		return {
			...(token === undefined
				? { rule: 'missing-credential', message: 'no Authorization: Bearer header' }
				: { rule: 'wrong-credential', message: 'the Bearer key is not the API key' }),
			reply: json(401, {
				error: {
					message: 'Invalid API key',
					type: 'authentication_error',
					param: null,
					code: 'invalid_api_key',
				},
			}),
		};
	}
	// The identity host does not look at Authorization; tests assert it is absent from the log.
	const token = headers['x-access-token'];
	if (token === options.accessToken) return undefined;
	return {
		...(token === undefined
			? { rule: 'missing-credential', message: 'no X-Access-Token header' }
			: { rule: 'wrong-credential', message: 'the X-Access-Token is not the access token' }),
		reply: json(401, { code: 401, message: 'invalid access token' }),
	};
}

/** The same path and query on the redirect mode's origin. */
function redirectTarget(origin: string, requestUrl: string | undefined): string {
	return `${origin.replace(/\/+$/, '')}${requestUrl ?? '/'}`;
}

function rateLimited(host: HostName, waitMs: number): Reply {
	const message = 'Rate limit reached for requests; try again later.';
	const body =
		host === 'identity'
			? { code: 429, message }
			: {
					error: {
						message,
						type: 'rate_limit_error',
						param: null,
						code: 'rate_limit_exceeded',
					},
				};
	return json(429, body, retryAfterHeaders(waitMs));
}

function unknownRoute(host: HostName, method: string, path: string): Reply {
	if (host === 'identity') return json(404, { code: 404, message: `not found: ${method} ${path}` });
	return json(404, {
		error: {
			message: `Unknown request URL: ${method} ${path}`,
			type: 'invalid_request_error',
			param: null,
			code: 'unknown_url',
		},
	});
}

/** Sends a reply; returns the text of a JSON or event-stream answer, as sent. */
async function sendReply(
	res: ServerResponse,
	reply: Reply,
	timers: Timers,
): Promise<string | undefined> {
	if (res.destroyed || res.headersSent) return undefined;
	switch (reply.kind) {
		case 'json': {
			const text = JSON.stringify(reply.body);
			const payload = Buffer.from(text);
			res.writeHead(reply.status, {
				'content-type': 'application/json; charset=utf-8',
				'content-length': payload.length,
				...reply.headers,
			});
			await writeSplittingCharacters(res, payload, (ms) => timers.sleep(ms));
			return text;
		}
		case 'bytes':
			res.writeHead(reply.status, {
				'content-type': reply.contentType,
				'content-length': reply.bytes.length,
			});
			res.end(reply.bytes);
			return undefined;
		case 'sse':
			res.writeHead(200, {
				'content-type': 'text/event-stream; charset=utf-8',
				'cache-control': 'no-cache',
				connection: 'keep-alive',
			});
			await writeInSlices(res, reply.text, (ms) => timers.sleep(ms), reply.ending);
			return reply.text;
	}
}

function answerInternalError(res: ServerResponse, error: unknown): void {
	console.error('[simulator] request failed:', error);
	if (res.destroyed) return;
	if (res.headersSent) {
		res.destroy();
		return;
	}
	const message = error instanceof Error ? error.message : String(error);
	const payload = JSON.stringify({
		error: {
			message: `simulator internal error: ${message}`,
			type: 'server_error',
			param: null,
			code: null,
		},
	});
	res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
	res.end(payload);
}

function readBody(req: IncomingMessage): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

/**
 * Parsed JSON when the Content-Type says JSON (spec: "All POST bodies are application/json");
 * otherwise, or when it does not parse, the raw text, which every route refuses as a body.
 */
function parseBody(raw: Buffer, contentType: string | undefined): unknown {
	if (raw.length === 0) return undefined;
	const text = raw.toString('utf8');
	if (!isJsonContentType(contentType)) return text;
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

function isJsonContentType(contentType: string | undefined): boolean {
	const mediaType = contentType?.split(';')[0].trim().toLowerCase() ?? '';
	return mediaType === 'application/json' || /^application\/[\w.+-]+\+json$/.test(mediaType);
}

function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
	const flat: Record<string, string> = {};
	for (const [name, value] of Object.entries(headers)) {
		if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return flat;
}

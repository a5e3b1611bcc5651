import { json, type Reply } from '../reply';
import type { Route } from '../router';
import type { Fault, RecordedRequest, Simulator, SimulatorOptions } from '../types';
import { isRecord } from '../validate';

/**
 * Optional HTTP remote control, for a simulator running in another process (the CLI, the
 * end-to-end suite). No credentials: it only ever listens on 127.0.0.1. Never logged, never
 * faulted, never delayed.
 */
export type ControlTarget = Pick<
	Simulator,
	| 'requests'
	| 'callbacks'
	| 'violations'
	| 'pollLog'
	| 'backdateTask'
	| 'injectFault'
	| 'setOptions'
	| 'reset'
>;

export function controlRoutes(target: ControlTarget): Route[] {
	const route = (method: string, pattern: RegExp, handle: Route['handle']): Route => ({
		host: 'both',
		methods: [method],
		pattern,
		handle,
	});
	return [
		route('GET', /^\/__control\/requests$/, () =>
			json(200, { requests: target.requests.map(withoutSecrets) }),
		),
		route('GET', /^\/__control\/callbacks$/, () => json(200, { callbacks: target.callbacks })),
		route('GET', /^\/__control\/polls\/(.+)$/, ({ params: [taskId] }) =>
			json(200, { polls: target.pollLog(taskId) }),
		),
		route('GET', /^\/__control\/violations$/, () => json(200, { violations: target.violations })),
		route('POST', /^\/__control\/tasks\/(.+)\/backdate$/, ({ params: [taskId], body }) =>
			withErrors(() => {
				if (!isRecord(body) || typeof body.ms !== 'number')
					throw new Error('backdate needs {"ms": <number>}');
				target.backdateTask(taskId, body.ms);
			}),
		),
		route('POST', /^\/__control\/faults$/, ({ body }) =>
			withErrors(() => target.injectFault(parseFault(body))),
		),
		route('POST', /^\/__control\/options$/, ({ body }) =>
			withErrors(() => target.setOptions(parseOptions(body))),
		),
		route('POST', /^\/__control\/reset$/, () => withErrors(() => target.reset())),
	];
}

const SECRET_HEADERS = ['authorization', 'x-access-token'];

/** Credentials never leave the simulator in a response, not even its own log. */
function withoutSecrets(request: RecordedRequest): RecordedRequest {
	const headers = { ...request.headers };
	for (const name of SECRET_HEADERS) if (headers[name] !== undefined) headers[name] = '[redacted]';
	return { ...request, headers };
}

function withErrors(action: () => void): Reply {
	try {
		action();
		return json(200, { ok: true });
	} catch (error) {
		return json(400, {
			ok: false,
			message: error instanceof Error ? error.message : String(error),
		});
	}
}

/** A Fault as JSON; `path` may be a prefix string or `{regex, flags?}`. */
function parseFault(body: unknown): Fault {
	if (!isRecord(body)) throw new Error('fault must be a JSON object');
	const match = {
		method: typeof body.method === 'string' ? body.method : undefined,
		path: parsePath(body.path),
		times: typeof body.times === 'number' ? body.times : undefined,
	};
	switch (body.kind) {
		case 'status':
			if (typeof body.status !== 'number')
				throw new Error("a 'status' fault needs a numeric status");
			return {
				...match,
				kind: 'status',
				status: body.status,
				headers: stringRecord(body.headers),
				body: body.body,
			};
		case 'delay':
			if (typeof body.ms !== 'number') throw new Error("a 'delay' fault needs ms");
			return { ...match, kind: 'delay', ms: body.ms };
		case 'html-error':
		case 'echo-key':
			return {
				...match,
				kind: body.kind,
				status: typeof body.status === 'number' ? body.status : undefined,
			};
		case 'stream-error':
			return { ...match, kind: 'stream-error', echoKey: body.echoKey === true };
		case 'malformed-json':
		case 'drop':
		case 'refuse':
			return { ...match, kind: body.kind };
		default:
			throw new Error(`unknown fault kind: ${String(body.kind)}`);
	}
}

function parsePath(path: unknown): string | RegExp | undefined {
	if (typeof path === 'string') return path;
	if (isRecord(path) && typeof path.regex === 'string')
		return new RegExp(path.regex, typeof path.flags === 'string' ? path.flags : undefined);
	return undefined;
}

function stringRecord(value: unknown): Record<string, string> | undefined {
	if (!isRecord(value)) return undefined;
	return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, String(item)]));
}

/** Known options with the right type; setOptions() ignores the undefined ones. Ports cannot change. */
function parseOptions(body: unknown): Partial<SimulatorOptions> {
	if (!isRecord(body)) throw new Error('options must be a JSON object');
	const numberOption = (key: string): number | undefined => {
		const value = body[key];
		return typeof value === 'number' ? value : undefined;
	};
	const stringOption = (key: string): string | undefined => {
		const value = body[key];
		return typeof value === 'string' ? value : undefined;
	};
	return {
		queuedMs: numberOption('queuedMs'),
		runningMs: numberOption('runningMs'),
		latencyMs: numberOption('latencyMs'),
		taskAgeMs: numberOption('taskAgeMs'),
		rateLimitEvery: numberOption('rateLimitEvery'),
		rateLimitPerSecond: numberOption('rateLimitPerSecond'),
		rateLimitRetryAfterMs: numberOption('rateLimitRetryAfterMs'),
		resultVideoBytes: numberOption('resultVideoBytes'),
		apiKey: stringOption('apiKey'),
		accessToken: stringOption('accessToken'),
		publicHost: stringOption('publicHost'),
		redirectTo: stringOption('redirectTo'),
	};
}

/** Public types of the gateway simulator (re-exported by index.ts). */

export interface SimulatorOptions {
	/** Bearer key the base host accepts. Default 'sim-api-key'. */
	apiKey?: string;
	/** X-Access-Token the identity host accepts. Default 'sim-access-token'. */
	accessToken?: string;
	/** Base host port; 0 picks a free one. Always bound to 127.0.0.1. */
	port?: number;
	/** Identity host port; 0 picks a free one. */
	identityPort?: number;
	/** Task lifecycle: time a new task spends queued. Default 50. */
	queuedMs?: number;
	/** Task lifecycle: time in running before the terminal state. Default 100. */
	runningMs?: number;
	/** Fixed extra latency added before every response. Default 0. */
	latencyMs?: number;
	/** Host name used in result URLs. Default '127.0.0.1'. */
	publicHost?: string;
	/**
	 * New video tasks are recorded as created this long ago (their timeline, callbacks and
	 * polling rule included), so a test can model "created long enough ago". Default 0.
	 */
	taskAgeMs?: number;
	/** Rate-limit mode: every Nth gateway request is answered 429. 0 (default) = off. */
	rateLimitEvery?: number;
	/** Rate-limit mode: at most this many gateway requests per rolling second. 0 (default) = off. */
	rateLimitPerSecond?: number;
	/** `Retry-After` (rounded up to seconds) and `retry-after-ms` of a rate-limited answer. Default 1000. */
	rateLimitRetryAfterMs?: number;
	/**
	 * Size in bytes of each result video (an MP4 header and an `mdat` box of fixed pseudo-random bytes);
	 * 0 (default) = the tiny sample. Invented test configuration (large results), not spec.
	 */
	resultVideoBytes?: number;
	/**
	 * Redirect mode (a proxy or a moved gateway in front of both hosts): every gateway request
	 * is answered `307 Temporary Redirect` to this origin, same path and query, and processed no
	 * further. '' (default) = off. Invented test configuration (the spec has no redirects), for
	 * the rule that a credential goes only to its own URL.
	 */
	redirectTo?: string;
}

export type ResolvedOptions = Required<SimulatorOptions>;

export type HostName = 'base' | 'identity';

export interface RecordedRequest {
	host: HostName;
	method: string;
	path: string;
	query: Record<string, string>;
	/** Lower-case header names. */
	headers: Record<string, string>;
	/** Parsed JSON, the raw string when the body is not JSON, undefined when empty. */
	body: unknown;
	at: number;
	/** HTTP status of the answer, once sent; undefined while pending or when the socket was dropped. */
	status?: number;
	/** The JSON or event-stream text answered, as sent; undefined for media and dropped answers. */
	answer?: string;
	/** Set when the answer was longer than RECORDED_ANSWER_CHARS and `answer` keeps its start. */
	answerTruncated?: true;
}

/** What a route refuses because the client broke the spec (recorded as a violation). */
export type RefusalRule = 'invalid-body' | 'unknown-id';

/** Every kind of spec violation the simulator records (README, "Spec violations"). */
export const VIOLATION_RULES = [
	'task-s-query-too-early',
	'task-s-query-too-often',
	'authorization-on-identity-host',
	'invalid-body',
	'unknown-id',
	'unknown-route',
	'missing-credential',
	'wrong-credential',
	'create-repeated-after-ambiguous-failure',
] as const;

export type ViolationRule = (typeof VIOLATION_RULES)[number];

/** A rule of the spec a client broke; tests read these (the jest fixture fails on any undeclared one). */
export interface Violation {
	rule: ViolationRule;
	/** The task concerned, for the polling rules. */
	taskId?: string;
	/** The request, e.g. `POST /v1/chat/completions`. */
	request?: string;
	at: number;
	message: string;
}

export type Fault = {
	method?: string;
	/** A string matches as a path prefix; a RegExp is tested against the path. */
	path?: string | RegExp;
	/** How many matching requests this fault answers. Default 1. */
	times?: number;
} & (
	| { kind: 'status'; status: number; headers?: Record<string, string>; body?: unknown }
	| { kind: 'malformed-json' }
	/** A proxy's HTML error page (text/html), default HTTP 502. */
	| { kind: 'html-error'; status?: number }
	/** An error body echoing the caller's key in the message, a nested field and as `Bearer <key>`; default HTTP 400. */
	| { kind: 'echo-key'; status?: number }
	/** HTTP 200 stream that breaks with an in-stream error (chat `data: {error}`, Responses `event: error`). */
	| { kind: 'stream-error'; echoKey?: boolean }
	| { kind: 'delay'; ms: number }
	| { kind: 'drop' }
	/** Cannot happen on a listening port: injectFault throws; use closedPortUrl() instead. */
	| { kind: 'refuse' }
);

export interface CallbackRecord {
	url: string;
	body: unknown;
	/** HTTP status the receiver answered with, once known. */
	status?: number;
	at: number;
	/** Why delivery failed (receiver down, timeout), once known. */
	error?: string;
}

export interface Simulator {
	baseUrl: string;
	identityUrl: string;
	apiKey: string;
	accessToken: string;
	/** The request log; the simulator's own /files and /__control routes are left out. */
	requests: RecordedRequest[];
	/** Result file downloads (a CDN's access log): path and time of each GET of a /files link. */
	fileDownloads: Array<{ path: string; at: number }>;
	/** Method is case-insensitive ('*' for any); a string path matches as a prefix. */
	requestsTo(method: string, path: string | RegExp): RecordedRequest[];
	/** Faults are matched in order and consumed per use. */
	injectFault(fault: Fault): void;
	/** Timestamps of every GET on that task (any of its ids), faulted ones included. */
	pollLog(taskId: string): number[];
	callbacks: CallbackRecord[];
	/** Spec rules a client broke (README, "Spec violations"). */
	violations: Violation[];
	/**
	 * Moves a task's history (creation, previous queries, timeline) `ms` into the past, as if
	 * that much time had passed for it. Throws for an unknown id.
	 */
	backdateTask(taskId: string, ms: number): void;
	/** Ports cannot change after start; everything else applies to later requests and tasks. */
	setOptions(partial: Partial<SimulatorOptions>): void;
	/** Clears the request log, callbacks, violations, faults, rate-limit counters, tasks, stored responses and pending timers. */
	reset(): void;
	close(): Promise<void>;
}

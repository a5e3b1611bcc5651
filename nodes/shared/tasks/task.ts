import type { IBinaryData, IDataObject } from 'n8n-workflow';
import { z } from 'zod';

import type { StoredMedia } from '../streams/jsonMediaStream';
import type { Cost, Usage } from '../gateway/usage';
import type { BusinessFailureCheck } from '../gateway/transport';
import { answerRule, firstFailure } from '../schemas/answerRule';
import type { FamilyId } from './familyIds';

/**
 * The normalized task model: the public output contract of every task-producing node,
 * whatever the provider family, and the wire interface each family module implements.
 * Nothing here knows a particular family: the family table (./index.ts) does; only their ids
 * (./familyIds.ts) are known here.
 */

export type { FamilyId };

export type TaskStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'unknown';

export interface TaskError {
	code: string;
	message: string;
}

export interface NormalizedTask {
	family: FamilyId;
	taskId: string;
	model: string | null;
	/**
	 * For families that expose several create endpoints and query a task under the one it
	 * was created with: that endpoint's name. Absent for the other families.
	 */
	endpoint?: string;
	status: TaskStatus;
	/** The gateway's own status word (or a stand-in such as `done=true` where the family has none). */
	rawStatus: string | null;
	/** True only for `succeeded` and `failed`: an unknown status is never terminal. */
	done: boolean;
	progress: number | null;
	videoUrl: string | null;
	videoUrls: string[];
	lastFrameUrl: string | null;
	error: TaskError | null;
	/** ISO time of creation as known to the client (null when a bare task id was queried and the record has none). */
	createdAt: string | null;
	traceId: string | null;
	/** What the gateway reported about usage and money; null where the family reports none. */
	usage: Usage | null;
	cost: Cost | null;
	/** The gateway's body as received (inline video bytes removed: they travel as binary data). */
	raw: unknown;
}

/**
 * Video bytes the gateway returned inline instead of a URL: as base64 when the answer was
 * parsed whole, or already in n8n's binary storage when it was read as a stream.
 */
export type InlineVideo =
	| { base64: string; mimeType: string }
	| { binary: IBinaryData; mimeType: string };

export interface ParsedTask {
	task: NormalizedTask;
	inlineVideos: InlineVideo[];
}

/** What identifies a task for a query. */
export interface TaskReference {
	family: FamilyId;
	taskId: string;
	model?: string | null;
	endpoint?: string | null;
	createdAt?: string | null;
	/** When an earlier reader last queried the task (ISO), as its output item says. */
	lastCheckedAt?: string | null;
}

/** One HTTP call a family wants made (always sent through the shared transport). */
export interface FamilyRequest {
	method: 'GET' | 'POST';
	path: string;
	body?: IDataObject;
}

/** A create call, with what the answer alone does not say. */
export interface CreateRequest extends FamilyRequest {
	model: string;
	endpoint?: string;
}

/** Context given to the parsers: what was asked and when. */
export interface ParseContext {
	model: string | null;
	endpoint?: string | null;
	traceId: string | null;
	/** Creation time known to the client (ISO), used when the record has none. */
	createdAt: string | null;
	/** Inline media already stored while the answer was read (see `inlineMediaKeys`). */
	storedMedia?: ReadonlyArray<StoredMedia<IBinaryData>>;
}

/**
 * How often a task of this family may be queried. `firstPollAfterMs` is the delay after
 * creation before the first query (for families that call back: before the first query
 * when no callback arrived), and `minIntervalMs` the shortest allowed gap between two
 * queries of one task.
 */
export interface PollPolicy {
	firstPollAfterMs: number;
	minIntervalMs: number;
	/**
	 * True when the gateway sets these limits (and may refuse or penalize earlier queries);
	 * false when they are only our advice. A single query (Get Status) refuses to break a rule.
	 */
	enforcedByGateway: boolean;
	/**
	 * True when a task may be queried only while no callback about it has arrived (Task family
	 * S): whoever receives its callbacks never queries it.
	 */
	queryOnlyWithoutCallback?: boolean;
	/** Why, in words for a hint. */
	guidance: string;
}

/**
 * One provider family's wire half: everything needed to read its tasks, free of any editor
 * concern, so nodes that wait for or receive tasks can use it without the Video node's UI.
 */
export interface TaskFamily {
	id: FamilyId;
	/** The family's name for people (selectors, subtitles, messages). */
	displayName: string;
	/**
	 * What a success of each of the family's answers carries, with the business failures they
	 * report inside HTTP 200 (a family's `code`); given to the transport with each request.
	 */
	answerFailure: TaskAnswerFailures;
	/**
	 * Keys under which the family's task records carry media as base64: such records are read
	 * as a stream and the media stored as binary data as it arrives, never held whole.
	 */
	inlineMediaKeys?: readonly string[];
	parseCreateResponse(body: unknown, context: ParseContext): ParsedTask;
	buildQueryRequest(reference: TaskReference): FamilyRequest;
	parseTaskRecord(body: unknown, context: ParseContext): ParsedTask;
	pollPolicy: PollPolicy;
	/**
	 * Says whether a callback body belongs to this family and, if so, parses it into the
	 * normalized task. Families without documented callbacks return undefined.
	 */
	recognizeCallback(body: unknown, context?: Partial<ParseContext>): NormalizedTask | undefined;
}

/**
 * The success rule of each kind of a family's answers (issue 39): its create answer names
 * the task it started, its query answer is a task record. An answer without them (an HTTP 200
 * error body) is no task: before, it failed printing the whole body (key included) or became
 * a task of status `unknown` that was polled on.
 */
export interface TaskAnswerFailures {
	create: BusinessFailureCheck;
	query: BusinessFailureCheck;
}

/** `"a"`, `"a" or "b"`, `"a", "b" or "c"`. */
function fieldList(fields: readonly string[]): string {
	const quoted = fields.map((field) => `"${field}"`);
	return quoted.length > 1
		? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`
		: quoted.join('');
}

/**
 * The rule for one kind of a family's answers: a success has a value (text, a number, a
 * boolean) in one of `fields`, at its top or, for a family that wraps its records in
 * `{code, message, data}` (`inData`), inside `data`: where the family's parser reads them.
 * Its `error` member is the task's own (a failed task's reason), so only an answer that is no
 * task fails, in the gateway's words or naming the fields (`what` has none of them).
 */
function taskAnswerRule(
	what: string,
	fields: readonly string[],
	inData: boolean,
): BusinessFailureCheck {
	const hasField = (record: JsonRecord | undefined) =>
		record !== undefined &&
		fields.some((field) => text(record[field]) !== undefined || typeof record[field] === 'boolean');
	const isTask = (body: unknown) =>
		hasField(asRecord(body)) || (inData && hasField(asRecord(asRecord(body)?.data)));
	return answerRule(
		z.custom((body) => isTask(body)),
		() => `The gateway answered without a task: ${what} has no ${fieldList(fields)}`,
		{ errorBelongsToAnswer: true },
	);
}

/**
 * A family's rules from the fields that make its create answer and its task record a task.
 * A family that reports business failures in a `{code, message, data}` envelope gives that
 * check (`envelope`): it comes first, and the fields may stand inside `data`.
 */
export function taskAnswerFailures(
	fields: { create: readonly string[]; query: readonly string[] },
	envelope?: BusinessFailureCheck,
): TaskAnswerFailures {
	const rule = (what: string, kindFields: readonly string[]) => {
		const shape = taskAnswerRule(what, kindFields, envelope !== undefined);
		return envelope ? firstFailure(envelope, shape) : shape;
	};
	return {
		create: rule('the create answer', fields.create),
		query: rule('the task record', fields.query),
	};
}

// ---- Status mapping ----

export type StatusTable = Readonly<Record<string, TaskStatus>>;

/**
 * Maps a family's status word onto the normalized lifecycle, case-insensitively. Anything
 * not in the table (including a missing value) is `unknown`: never terminal, never a crash.
 */
export function mapStatus(table: StatusTable, raw: unknown): TaskStatus {
	if (typeof raw !== 'string' && typeof raw !== 'number') return 'unknown';
	return table[String(raw).trim().toLowerCase()] ?? 'unknown';
}

export function isDone(status: TaskStatus): boolean {
	return status === 'succeeded' || status === 'failed';
}

// ---- Tolerant readers for bodies whose shape we do not control ----

export type JsonRecord = Record<string, unknown>;

export function asRecord(value: unknown): JsonRecord | undefined {
	return value !== null && typeof value === 'object' && !Array.isArray(value)
		? (value as JsonRecord)
		: undefined;
}

export function text(value: unknown): string | undefined {
	if (typeof value === 'string' && value.trim() !== '') return value;
	if (typeof value === 'number' && Number.isFinite(value)) return String(value);
	return undefined;
}

export function finiteNumber(value: unknown): number | undefined {
	const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
	return typeof number === 'number' && Number.isFinite(number) ? number : undefined;
}

/** Unix seconds or milliseconds (told apart by size) or an ISO string → ISO string. */
export function isoTime(value: unknown): string | undefined {
	const number = finiteNumber(value);
	if (number !== undefined && number > 0) {
		const date = new Date(number > 1e12 ? number : number * 1000);
		return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
	}
	if (typeof value === 'string') {
		const parsed = Date.parse(value);
		if (!Number.isNaN(parsed)) return new Date(parsed).toISOString();
	}
	return undefined;
}

/** `{code, message}` from whatever error shape a family used; null when there is none. */
export function taskError(value: unknown, fallbackCode = 'task_failed'): TaskError | null {
	if (value === null || value === undefined || value === '' || value === false) return null;
	if (typeof value === 'string') return { code: fallbackCode, message: value };
	const record = asRecord(value);
	if (!record) return { code: fallbackCode, message: String(value) };
	const message = text(record.message) ?? text(record.msg) ?? JSON.stringify(record);
	return { code: text(record.code) ?? text(record.type) ?? fallbackCode, message };
}

export function distinctUrls(values: unknown[]): string[] {
	const urls: string[] = [];
	for (const value of values) {
		if (typeof value === 'string' && value.trim() !== '' && !urls.includes(value)) urls.push(value);
	}
	return urls;
}

/** Assembles a normalized task; `done` follows from the status so the two never disagree. */
export function normalizedTask(
	fields: Omit<
		NormalizedTask,
		'done' | 'videoUrl' | 'createdAt' | 'traceId' | 'model' | 'usage' | 'cost'
	> & {
		createdAt?: string;
		model?: string | null;
		usage?: Usage | null;
		cost?: Cost | null;
	},
	context: ParseContext,
): NormalizedTask {
	const task: NormalizedTask = {
		family: fields.family,
		taskId: fields.taskId,
		model: fields.model ?? context.model ?? null,
		status: fields.status,
		rawStatus: fields.rawStatus,
		done: isDone(fields.status),
		progress: fields.progress,
		videoUrl: fields.videoUrls[0] ?? null,
		videoUrls: fields.videoUrls,
		lastFrameUrl: fields.lastFrameUrl,
		error: fields.error,
		createdAt: fields.createdAt ?? context.createdAt,
		traceId: context.traceId,
		usage: fields.usage ?? null,
		cost: fields.cost ?? null,
		raw: fields.raw,
	};
	if (fields.endpoint !== undefined) task.endpoint = fields.endpoint;
	// A failure always explains itself.
	if (task.status === 'failed' && !task.error) {
		task.error = {
			code: 'task_failed',
			message: `The task ended with status "${task.rawStatus ?? 'failed'}"`,
		};
	}
	return task;
}

/**
 * Clocks differ between the gateway, n8n and the sheet a time came from: a callback's
 * `created_at` from a gateway whose clock runs minutes ahead is normal, and must not fail a
 * paid task. Beyond an hour the time is wrong, not skewed (a typo, a time zone read as UTC).
 */
const CLOCK_SKEW_MS = 60 * 60_000;

/**
 * What is wrong with a task's creation time, if anything: it must be a time (ISO, as Create
 * outputs it) and not more than CLOCK_SKEW_MS in the future. Waiting rules count from it, so a
 * wrong one would make a query early (Task family S) or a wait end at once. A time within the
 * tolerance but ahead of `now` is for the reader to count from `now`.
 */
export function createdAtProblem(
	createdAt: string | null | undefined,
	now: number,
): string | undefined {
	if (createdAt === null || createdAt === undefined || createdAt === '') return undefined;
	const at = Date.parse(createdAt);
	if (Number.isNaN(at))
		return `"Created At" is "${createdAt}", which is not a time (use ISO, as Create outputs it)`;
	if (at > now + CLOCK_SKEW_MS) return `"Created At" is ${createdAt}, which lies in the future`;
	return undefined;
}

/**
 * The task a create answer starts: its id, and its first status where the answer says one
 * (queued otherwise); nothing else is known yet.
 */
export function createdTask(
	family: FamilyId,
	taskId: string,
	body: unknown,
	context: ParseContext,
	first: { status?: TaskStatus; rawStatus?: string | null; endpoint?: string } = {},
): ParsedTask {
	return {
		task: normalizedTask(
			{
				family,
				taskId,
				...(first.endpoint !== undefined ? { endpoint: first.endpoint } : {}),
				status: first.status ?? 'queued',
				rawStatus: first.rawStatus ?? null,
				progress: null,
				videoUrls: [],
				lastFrameUrl: null,
				error: null,
				raw: body,
			},
			context,
		),
		inlineVideos: [],
	};
}

/** Fails loudly when a create answer carries no task id: nothing could ever be queried. */
export function requireTaskId(id: string | undefined, family: FamilyId, body: unknown): string {
	if (id) return id;
	throw new Error(
		`The gateway accepted the ${family} create request but its answer has no task id: ${JSON.stringify(body).slice(0, 300)}`,
	);
}

/** The parse context for a callback: whatever the receiver knows, the rest empty. */
export function callbackContext(context?: Partial<ParseContext>): ParseContext {
	return {
		model: context?.model ?? null,
		endpoint: context?.endpoint ?? null,
		traceId: context?.traceId ?? null,
		createdAt: context?.createdAt ?? null,
	};
}

export function encodePathSegment(value: string): string {
	return encodeURIComponent(value.trim());
}

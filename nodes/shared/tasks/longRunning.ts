import { base64ByteLength } from '../media/base64Text';
import { storedMediaOf } from '../streams/jsonMediaStream';
import type { InlineVideo, ParseContext, ParsedTask, TaskFamily, TaskStatus } from './task';
import {
	asRecord,
	distinctUrls,
	encodePathSegment,
	normalizedTask,
	requireTaskId,
	taskAnswerFailures,
	taskError,
	text,
} from './task';

/**
 * Long-running operations, wire half: creation answers {name}; GET
 * /v1/models/{model}/operations/{task_id} → {name, done, response | error}. There is no
 * status word: `done` and the presence of `error` / videos decide. Finished videos come back
 * as inline bytes.
 */

const NAME_PATTERN = /^models\/([^/]+)\/operations\/([^/]+)$/;

/** The normalized status of an operation. A done operation with no videos failed (safety filter). */
export function longRunningStatus(operation: unknown): {
	status: TaskStatus;
	rawStatus: string | null;
} {
	const record = asRecord(operation);
	if (!record || typeof record.done !== 'boolean') return { status: 'unknown', rawStatus: null };
	if (!record.done) {
		// No status word exists; metadata may carry one we cannot interpret (see upstream notes).
		const state = text(asRecord(record.metadata)?.state);
		return { status: state ? 'unknown' : 'running', rawStatus: state ?? 'done=false' };
	}
	if (record.error) return { status: 'failed', rawStatus: 'done=true' };
	const videos = asRecord(record.response)?.videos;
	return {
		status: Array.isArray(videos) && videos.length > 0 ? 'succeeded' : 'failed',
		rawStatus: 'done=true',
	};
}

/** Splits `models/<model>/operations/<id>`; a bare id is returned as it is. */
export function splitOperationName(name: string): { model?: string; taskId: string } {
	const match = NAME_PATTERN.exec(name.trim());
	return match ? { model: match[1], taskId: match[2] } : { taskId: name.trim() };
}

function filteredMessage(response: Record<string, unknown>): string {
	const reasons = response.raiMediaFilteredReasons;
	const detail =
		Array.isArray(reasons) && reasons.length > 0 ? `: ${reasons.map(String).join('; ')}` : '';
	return `The operation finished without any video (probably removed by the safety filter)${detail}`;
}

const INLINE_VIDEO_FIELD = 'bytesBase64Encoded';

/** What stands in the raw JSON for inline bytes that travel as binary data. */
function storedBytesNote(byteLength: number): string {
	return `[${byteLength} bytes, stored as binary data]`;
}

/**
 * Takes the base64 bytes out of the body: they become binary data, not a huge JSON string.
 * When the answer was read as a stream they are stored already (`storedMedia`).
 */
function withoutInlineBytes(
	body: unknown,
	storedMedia: ParseContext['storedMedia'] = [],
): {
	raw: unknown;
	inlineVideos: InlineVideo[];
	urls: string[];
} {
	const record = asRecord(body);
	const response = asRecord(record?.response);
	if (!record || !response || !Array.isArray(response.videos))
		return { raw: body, inlineVideos: [], urls: [] };
	const inlineVideos: InlineVideo[] = [];
	const urls: unknown[] = [];
	const videos = response.videos.map((entry: unknown) => {
		const video = asRecord(entry);
		if (!video) return entry;
		const { [INLINE_VIDEO_FIELD]: bytesBase64Encoded, ...rest } = video;
		urls.push(video.uri, video.gcsUri, video.url);
		if (typeof bytesBase64Encoded !== 'string') return video;
		const mimeType = text(video.mimeType) ?? 'video/mp4';
		const stored = storedMediaOf(bytesBase64Encoded, storedMedia);
		inlineVideos.push(
			stored ? { binary: stored.stored, mimeType } : { base64: bytesBase64Encoded, mimeType },
		);
		return {
			...rest,
			[INLINE_VIDEO_FIELD]: storedBytesNote(
				stored ? stored.byteLength : base64ByteLength(bytesBase64Encoded),
			),
		};
	});
	return {
		raw: { ...record, response: { ...response, videos } },
		inlineVideos,
		urls: distinctUrls(urls),
	};
}

function parseOperation(body: unknown, context: ParseContext): ParsedTask {
	const record = asRecord(body) ?? {};
	const name = splitOperationName(text(record.name) ?? '');
	const { status, rawStatus } = longRunningStatus(body);
	const { raw, inlineVideos, urls } = withoutInlineBytes(body, context.storedMedia);
	const response = asRecord(record.response) ?? {};
	let error = status === 'failed' ? taskError(record.error, 'operation_failed') : null;
	if (status === 'failed' && !error)
		error = { code: 'no_videos', message: filteredMessage(response) };
	return {
		task: normalizedTask(
			{
				family: 'longRunning',
				taskId: name.taskId,
				model: name.model ?? context.model,
				status,
				rawStatus,
				progress: null,
				videoUrls: urls,
				lastFrameUrl: null,
				error,
				raw,
			},
			context,
		),
		inlineVideos: status === 'succeeded' ? inlineVideos : [],
	};
}

export const longRunningFamily: TaskFamily = {
	id: 'longRunning',
	displayName: 'Long-Running Operation',
	parseCreateResponse(body, context) {
		const name = text(asRecord(body)?.name);
		requireTaskId(name, 'longRunning', body);
		const parsed = parseOperation(body, context);
		// A fresh operation without `done` has not started reporting yet.
		if (parsed.task.status === 'unknown' && parsed.task.rawStatus === null) {
			parsed.task = { ...parsed.task, status: 'queued' };
		}
		return parsed;
	},
	// An operation names itself; one still running may leave `done` out, a finished one has it
	// (with its `error`, if it failed).
	answerFailure: taskAnswerFailures({ create: ['name'], query: ['name', 'done'] }),
	inlineMediaKeys: [INLINE_VIDEO_FIELD],
	buildQueryRequest(reference) {
		const split = splitOperationName(reference.taskId);
		const model = split.model ?? reference.model ?? '';
		if (model.trim() === '')
			throw new Error('A long-running operation needs its model to be queried');
		return {
			method: 'GET',
			path: `/v1/models/${encodePathSegment(model)}/operations/${encodePathSegment(split.taskId)}`,
		};
	},
	parseTaskRecord: parseOperation,
	pollPolicy: {
		firstPollAfterMs: 10_000,
		minIntervalMs: 10_000,
		enforcedByGateway: false,
		guidance: 'The upstream recommends polling every 10 seconds.',
	},
	// No callback is documented for this family.
	recognizeCallback: () => undefined,
};

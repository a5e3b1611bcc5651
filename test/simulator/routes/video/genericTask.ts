import { unixSeconds } from '../../ids';
import { MAGIC, UNKNOWN_STATUS_WORD } from '../../magic';
import type { SimState } from '../../state';
import { isTerminal, statusChangedAt, type SimTask, type TaskStatus } from '../../tasks';
import { numberField, recordField, stringField, type JsonObject } from '../../validate';
import { failureMessage, resultUrls } from './videoTasks';

/**
 * The generic video task view served by GET /v1/videos/{id} for the generic family,
 * Family B and Family C (and by Family B's create call). Each family keeps its own
 * status words; the result URL is always the top-level `video_url`.
 */

type StatusWords = Record<TaskStatus, string>;

const GENERIC_WORDS: StatusWords = {
	queued: 'queued',
	running: 'in_progress',
	succeeded: 'completed',
	failed: 'failed',
	unknown: UNKNOWN_STATUS_WORD,
};
/** Family B upstream words; FINISH plus a non-null `error` is the failure. */
const UPSTREAM_WORDS: StatusWords = {
	queued: 'WAITING',
	running: 'PROCESSING',
	succeeded: 'FINISH',
	failed: 'FINISH',
	unknown: UNKNOWN_STATUS_WORD,
};
const FAMILY_C_WORDS: StatusWords = {
	queued: 'queueing',
	running: 'processing',
	succeeded: 'success',
	failed: 'failed',
	unknown: UNKNOWN_STATUS_WORD,
};

const RESULT_LIFETIME_SECONDS = 24 * 60 * 60;
const RUNNING_PROGRESS = 50;

function statusWordsOf(task: SimTask): StatusWords {
	if (task.family === 'familyC') return FAMILY_C_WORDS;
	if (task.family === 'familyB' && task.model.includes(MAGIC.upstreamCase)) return UPSTREAM_WORDS;
	return GENERIC_WORDS;
}

export function videoTaskView(state: SimState, task: SimTask, status: TaskStatus): JsonObject {
	const word = statusWordsOf(task)[status];
	const terminal = isTerminal(status);
	const finishedAt = unixSeconds(statusChangedAt(task, status));
	const { seconds, size } = videoShape(task);
	const view: JsonObject = {
		id: task.id,
		// The second id given at creation (generic task_..., B/C upstream numeric id).
		task_id: task.aliases[1] ?? task.id,
		object: 'video',
		model: task.model,
		status: word,
		progress: status === 'running' ? RUNNING_PROGRESS : terminal ? 100 : 0,
		created_at: unixSeconds(task.createdAt),
		completed_at: terminal ? finishedAt : null,
		expires_at: status === 'succeeded' ? finishedAt + RESULT_LIFETIME_SECONDS : null,
		seconds,
		size,
		error:
			status === 'failed' ? { code: 'generation_failed', message: failureMessage(task) } : null,
		metadata: task.family === 'generic' ? (recordField(task.request, 'metadata') ?? {}) : {},
		remixed_from_video_id: null,
	};
	const urls = resultUrls(state, task);
	if (status === 'succeeded') view.video_url = urls.video;
	if (task.family === 'familyC') {
		view.state = word;
		view.creations =
			status === 'succeeded'
				? [{ id: `${task.id}-0`, url: urls.video, cover_url: urls.lastFrame }]
				: [];
	}
	return view;
}

const PIXELS_BY_RESOLUTION: Record<string, string> = {
	'480p': '854x480',
	'540p': '960x540',
	'720p': '1280x720',
	'768p': '1366x768',
	'1080p': '1920x1080',
};

function pixels(resolution: string | undefined, fallback: string): string {
	if (resolution === undefined) return fallback;
	if (/^\d+x\d+$/.test(resolution)) return resolution;
	return PIXELS_BY_RESOLUTION[resolution.toLowerCase()] ?? fallback;
}

function videoShape(task: SimTask): { seconds: string; size: string } {
	const request = task.request;
	switch (task.family) {
		case 'familyB': {
			const output = recordField(request, 'OutputConfig') ?? {};
			return {
				seconds: String(numberField(output, 'Duration') ?? 5),
				size: pixels(stringField(output, 'Resolution'), '1280x720'),
			};
		}
		case 'familyC': {
			const duration = request.duration;
			return {
				seconds:
					typeof duration === 'number' || typeof duration === 'string' ? String(duration) : '5',
				size: pixels(
					stringField(request, 'resolution') ?? stringField(request, 'size'),
					'1280x720',
				),
			};
		}
		default:
			return {
				seconds: String(numberField(request, 'duration') ?? 6),
				size: pixels(stringField(request, 'size') ?? '768p', '1366x768'),
			};
	}
}

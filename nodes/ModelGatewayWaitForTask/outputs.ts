import type {
	IBinaryKeyData,
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
} from 'n8n-workflow';

import { downloadToBinary } from '../shared/media/download';
import { isRetryableDownloadFailure } from '../shared/media/downloadFailure';
import type { NormalizedTask } from '../shared/tasks';
import { taskItem, videoBinaryProperty } from '../shared/tasks/taskItem';
import { PENDING_TASKS, type WaitEntry } from './entries';

/**
 * The shortest wait Still Running asks for. n8n's Wait node keeps a wait under 65,000 ms in
 * memory (lost on a restart) and measures it from its own clock reading, taken after it computed
 * the resume time: a wait of exactly 65 s can come out 64,999 ms. 5 s of margin keeps every
 * wait of the loop in the database.
 */
export const DURABLE_WAIT_SECONDS = 70;

export interface OutputSettings {
	downloadResult: boolean;
	binaryPropertyName: string;
}

function iso(epochMs: number | undefined): string | null {
	return epochMs === undefined ? null : new Date(epochMs).toISOString();
}

function waitedSeconds(entry: WaitEntry, now: number): number {
	return Math.max(0, Math.round((now - entry.waitStartedAt) / 1000));
}

/**
 * A finished, failed or timed-out task: the normalized task plus `waitedSeconds` (this task's
 * own wait, until `now`: when it settled or timed out), `polls` and `lastCheckedAt`, which the
 * next reader of the task honours.
 */
export async function taskOutputItem(
	context: IExecuteFunctions,
	entry: WaitEntry,
	now: number,
	settings: OutputSettings,
): Promise<INodeExecutionData> {
	// The normalized task and any inline video bytes, exactly as Get Status outputs them.
	const item = await taskItem(
		context,
		{ task: entry.task, inlineVideos: entry.latest?.inlineVideos ?? [] },
		entry.inputIndex,
		settings.binaryPropertyName,
	);
	item.json.waitedSeconds = waitedSeconds(entry, now);
	item.json.polls = entry.polls;
	item.json.lastCheckedAt = iso(entry.lastCheckedAt);
	Object.assign(item.json, checkFailureFields(entry));
	if (settings.downloadResult) {
		await addDownloadedVideos(context, item, entry.task, entry.inputIndex, settings);
	}
	return item;
}

/**
 * Downloads a succeeded task's videos into the item's binary data, after what it holds already
 * (inline videos). A failed download keeps the item (the task succeeded and was billed) and says
 * why in `downloadError`, and in `downloadRetryable` whether a later run may well get the file
 * (the file host failed for a moment) or cannot (an expired link, a refused URL). Used for tasks
 * this node checked and for finished tasks handed to it (a callback, a hand-on from another
 * workflow), which are not queried again.
 */
export async function addDownloadedVideos(
	context: IExecuteFunctions,
	item: INodeExecutionData,
	task: Pick<NormalizedTask, 'status' | 'taskId' | 'videoUrls'>,
	itemIndex: number,
	settings: OutputSettings,
): Promise<void> {
	if (task.status !== 'succeeded') return;
	// An item fed back to try again carries the last run's verdict: this run's replaces it.
	delete item.json.downloadError;
	delete item.json.downloadRetryable;
	const binary: IBinaryKeyData = { ...item.binary };
	const base = settings.binaryPropertyName;
	const taskId = task.taskId || 'video';
	const offset = Object.keys(binary).length;
	for (const [index, url] of (task.videoUrls ?? []).entries()) {
		try {
			binary[videoBinaryProperty(base, offset + index)] = await downloadToBinary(context, url, {
				fileNameBase: `${taskId}${offset + index === 0 ? '' : `_${offset + index}`}`,
				what: `the video of task ${task.taskId}`,
				itemIndex,
				fallbackMimeType: 'video/mp4',
			});
		} catch (error) {
			// The task succeeded and was billed: keep it, and say why its file is missing.
			item.json.downloadError = (error as Error).message;
			item.json.downloadRetryable = isRetryableDownloadFailure(error);
		}
	}
	if (Object.keys(binary).length > 0) item.binary = binary;
}

/**
 * A task whose last checks failed (a proxy's refusal, a 5xx) says so: how many in a row, and
 * why the last one told nothing. Absent once a check gets the task's record.
 */
function checkFailureFields(entry: WaitEntry): IDataObject {
	if (entry.failuresInRow === 0) return {};
	return {
		failedChecksInRow: entry.failuresInRow,
		lastCheckError: entry.lastCheckError ?? null,
	};
}

function withoutRaw(task: WaitEntry['task']): INodeExecutionData['json'] {
	const json = { ...(task as unknown as INodeExecutionData['json']) };
	delete json.raw;
	return json;
}

/** Still Running, packed into one item so a loop's run data grows with the batch, not with each task. */
export function stillRunningItem(entries: WaitEntry[], now: number): INodeExecutionData {
	const ordered = [...entries].sort((a, b) => a.inputIndex - b.inputIndex);
	const nextCheckAt = Math.min(...ordered.map((entry) => entry.dueAt));
	return {
		json: {
			pendingCount: ordered.length,
			nextCheckAt: iso(nextCheckAt),
			nextCheckInSeconds: Math.max(DURABLE_WAIT_SECONDS, Math.ceil((nextCheckAt - now) / 1000)),
			// Without `raw`: a loop stores this item on every pass, and the next check brings a
			// fresh record anyway (about 0.4 KB per pending task instead of 1–2 KB).
			[PENDING_TASKS]: ordered.map((entry) => ({
				...withoutRaw(entry.task),
				waitedSeconds: waitedSeconds(entry, now),
				polls: entry.polls,
				waitStartedAt: iso(entry.waitStartedAt),
				lastCheckedAt: iso(entry.lastCheckedAt),
				nextCheckAt: iso(entry.dueAt),
				...checkFailureFields(entry),
			})),
		},
		pairedItem: [...new Set(ordered.map((entry) => entry.inputIndex))].map((item) => ({ item })),
	};
}

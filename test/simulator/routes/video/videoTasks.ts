import { PNG_FILE, resultMp4 } from '../../files';
import { MAGIC } from '../../magic';
import type { SimState } from '../../state';
import type { FamilyId, SimTask, TaskStatus } from '../../tasks';
import type { JsonObject } from '../../validate';

export interface NewVideoTask {
	family: FamilyId;
	variant?: string;
	id: string;
	/** Other ids the task answers to (its canonical id is always included). */
	otherIds?: string[];
	model: string;
	prompt: string;
	request: JsonObject;
	/** Where to POST status changes, with the family's callback body. */
	callback?: { url: string; body: (task: SimTask, status: TaskStatus) => unknown };
}

/**
 * Creates a task of any family: outcome and unknown-status flag come from magic words in
 * the prompt or model name; result files are registered at once (only linked when done).
 */
export function createVideoTask(state: SimState, init: NewVideoTask): SimTask {
	const magicText = `${init.prompt} ${init.model}`;
	const task: SimTask = {
		id: init.id,
		aliases: [init.id, ...(init.otherIds ?? [])],
		family: init.family,
		variant: init.variant ?? '',
		model: init.model,
		prompt: init.prompt,
		request: init.request,
		createdAt: Date.now() - state.options.taskAgeMs,
		queuedMs: state.options.queuedMs,
		runningMs: state.options.runningMs,
		outcome: magicText.includes(MAGIC.fail) ? 'failed' : 'succeeded',
		reportsUnknownStatus: magicText.includes(MAGIC.unknownStatus),
	};
	// Made on each download, not kept: each task's bytes are the same every time.
	const { resultVideoBytes } = state.options;
	const video = () => resultMp4(resultVideoBytes, task.id);
	state.files.put(`${task.id}.mp4`, video);
	state.files.put(`${task.id}-watermark.mp4`, video);
	state.files.put(`${task.id}-last.png`, PNG_FILE);
	const callback = init.callback;
	state.tasks.add(
		task,
		callback
			? (status) => {
					state.callbacks.send(callback.url, callback.body(task, status));
				}
			: undefined,
	);
	return task;
}

export interface ResultUrls {
	video: string;
	watermarkedVideo: string;
	lastFrame: string;
}

export function resultUrls(state: SimState, task: SimTask): ResultUrls {
	return {
		video: state.fileUrl(`${task.id}.mp4`),
		watermarkedVideo: state.fileUrl(`${task.id}-watermark.mp4`),
		lastFrame: state.fileUrl(`${task.id}-last.png`),
	};
}

export function failureMessage(task: SimTask): string {
	return `video generation failed for task ${task.id}`;
}

/** Looks up a task of one of the given families. */
export function findTask(
	state: SimState,
	id: string,
	families: readonly FamilyId[],
): SimTask | undefined {
	const task = state.tasks.find(id);
	return task !== undefined && families.includes(task.family) ? task : undefined;
}

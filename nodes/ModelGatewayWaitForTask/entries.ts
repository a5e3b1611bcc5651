import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { firstDueAt, minGapMs, type PollRule } from '../shared/polling/timing';
import { nextQueryAllowedAt } from '../shared/tasks/query';
import type { ScheduledTask } from '../shared/polling/scheduler';
import {
	FAMILY_IDS,
	createdAtProblem,
	isDone,
	isFamilyId,
	taskFamily,
	type FamilyId,
	type NormalizedTask,
	type ParsedTask,
	type TaskReference,
	type TaskStatus,
} from '../shared/tasks';

/**
 * What Wait for Task knows about each task it follows: where it came from (for pairing and
 * order), how to query it, what it last said, and the bookkeeping carried from pass to pass
 * of a "Check Once and Route" loop.
 */

export interface WaitEntry extends ScheduledTask {
	inputIndex: number;
	reference: TaskReference;
	rule: PollRule;
	/** Epoch ms of creation, or of the first time this node saw the task when unknown. */
	createdAtMs: number;
	waitStartedAt: number;
	lastCheckedAt?: number;
	polls: number;
	/** The task as last known (from the input, then from each query). */
	task: NormalizedTask;
	latest?: ParsedTask;
	/**
	 * Failed checks in a row (5xx, dropped connections, refusals by something that is not the
	 * gateway), carried from pass to pass as `failedChecksInRow` so the back-off keeps growing.
	 */
	failuresInRow: number;
	/** Why the last check told nothing about the task, while failuresInRow > 0. */
	lastCheckError?: string;
}

/** The packed form of Still Running: one item carries every pending task. */
export const PENDING_TASKS = 'pendingTasks';

/** The output keys of a task's failed checks in a row (see checkFailureFields in outputs.ts). */
export const CHECK_FAILURE_KEYS = ['failedChecksInRow', 'lastCheckError'] as const;

const STATUSES: TaskStatus[] = ['queued', 'running', 'succeeded', 'failed', 'unknown'];

function parameterText(context: IExecuteFunctions, name: string, itemIndex: number): string {
	const value = context.getNodeParameter(name, itemIndex, '') as unknown;
	if (typeof value === 'string') return value.trim();
	if (typeof value === 'number') return String(value);
	return '';
}

function optionalText(value: unknown): string | null {
	return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function epochMs(value: string | null | undefined): number | undefined {
	if (!value) return undefined;
	const parsed = Date.parse(value);
	return Number.isNaN(parsed) ? undefined : parsed;
}

/** The last-known task of an item: the normalized task it carries, or one built from the reference. */
function knownTask(json: IDataObject, reference: TaskReference): NormalizedTask {
	const status = STATUSES.includes(json.status as TaskStatus)
		? (json.status as TaskStatus)
		: 'unknown';
	const carried = json.family === reference.family && json.taskId === reference.taskId;
	const base: NormalizedTask = {
		family: reference.family,
		taskId: reference.taskId,
		model: reference.model ?? null,
		status: carried ? status : 'unknown',
		rawStatus: carried ? optionalText(json.rawStatus) : null,
		done: false,
		progress: null,
		videoUrl: null,
		videoUrls: [],
		lastFrameUrl: null,
		error: null,
		createdAt: reference.createdAt ?? null,
		traceId: null,
		usage: null,
		cost: null,
		raw: carried ? (json.raw ?? null) : null,
	};
	if (reference.endpoint) base.endpoint = reference.endpoint;
	if (!carried) return base;
	// The wait's own bookkeeping is added again on the way out, not carried as task fields.
	const carriedFields: IDataObject = { ...json };
	for (const key of [
		'polls',
		'waitedSeconds',
		'waitStartedAt',
		'lastCheckedAt',
		'nextCheckAt',
		...CHECK_FAILURE_KEYS,
	]) {
		delete carriedFields[key];
	}
	return {
		...base,
		...(carriedFields as unknown as Partial<NormalizedTask>),
		done: isDone(status),
	};
}

function referenceError(
	context: IExecuteFunctions,
	itemIndex: number,
	message: string,
): NodeOperationError {
	return new NodeOperationError(context.getNode(), `Item ${itemIndex}: ${message}`, {
		itemIndex,
		description: 'Nothing was sent to the gateway for this item.',
	});
}

function validatedReference(
	context: IExecuteFunctions,
	itemIndex: number,
	fields: {
		family: string;
		taskId: string;
		model: string | null;
		endpoint: string | null;
		createdAt: string | null;
	},
): TaskReference {
	if (!isFamilyId(fields.family)) {
		throw referenceError(
			context,
			itemIndex,
			fields.family === ''
				? '"Family" is empty: connect the output of Model Gateway Video (Create), or set it'
				: `"Family" is "${fields.family}", which is not a task family (one of ${FAMILY_IDS.join(', ')})`,
		);
	}
	if (fields.taskId === '') {
		throw referenceError(context, itemIndex, '"Task ID" is empty');
	}
	const createdAtError = createdAtProblem(fields.createdAt, Date.now());
	if (createdAtError) throw referenceError(context, itemIndex, createdAtError);
	const reference: TaskReference = {
		family: fields.family as FamilyId,
		taskId: fields.taskId,
		model: fields.model,
		endpoint: fields.endpoint,
		createdAt: fields.createdAt,
	};
	try {
		// A reference the family cannot query (e.g. a missing model) fails now, not mid-wait.
		taskFamily(reference.family).buildQueryRequest(reference);
	} catch (error) {
		throw referenceError(context, itemIndex, (error as Error).message);
	}
	return reference;
}

/** What an item carries of its task's wait from an earlier reader, when it is about that task. */
interface CarriedWait {
	polls?: number;
	waitStartedAt?: number;
	lastCheckedAt?: number;
	/** The next check a pass of this node published for the task (Still Running). */
	nextCheckAt?: number;
	/** Failed checks in a row so far, and why the last one failed. */
	failedChecksInRow?: number;
	lastCheckError?: string;
}

/**
 * When an item says its task was last checked and is next due, and how its last checks failed:
 * every item of its own task.
 */
function carriedCheckTimes(
	json: IDataObject,
): Pick<CarriedWait, 'lastCheckedAt' | 'nextCheckAt' | 'failedChecksInRow' | 'lastCheckError'> {
	const failedChecksInRow = numberField(json.failedChecksInRow);
	return {
		lastCheckedAt: epochMs(optionalText(json.lastCheckedAt)),
		nextCheckAt: epochMs(optionalText(json.nextCheckAt)),
		...(failedChecksInRow !== undefined && failedChecksInRow > 0
			? {
					failedChecksInRow: Math.floor(failedChecksInRow),
					lastCheckError: optionalText(json.lastCheckError) ?? undefined,
				}
			: {}),
	};
}

/**
 * The earliest time a task may be checked, by every rule that holds it back: its family's delay
 * after creation, the gap after its last check (as the item says, and as this process saw it,
 * another reader's included), and the next check a pass of this node published for it. Items
 * coming in and tasks just checked take their due time from here alike, so the nextCheckAt Still
 * Running publishes is the time the next pass uses, never one it checks before.
 */
export function earliestCheckAt(
	task: Pick<WaitEntry, 'reference' | 'rule' | 'createdAtMs' | 'lastCheckedAt'>,
	now: number,
	publishedNextCheckAt?: number,
): number {
	let dueAt = firstDueAt(task.rule, task.createdAtMs, now);
	if (task.lastCheckedAt !== undefined) {
		dueAt = Math.max(dueAt, task.lastCheckedAt + minGapMs(task.rule));
	}
	dueAt = Math.max(dueAt, nextQueryAllowedAt(task.reference) ?? 0);
	return Math.max(dueAt, publishedNextCheckAt ?? 0);
}

function newEntry(
	itemIndex: number,
	reference: TaskReference,
	task: NormalizedTask,
	now: number,
	carried: CarriedWait,
	maxWaitMs: number,
): WaitEntry {
	const rule = taskFamily(reference.family).pollPolicy;
	const waitStartedAt = carried.waitStartedAt ?? now;
	// A created time ahead of ours (a gateway's clock running fast, within createdAtProblem's
	// tolerance) counts as when the wait began, now on a first pass: the family's delays and the
	// wait's timing start there, not minutes from now. Not each pass's own now, which would push a
	// loop's first check back on every pass until our clock caught up.
	const createdAtMs = Math.min(epochMs(reference.createdAt) ?? now, waitStartedAt, now);
	const timing = { reference, rule, createdAtMs, lastCheckedAt: carried.lastCheckedAt };
	return {
		inputIndex: itemIndex,
		reference,
		rule,
		createdAtMs,
		waitStartedAt,
		lastCheckedAt: carried.lastCheckedAt,
		polls: carried.polls ?? 0,
		task,
		failuresInRow: carried.failedChecksInRow ?? 0,
		lastCheckError: carried.lastCheckError,
		dueAt: earliestCheckAt(timing, now, carried.nextCheckAt),
		// Max Wait counts from when waiting for the task began (this node, or the first pass of
		// its loop), or from the task's first allowed check when that is later.
		deadlineAt: Math.max(waitStartedAt, createdAtMs + rule.firstPollAfterMs) + maxWaitMs,
	};
}

function numberField(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A task that arrived already finished (e.g. from the callback trigger): no query needed. */
export function isFinishedTaskItem(json: IDataObject): boolean {
	return (
		json.done === true &&
		(json.status === 'succeeded' || json.status === 'failed') &&
		isFamilyId(json.family)
	);
}

/**
 * The task an item names, as its parameters give it: what a refused item (bad family, time,
 * endpoint) carries on Failed under Continue On Fail, so the row it came from can be found.
 */
export function namedTask(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const named: IDataObject = {};
	for (const name of ['family', 'taskId'] as const) {
		try {
			const text = parameterText(context, name, itemIndex);
			if (text !== '') named[name] = text;
		} catch {
			// A parameter whose expression fails names nothing; the item's error says why.
		}
	}
	return named;
}

/** Entries of one input item: one per task, or several when it is a packed Still Running item. */
export function entriesOf(
	context: IExecuteFunctions,
	item: INodeExecutionData,
	itemIndex: number,
	now: number,
	maxWaitMs: number,
): WaitEntry[] {
	const pending = item.json[PENDING_TASKS];
	if (Array.isArray(pending)) {
		return pending.map((value) => {
			const json = (value ?? {}) as IDataObject;
			const reference = validatedReference(context, itemIndex, {
				family: String(json.family ?? ''),
				taskId: optionalText(json.taskId) ?? '',
				model: optionalText(json.model),
				endpoint: optionalText(json.endpoint),
				createdAt: optionalText(json.createdAt),
			});
			return newEntry(
				itemIndex,
				reference,
				knownTask(json, reference),
				now,
				{
					polls: numberField(json.polls),
					waitStartedAt: epochMs(optionalText(json.waitStartedAt)),
					...carriedCheckTimes(json),
				},
				maxWaitMs,
			);
		});
	}
	const reference = validatedReference(context, itemIndex, {
		family: parameterText(context, 'family', itemIndex),
		taskId: parameterText(context, 'taskId', itemIndex),
		model: parameterText(context, 'model', itemIndex) || null,
		endpoint: parameterText(context, 'endpoint', itemIndex) || null,
		createdAt: parameterText(context, 'createdAt', itemIndex) || null,
	});
	// A task item from an earlier reader says when it was last checked (Timed Out, Get Status)
	// and, one of Still Running's tasks on its own (a Split Out), when it is next due.
	const ownItem = item.json.family === reference.family && item.json.taskId === reference.taskId;
	return [
		newEntry(
			itemIndex,
			reference,
			knownTask(item.json, reference),
			now,
			ownItem ? carriedCheckTimes(item.json) : {},
			maxWaitMs,
		),
	];
}

import type { IDataObject } from 'n8n-workflow';

import type { TaskStatus } from '../shared/tasks';

/**
 * Which events this trigger has already seen, kept in the node's static data so it survives
 * restarts. n8n reads static data fresh for every production webhook call and writes it back
 * whole afterwards (last writer wins), so two copies of one event arriving at the same moment
 * can both pass: this is best effort, and the README gives the exactly-once recipe.
 *
 * Bounded: at most `capacity` tasks are remembered, the least recently heard-of are forgotten
 * first. About 60 bytes per task, so the default 1,000 tasks keep the saved data near 60 KB.
 */

export const DEFAULT_MEMORY_CAPACITY = 1000;
export const MAX_MEMORY_CAPACITY = 10_000;

/** Where an event stands in the lifecycle; an event ranked below one already seen is stale. */
const RANK: Record<TaskStatus, number> = {
	queued: 0,
	unknown: 1,
	running: 1,
	succeeded: 2,
	failed: 2,
};

export interface EventKey {
	family: string;
	taskId: string;
	status: TaskStatus;
	/** The gateway's own word: unknown statuses are told apart by it. */
	rawStatus: string | null;
}

export type Verdict = 'new' | 'duplicate' | 'stale';

/** Per task: the highest rank seen and the statuses already seen. Short keys keep it small. */
interface TaskMemory {
	r: number;
	s: string[];
}

interface StoredMemory extends IDataObject {
	tasks: Record<string, TaskMemory>;
}

function statusWord(event: EventKey): string {
	return event.status === 'unknown' ? `unknown:${event.rawStatus ?? ''}` : event.status;
}

/**
 * Judges an event against memory and records it. `duplicate`: this status of this task was
 * seen before. `stale`: the task already reached a later stage (a `running` after `succeeded`).
 * Only `new` events may start the workflow; all three are remembered unless `record` is false
 * (a look before an unconfirmed claim is checked).
 */
export function judgeEvent(
	staticData: IDataObject,
	event: EventKey,
	capacity = DEFAULT_MEMORY_CAPACITY,
	record = true,
): Verdict {
	const memory = storedMemory(staticData);
	const key = `${event.family}:${event.taskId}`;
	const known = memory.tasks[key];
	const word = statusWord(event);
	const rank = RANK[event.status];
	let verdict: Verdict = 'new';
	if (known?.s.includes(word)) verdict = 'duplicate';
	else if (known && rank < known.r) verdict = 'stale';
	if (!record) return verdict;

	const updated: TaskMemory = {
		r: Math.max(rank, known?.r ?? 0),
		s: known ? (known.s.includes(word) ? known.s : [...known.s, word]) : [word],
	};
	// Re-inserting moves the task to the end: insertion order is recency order.
	delete memory.tasks[key];
	memory.tasks[key] = updated;
	forgetOldest(memory, capacity);
	return verdict;
}

function storedMemory(staticData: IDataObject): StoredMemory {
	const stored = staticData.callbackMemory as StoredMemory | undefined;
	if (stored && typeof stored.tasks === 'object' && stored.tasks !== null) return stored;
	const fresh: StoredMemory = { tasks: {} };
	staticData.callbackMemory = fresh;
	return fresh;
}

function forgetOldest(memory: StoredMemory, capacity: number): void {
	const bound = Math.min(Math.max(1, Math.floor(capacity)), MAX_MEMORY_CAPACITY);
	const keys = Object.keys(memory.tasks);
	for (let index = 0; index < keys.length - bound; index++) delete memory.tasks[keys[index]];
}

/** How many tasks are remembered (for tests and the README's bound). */
export function rememberedTaskCount(staticData: IDataObject): number {
	return Object.keys(storedMemory(staticData).tasks).length;
}

/**
 * The same memory held in this process, per workflow and trigger node. Static data is loaded
 * and saved around each call, so two copies of an event arriving together both see the old
 * state; this copy is judged and updated without a pause in between, so within one n8n
 * process (not across several webhook processes) such copies are told apart exactly.
 * Bounded like the static memory, and to `MAX_PROCESS_MEMORIES` triggers.
 */
const MAX_PROCESS_MEMORIES = 100;
const processMemories = new Map<string, IDataObject>();

export function processMemory(triggerKey: string): IDataObject {
	let memory = processMemories.get(triggerKey);
	if (!memory) {
		memory = {};
		processMemories.set(triggerKey, memory);
		if (processMemories.size > MAX_PROCESS_MEMORIES) {
			const oldest = processMemories.keys().next().value;
			if (oldest !== undefined) processMemories.delete(oldest);
		}
	}
	return memory;
}

/** Judges an event against several memories (each is recorded); the first objection wins. */
export function judgeEventIn(
	memories: IDataObject[],
	event: EventKey,
	capacity = DEFAULT_MEMORY_CAPACITY,
	record = true,
): Verdict {
	let verdict: Verdict = 'new';
	for (const memory of memories) {
		const judged = judgeEvent(memory, event, capacity, record);
		if (verdict === 'new') verdict = judged;
	}
	return verdict;
}

import type { IDataObject } from 'n8n-workflow';

import type { TaskStatus } from '../shared/tasks';

/**
 * Which events this trigger has already seen, kept in the node's static data so it survives
 * restarts. Production calls are judged in this process's memory (see `productionMemory`),
 * which is exact on one n8n process; several webhook processes each have their own, and share
 * only what the last save wrote: there the README gives the exactly-once recipe.
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
 * The memory a production callback is judged in: this process's own, per workflow and trigger
 * node. It is judged and updated without a pause, so copies of an event arriving together are
 * told apart exactly (within one n8n process, not across several webhook processes).
 *
 * It also survives restarts. n8n loads a workflow's static data for each webhook call and saves
 * it whole after answering, so calls that overlap would overwrite each other's entries (last
 * writer wins). Instead, every call links this process's memory into its static data: a save
 * serializes the memory as it is at that moment, so no save carries an older snapshot than an
 * earlier one. After a restart, the first call seeds the memory from what was saved.
 *
 * Bounded like the static memory, and to `MAX_PROCESS_MEMORIES` triggers.
 */
const MAX_PROCESS_MEMORIES = 100;
const processMemories = new Map<string, IDataObject>();

export function productionMemory(staticData: IDataObject, triggerKey: string): IDataObject {
	let memory = processMemories.get(triggerKey);
	if (!memory) {
		// A plain copy of what n8n loaded: its objects are n8n's change-tracking proxies.
		const saved = staticData.callbackMemory as StoredMemory | undefined;
		memory =
			saved && typeof saved.tasks === 'object' && saved.tasks !== null
				? { callbackMemory: JSON.parse(JSON.stringify(saved)) as StoredMemory }
				: {};
		processMemories.set(triggerKey, memory);
		if (processMemories.size > MAX_PROCESS_MEMORIES) {
			const oldest = processMemories.keys().next().value;
			if (oldest !== undefined) processMemories.delete(oldest);
		}
	}
	staticData.callbackMemory = storedMemory(memory);
	return memory;
}

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

/** One task: the highest rank seen, the status words seen, and its saved form. */
interface TaskMemory {
	rank: number;
	words: string[];
	/** `JSON.stringify([key, ...words])`, kept so a save does not encode every task again. */
	saved: string;
}

/**
 * How the memory is saved: one string per task, least recently heard-of first. n8n loads a
 * workflow's static data for every webhook call and wraps every object in it in a change
 * tracker; a flat list of strings costs one object where an object per task cost two (measured:
 * bench/taskTrigger.bench.ts).
 */
interface SavedMemory {
	format: 2;
	tasks: string[];
}

/** What 0.2.0 saved: per task key, the highest rank and the status words. */
interface SavedMemoryV1 {
	tasks: Record<string, { r: number; s: string[] }>;
}

function statusWord(event: EventKey): string {
	return event.status === 'unknown' ? `unknown:${event.rawStatus ?? ''}` : event.status;
}

function rankOfWord(word: string): number {
	return word.startsWith('unknown:') ? RANK.unknown : (RANK[word as TaskStatus] ?? RANK.unknown);
}

function taskMemory(key: string, words: string[], rank?: number): TaskMemory {
	return {
		rank: rank ?? Math.max(...words.map(rankOfWord)),
		words,
		saved: JSON.stringify([key, ...words]),
	};
}

/**
 * The events seen, per task, in recency order. It enters static data as itself and is saved
 * through `toJSON` as it is at the moment of the save. n8n's change tracker wraps every object
 * it finds in static data in a Proxy, in place (again for the execution a call starts): the
 * state is in a private field, which the tracker cannot reach into, and `toJSON` is a closure
 * over the instance, because a private field cannot be read through a Proxy.
 */
export class EventMemory {
	readonly #tasks = new Map<string, TaskMemory>();

	declare readonly toJSON: () => SavedMemory;

	constructor() {
		Object.defineProperty(this, 'toJSON', {
			value: (): SavedMemory => ({
				format: 2,
				tasks: Array.from(this.#tasks.values(), (task) => task.saved),
			}),
		});
	}

	/** Reads what a save wrote (this version's form or 0.2.0's); anything else is an empty memory. */
	static fromSaved(saved: unknown): EventMemory {
		const memory = new EventMemory();
		if (saved === null || typeof saved !== 'object') return memory;
		const { tasks } = saved as Partial<SavedMemory> | Partial<SavedMemoryV1>;
		if (Array.isArray(tasks)) {
			for (const entry of tasks) {
				try {
					const [key, ...words] = JSON.parse(String(entry)) as unknown[];
					if (typeof key === 'string' && words.length > 0)
						memory.#tasks.set(key, taskMemory(key, words.map(String)));
				} catch {
					// A damaged entry is forgotten, the rest still counts.
				}
			}
		} else if (tasks !== null && typeof tasks === 'object') {
			for (const [key, known] of Object.entries(tasks)) {
				if (Array.isArray(known?.s) && known.s.length > 0)
					memory.#tasks.set(key, taskMemory(key, known.s.map(String), Number(known.r) || 0));
			}
		}
		return memory;
	}

	/**
	 * Judges an event and records it. `duplicate`: this status of this task was seen before.
	 * `stale`: the task already reached a later stage (a `running` after `succeeded`). Only
	 * `new` events may start the workflow; all three are remembered unless `record` is false (a
	 * look before an unconfirmed claim is checked).
	 */
	judge(event: EventKey, capacity = DEFAULT_MEMORY_CAPACITY, record = true): Verdict {
		const key = `${event.family}:${event.taskId}`;
		const known = this.#tasks.get(key);
		const word = statusWord(event);
		const rank = RANK[event.status];
		let verdict: Verdict = 'new';
		if (known?.words.includes(word)) verdict = 'duplicate';
		else if (known && rank < known.rank) verdict = 'stale';
		if (!record) return verdict;

		const updated =
			known && verdict === 'duplicate'
				? known
				: taskMemory(
						key,
						known ? [...known.words, word] : [word],
						Math.max(rank, known?.rank ?? 0),
					);
		// Re-inserting moves the task to the end: insertion order is recency order.
		this.#tasks.delete(key);
		this.#tasks.set(key, updated);
		const bound = Math.min(Math.max(1, Math.floor(capacity)), MAX_MEMORY_CAPACITY);
		for (const oldest of this.#tasks.keys()) {
			if (this.#tasks.size <= bound) break;
			this.#tasks.delete(oldest);
		}
		return verdict;
	}

	/** How many tasks are remembered (for tests and the README's bound). */
	get size(): number {
		return this.#tasks.size;
	}
}

/** The static data key the memory is saved under (a public contract: saved workflows carry it). */
export const MEMORY_KEY = 'callbackMemory';

/**
 * The memory a call is judged in. Test calls (manual mode): read from static data, which n8n
 * does not keep between them. Production calls: this process's own, per workflow and trigger
 * node, judged and updated without a pause, so copies of an event arriving together are told
 * apart exactly (within one n8n process, not across several webhook processes); after a
 * restart it is seeded from what was saved.
 *
 * Bounded like each memory, and to `MAX_PROCESS_MEMORIES` triggers.
 */
const MAX_PROCESS_MEMORIES = 100;
const processMemories = new Map<string, EventMemory>();

export function callMemory(staticData: IDataObject, triggerKey: string | undefined): EventMemory {
	if (triggerKey === undefined) return EventMemory.fromSaved(staticData[MEMORY_KEY]);
	let memory = processMemories.get(triggerKey);
	if (!memory) {
		memory = EventMemory.fromSaved(staticData[MEMORY_KEY]);
		processMemories.set(triggerKey, memory);
		if (processMemories.size > MAX_PROCESS_MEMORIES) {
			const oldest = processMemories.keys().next().value;
			if (oldest !== undefined) processMemories.delete(oldest);
		}
	}
	return memory;
}

/**
 * Links the memory into the call's static data, so n8n saves it after answering. Called only by
 * calls that start an execution: what must survive a restart is what started one (a replayed
 * final must not start a second); every other call leaves static data untouched, and n8n then
 * saves nothing for it.
 *
 * n8n loads static data for each call and saves it whole, so overlapping calls would overwrite
 * each other's entries (last writer wins). Linking the process memory itself, not a copy,
 * means a save serializes the memory as it is at that moment: no save carries an older
 * snapshot than an earlier one.
 */
export function keepMemory(staticData: IDataObject, memory: EventMemory): void {
	staticData[MEMORY_KEY] = memory as unknown as IDataObject;
}

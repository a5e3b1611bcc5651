import type { CallbackSender } from './callbacks';
import type { FileStore } from './files';
import type { TaskTable } from './tasks';
import type { Timers } from './timers';
import type { ResolvedOptions, Violation } from './types';

/** A stored response, for previous_response_id chaining. */
export interface StoredResponse {
	id: string;
	inputText: string;
	outputText: string;
}

/** What route modules share. `options` is live: setOptions() changes it in place. */
export interface SimState {
	readonly options: ResolvedOptions;
	readonly tasks: TaskTable;
	readonly files: FileStore;
	readonly callbacks: CallbackSender;
	/** Task lifecycles and delayed reviews; cancelled on reset() and close(). */
	readonly lifecycleTimers: Timers;
	readonly storedResponses: Map<string, StoredResponse>;
	/** Spec rules a client broke; shared with the Simulator object. */
	readonly violations: Violation[];
	/** Absolute URL of a simulator-served file, using publicHost. */
	fileUrl(name: string): string;
}

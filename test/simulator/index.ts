/**
 * The Model Gateway simulator: a local HTTP server implementing the whole gateway API
 * (both hosts), for tests and the "try it" command. See README.md beside this file.
 */
export { startSimulator, DEFAULT_OPTIONS } from './simulator';
export { closedPortUrl } from './faults';
export { MAGIC, UNKNOWN_STATUS_WORD } from './magic';
export { VIOLATION_RULES } from './types';
export type {
	CallbackRecord,
	Fault,
	RecordedRequest,
	Simulator,
	SimulatorOptions,
	Violation,
	ViolationRule,
} from './types';

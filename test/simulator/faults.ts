import { createServer } from 'node:net';
import type { Fault } from './types';

export const REFUSE_HINT =
	"A 'refuse' fault cannot be injected: the simulator's port is listening, so connections are always accepted. " +
	'For "connection refused", point the client at closedPortUrl() (or at a simulator after close()).';

interface PendingFault {
	fault: Fault;
	remaining: number;
}

/** Injected faults, matched in order and consumed one use at a time. */
export class FaultQueue {
	private readonly pending: PendingFault[] = [];

	add(fault: Fault): void {
		if (fault.kind === 'refuse') throw new Error(REFUSE_HINT);
		const times = fault.times ?? 1;
		if (!Number.isInteger(times) || times < 1)
			throw new Error(`fault.times must be a positive integer, got ${times}`);
		this.pending.push({ fault, remaining: times });
	}

	/** The first fault matching this request, with one use consumed; undefined when none matches. */
	take(method: string, path: string): Fault | undefined {
		const index = this.pending.findIndex(({ fault }) => matchesFault(fault, method, path));
		if (index < 0) return undefined;
		const entry = this.pending[index];
		entry.remaining -= 1;
		if (entry.remaining === 0) this.pending.splice(index, 1);
		return entry.fault;
	}

	clear(): void {
		this.pending.length = 0;
	}
}

function matchesFault(fault: Fault, method: string, path: string): boolean {
	if (fault.method !== undefined && fault.method !== '*' && fault.method.toUpperCase() !== method)
		return false;
	return matchesPath(fault.path, path);
}

/** undefined matches everything; a string matches as a prefix; a RegExp is tested. */
export function matchesPath(pattern: string | RegExp | undefined, path: string): boolean {
	if (pattern === undefined) return true;
	if (typeof pattern === 'string') return path.startsWith(pattern);
	pattern.lastIndex = 0; // a /g or /y pattern would otherwise remember its last match
	return pattern.test(path);
}

/**
 * A URL on 127.0.0.1 where nothing listens, for "connection refused" tests: binds a free
 * port, releases it and returns its address. (Another process could grab the port in
 * between; on a test machine that is vanishingly rare.)
 */
export function closedPortUrl(): Promise<string> {
	return new Promise((resolve, reject) => {
		const probe = createServer();
		probe.once('error', reject);
		probe.listen(0, '127.0.0.1', () => {
			const address = probe.address();
			const port = typeof address === 'object' && address !== null ? address.port : 0;
			probe.close(() => resolve(`http://127.0.0.1:${port}`));
		});
	});
}

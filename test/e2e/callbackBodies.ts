/**
 * Real callback bodies for load tests of the Task Callback Trigger: Task family S tasks are
 * created on the simulator with a capture receiver as their callback URL, and the bodies the
 * simulator sends are kept in the order they were sent (queued, running, the final state twice; the
 * stale "running" the simulator replays after the final is left out). Used by the trigger's
 * restart e2e test and by the callbacks benchmark (bench/taskTrigger.bench.ts).
 */
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { Simulator } from '../simulator';

/** Runs `work` over `values` with at most `limit` in flight; results in the values' order. */
export async function inFlight<T, R>(
	limit: number,
	values: T[],
	work: (value: T, index: number) => Promise<R>,
): Promise<R[]> {
	const results: R[] = new Array<R>(values.length);
	let next = 0;
	const worker = async () => {
		while (next < values.length) {
			const index = next++;
			results[index] = await work(values[index], index);
		}
	};
	await Promise.all(Array.from({ length: limit }, worker));
	return results;
}

/** A receiver for the simulator's callbacks: answers each 204 (the bodies are the simulator's record). */
async function startCaptureReceiver(): Promise<{ url: string; close: () => Promise<void> }> {
	const server = createHttpServer((request, response) => {
		request.resume();
		request.on('end', () => response.writeHead(204).end());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/capture`,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

const sentTo = (sim: Simulator, url: string) =>
	sim.callbacks.filter((callback) => callback.url === url);

export const callbackStatus = (body: unknown): string =>
	String((body as { status?: unknown }).status);
export const callbackTaskId = (body: unknown): string => String((body as { id?: unknown }).id);

/**
 * Creates `tasks` Task family S tasks (8 creates in flight) and returns their callbacks: four per
 * task (queued, running, final, the repeated final) in the order the simulator sent them.
 * Throws when the simulator did not send them all within three minutes.
 */
export async function captureTaskCallbacks(sim: Simulator, tasks: number): Promise<unknown[]> {
	const capture = await startCaptureReceiver();
	let bodies: unknown[] = [];
	try {
		await inFlight(
			8,
			Array.from({ length: tasks }, (_, index) => index),
			async (index) => {
				const response = await fetch(`${sim.baseUrl}/v1/task/create`, {
					method: 'POST',
					headers: { authorization: `Bearer ${sim.apiKey}`, 'content-type': 'application/json' },
					body: JSON.stringify({
						model: 'video-s-1',
						content: [{ type: 'text', text: `callback load ${index}` }],
						callback_url: capture.url,
					}),
				});
				if (response.status !== 200)
					throw new Error(`the simulator answered a create with ${response.status}`);
			},
		);
		// The bodies the simulator sent (what the receiver got may be short of them on a busy
		// machine, where the simulator gives up on a slow answer): five per task, every one settled.
		const deadline = Date.now() + 180_000;
		while (
			(sentTo(sim, capture.url).length < tasks * 5 ||
				sentTo(sim, capture.url).some((sent) => sent.status === undefined && !sent.error)) &&
			Date.now() < deadline
		) {
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
		bodies = sentTo(sim, capture.url).map((sent) => sent.body);
	} finally {
		await capture.close();
	}
	// The stale running left out: four per task, in the order they were sent.
	const seen = new Set<string>();
	const callbacks = bodies.filter((body) => {
		const key = `${callbackTaskId(body)}/${callbackStatus(body)}`;
		const stale = callbackStatus(body) === 'running' && seen.has(key);
		seen.add(key);
		return !stale;
	});
	if (callbacks.length !== tasks * 4)
		throw new Error(`expected ${tasks * 4} callbacks, the simulator sent ${callbacks.length}`);
	return callbacks;
}

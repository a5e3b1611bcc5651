/**
 * Real callback bodies for load tests of the Task Callback Trigger: Task family S tasks are
 * created on the simulator with a capture receiver as their callback URL, and the bodies the
 * simulator sends are kept in the order they came (queued, running, the final state twice; the
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

/** A receiver that keeps every callback body the simulator sends (answering 204). */
async function startCaptureReceiver(): Promise<{
	url: string;
	bodies: unknown[];
	close: () => Promise<void>;
}> {
	const bodies: unknown[] = [];
	const server = createHttpServer((request, response) => {
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
			response.writeHead(204).end();
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: `http://127.0.0.1:${port}/capture`,
		bodies,
		close: () => new Promise<void>((resolve) => server.close(() => resolve())),
	};
}

export const callbackStatus = (body: unknown): string =>
	String((body as { status?: unknown }).status);
export const callbackTaskId = (body: unknown): string => String((body as { id?: unknown }).id);

/**
 * Creates `tasks` Task family S tasks (8 creates in flight) and returns their callbacks: four per
 * task (queued, running, final, the repeated final) in the order the simulator sent them.
 * Throws when the simulator did not send them all within a minute.
 */
export async function captureTaskCallbacks(sim: Simulator, tasks: number): Promise<unknown[]> {
	const capture = await startCaptureReceiver();
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
		const deadline = Date.now() + 60_000;
		while (capture.bodies.length < tasks * 5 && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
	} finally {
		await capture.close();
	}
	// The stale running left out: four per task, in the order they came.
	const seen = new Set<string>();
	const callbacks = capture.bodies.filter((body) => {
		const key = `${callbackTaskId(body)}/${callbackStatus(body)}`;
		const stale = callbackStatus(body) === 'running' && seen.has(key);
		seen.add(key);
		return !stale;
	});
	if (callbacks.length !== tasks * 4)
		throw new Error(`expected ${tasks * 4} callbacks, the simulator sent ${callbacks.length}`);
	return callbacks;
}

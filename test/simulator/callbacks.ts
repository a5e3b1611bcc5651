import {
	request as httpRequest,
	type ClientRequest,
	type IncomingMessage,
	type RequestOptions,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { CallbackRecord } from './types';

const CALLBACK_TIMEOUT_MS = 5000;

/**
 * Sends task callbacks (POST JSON) and records each one. Delivery failures are recorded,
 * never thrown: a receiver being down must not crash the simulator.
 */
export class CallbackSender {
	/** Pushed when sending starts; status or error is filled in when delivery settles. */
	readonly sent: CallbackRecord[] = [];
	private readonly inFlight = new Set<AbortController>();

	/** `onAnswered` gets the receiver's HTTP status, when it answers. */
	send(url: string, body: unknown, onAnswered?: (status: number) => void): void {
		const record: CallbackRecord = { url, body, at: Date.now() };
		this.sent.push(record);
		const controller = new AbortController();
		this.inFlight.add(controller);
		postJson(url, body, controller.signal)
			.then(
				(status) => {
					record.status = status;
					onAnswered?.(status);
				},
				(error: unknown) => {
					record.error = error instanceof Error ? error.message : String(error);
				},
			)
			.finally(() => this.inFlight.delete(controller));
	}

	/** Aborts deliveries still in flight (on reset and close). */
	cancelAll(): void {
		for (const controller of this.inFlight) controller.abort();
		this.inFlight.clear();
	}

	clear(): void {
		this.cancelAll();
		this.sent.length = 0;
	}
}

function postJson(url: string, body: unknown, signal: AbortSignal): Promise<number> {
	return new Promise((resolve, reject) => {
		let target: URL;
		try {
			target = new URL(url);
		} catch {
			reject(new Error(`invalid callback URL: ${url}`));
			return;
		}
		const send:
			| ((
					url: URL,
					options: RequestOptions,
					onResponse: (res: IncomingMessage) => void,
			  ) => ClientRequest)
			| undefined =
			target.protocol === 'http:'
				? httpRequest
				: target.protocol === 'https:'
					? httpsRequest
					: undefined;
		if (send === undefined) {
			reject(new Error(`unsupported callback protocol: ${target.protocol}`));
			return;
		}
		const payload = Buffer.from(JSON.stringify(body));
		// agent:false: no pooled keep-alive sockets left behind after close().
		const request = send(
			target,
			{
				method: 'POST',
				agent: false,
				signal,
				timeout: CALLBACK_TIMEOUT_MS,
				headers: {
					'content-type': 'application/json',
					'content-length': payload.length,
					'user-agent': 'model-gateway-simulator',
				},
			},
			(response) => {
				response.resume();
				response.on('end', () => resolve(response.statusCode ?? 0));
				response.on('error', reject);
			},
		);
		request.on('timeout', () => request.destroy(new Error('callback timed out')));
		request.on('error', reject);
		request.end(payload);
	});
}

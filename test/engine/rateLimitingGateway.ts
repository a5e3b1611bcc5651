import { createServer, request as httpRequest, type Server } from 'node:http';

/**
 * A stricter gateway for rate-limit tests: a proxy in front of the simulator that answers
 * every `every`-th request with 429 (and `retry-after-ms`) without passing it on, and
 * forwards all others. The simulator's own log then holds exactly the accepted requests.
 */
export interface RateLimitingGateway {
	baseUrl: string;
	/** Arrival time of every request, and whether it was refused with 429. */
	arrivals: Array<{ at: number; limited: boolean }>;
	close(): Promise<void>;
}

export async function startRateLimitingGateway(
	target: string,
	options: { every: number; retryAfterMs: number },
): Promise<RateLimitingGateway> {
	const arrivals: RateLimitingGateway['arrivals'] = [];
	const server: Server = createServer((req, res) => {
		const limited = (arrivals.length + 1) % options.every === 0;
		arrivals.push({ at: Date.now(), limited });
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			if (limited) {
				res.writeHead(429, {
					'content-type': 'application/json',
					'retry-after-ms': String(options.retryAfterMs),
				});
				res.end(JSON.stringify({ error: { message: 'rate limit reached', type: 'rate_limit' } }));
				return;
			}
			const upstream = httpRequest(
				new URL(req.url ?? '/', target),
				{ method: req.method, headers: req.headers },
				(answer) => {
					res.writeHead(answer.statusCode ?? 502, answer.headers);
					answer.pipe(res);
				},
			);
			upstream.on('error', () => res.destroy());
			upstream.end(Buffer.concat(chunks));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	const port = typeof address === 'object' && address !== null ? address.port : 0;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		arrivals,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

import { startProxyGateway } from './proxyGateway';

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
	const proxy = await startProxyGateway(target, (arrival) =>
		arrival % options.every === 0
			? {
					status: 429,
					headers: { 'retry-after-ms': String(options.retryAfterMs) },
					body: { error: { message: 'rate limit reached', type: 'rate_limit' } },
				}
			: undefined,
	);
	return {
		baseUrl: proxy.baseUrl,
		get arrivals() {
			return proxy.arrivals.map(({ at, intercepted }) => ({ at, limited: intercepted }));
		},
		close: proxy.close,
	};
}

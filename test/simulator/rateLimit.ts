import type { ResolvedOptions } from './types';

const WINDOW_MS = 1000;

/**
 * Rate-limit mode (off by default): every Nth gateway request, or any request beyond a
 * budget per rolling second, is refused. Read live from the options, so tests, benchmarks
 * and try-it can switch it on and off while running.
 */
export class RateLimiter {
	private counted = 0;
	private readonly acceptedAt: number[] = [];

	constructor(private readonly options: ResolvedOptions) {}

	/** Undefined when the request may pass; otherwise how long the client should wait, in ms. */
	check(now: number): number | undefined {
		const { rateLimitEvery, rateLimitPerSecond, rateLimitRetryAfterMs } = this.options;
		if (rateLimitEvery > 0) {
			this.counted += 1;
			if (this.counted % rateLimitEvery === 0) return rateLimitRetryAfterMs;
		}
		if (rateLimitPerSecond > 0) {
			while (this.acceptedAt.length > 0 && this.acceptedAt[0] <= now - WINDOW_MS)
				this.acceptedAt.shift();
			if (this.acceptedAt.length >= rateLimitPerSecond) return this.acceptedAt[0] + WINDOW_MS - now;
			this.acceptedAt.push(now);
		}
		return undefined;
	}

	reset(): void {
		this.counted = 0;
		this.acceptedAt.length = 0;
	}
}

/** The headers of a rate-limited answer: seconds (rounded up) and the exact milliseconds. */
export function retryAfterHeaders(waitMs: number): Record<string, string> {
	return {
		'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
		'retry-after-ms': String(Math.max(0, Math.round(waitMs))),
	};
}

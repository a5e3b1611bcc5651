/**
 * Jest's fake Date with every timer real: HTTP, n8n's engine and the simulator run as usual,
 * and a test moves the clock (jest.setSystemTime) between a loop's passes instead of sleeping.
 */
const REAL_TIMERS = [
	'hrtime',
	'nextTick',
	'performance',
	'queueMicrotask',
	'setImmediate',
	'clearImmediate',
	'setInterval',
	'clearInterval',
	'setTimeout',
	'clearTimeout',
] as const;

/** From now on Date is the test's, standing still at the current time until it is set. */
export function useFakeDate(): void {
	jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], now: Date.now() });
}

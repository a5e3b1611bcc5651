/** Real-n8n end-to-end suite (test/e2e). Run through scripts/e2e/run.sh, which installs n8n first. */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	// One n8n at a time: starting one is CPU-heavy (2 cores), and the lines run one after the other.
	maxWorkers: 1,
	// Starting n8n (imports + boot) takes 10–30 s; hooks and tests get generous, bounded time.
	testTimeout: 180000,
	slowTestThreshold: 60,
};

/** Real-n8n end-to-end suite (test/e2e). Run through scripts/e2e/run.sh, which installs n8n first. */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	// One file at a time per stream: scripts/e2e/run.sh runs a stream per n8n line (and the browser
	// check) side by side; more n8n starts at once than that crowd 2 cores.
	maxWorkers: 1,
	// Starting n8n (imports + boot) takes 10–30 s; hooks and tests get generous, bounded time.
	testTimeout: 180000,
	slowTestThreshold: 60,
};

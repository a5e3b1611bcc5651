/** Unit and in-process engine tests. The real-n8n end-to-end suite has its own config. */
module.exports = {
	preset: 'ts-jest',
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	testPathIgnorePatterns: ['/node_modules/', '/test/e2e/'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.test.json' }] },
	setupFiles: ['<rootDir>/test/setup-env.ts'],
	setupFilesAfterEnv: ['<rootDir>/test/setup-after-env.ts'],
	testTimeout: 30000,
	// Both cores (jest's default is one worker less than the cores: 1 on 2 cores, 133 s instead of
	// 55 s). Many engine tests wait on real timers; more workers than cores measured slower.
	maxWorkers: '100%',
	// Only with --coverage (scripts/test-all.sh, so `npm test`): branch coverage of the package's
	// own code may not fall below 90 %. It costs `npx jest --ci` about 15-20 s of CPU.
	collectCoverageFrom: ['nodes/**/*.ts', 'credentials/**/*.ts'],
	coverageReporters: ['text-summary', 'json-summary'],
	coverageThreshold: { global: { branches: 90 } },
};

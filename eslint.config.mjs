// n8n's own community-node lint rules (the config `n8n-node lint` uses), applied to the
// package source. Test code is type-checked by tsc but is not node code, so it is not
// held to the node rules.
import { config } from '@n8n/node-cli/eslint';

export default [
	{
		ignores: [
			'dist/**',
			'.build/**',
			'test/**',
			'scripts/**',
			'bench/**',
			'examples/**',
			'gulpfile.js',
			'index.js',
			'jest.config.js',
			'coverage/**',
		],
	},
	...config,
];

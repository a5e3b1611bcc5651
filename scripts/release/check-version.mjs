#!/usr/bin/env node
// Refuses a release whose names disagree: the tag (v1.2.3), package.json's version and the
// newest CHANGELOG heading (## 1.2.3 — <date>) must all be the same version, and that heading
// must carry a release date, not "unreleased". The publish workflow runs it on the pushed tag;
// `npm test` runs it on the version package.json names.
//
//   node scripts/release/check-version.mjs v0.2.0
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const tag = process.argv[2] ?? '';
const { version } = JSON.parse(readFileSync(`${root}/package.json`, 'utf8'));
const heading = readFileSync(`${root}/CHANGELOG.md`, 'utf8').match(/^## (\S+)(.*)$/m);
const problems = [];
if (tag !== `v${version}`) problems.push(`the tag "${tag}" is not v${version} (package.json)`);
if (!heading) problems.push('CHANGELOG.md has no "## <version>" heading');
else {
	if (heading[1] !== version)
		problems.push(`the newest CHANGELOG heading is ${heading[1]}, package.json says ${version}`);
	if (!/\d{4}-\d\d-\d\d/.test(heading[2]))
		problems.push(`the CHANGELOG heading for ${heading[1]} has no release date ("${heading[0]}")`);
}
if (problems.length > 0) {
	console.error(problems.map((problem) => `✗ ${problem}`).join('\n'));
	process.exit(1);
}
console.log(`release names agree: ${tag}, package.json ${version}, CHANGELOG "${heading[0]}"`);

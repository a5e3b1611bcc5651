#!/usr/bin/env node
// The package as n8n gets it, checked before it ships (part of `npm test`; run after the build):
//
// 1. The packed tarball (`npm pack`) holds every file n8n loads (the nodes and credentials
//    listed in package.json's "n8n" section, their icons and codex files, what they require)
//    and nothing else (no sources, tests, maps or declarations). Its size is printed.
// 2. n8n's verification scanner, `@n8n/scan-community-package`, run the way n8n runs it: its
//    own analyser (ESLint with n8n's community and nodes-base rules, inline configuration off)
//    on the source tree (package.json, nodes/ and credentials/) and on the unpacked tarball
//    (its compiled .js and package.json). The legs that need the network (the provenance
//    check and the download of the published version) cannot run offline.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
	analyzePackage,
	SOURCE_FILE_PATTERNS,
} from '@n8n/scan-community-package/scanner/scanner.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const problems = [];

function filesUnder(dir) {
	return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
		const path = join(dir, entry.name);
		return entry.isDirectory() ? filesUnder(path) : [path];
	});
}

if (!existsSync(join(root, 'dist'))) {
	console.error('dist/ is missing: run the build first');
	process.exit(1);
}

// 1. The tarball.
const work = mkdtempSync(join(tmpdir(), 'mg-package-'));
try {
	const [packed] = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
			cwd: root,
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
		}),
	);
	const shipped = new Set(packed.files.map((file) => file.path));

	// What n8n loads: the listed nodes and credentials, and beside them their icons and codex files.
	const expected = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
	for (const source of filesUnder(join(root, 'nodes')).concat(
		filesUnder(join(root, 'credentials')),
	)) {
		const path = relative(root, source);
		if (/\.(svg|png)$/.test(path) || /\.node\.json$/.test(path)) expected.push(`dist/${path}`);
	}
	for (const path of expected) {
		if (!shipped.has(path)) problems.push(`missing from the tarball: ${path}`);
	}
	// Every compiled module the listed ones require is shipped (dist/ holds only what tsc built
	// from nodes/ and credentials/), and no kind of file n8n does not load.
	const allowed = (path) =>
		['package.json', 'README.md', 'LICENSE.md', 'CHANGELOG.md', 'index.js'].includes(path) ||
		/^dist\/(nodes|credentials)\/.+\.(js|json|svg|png)$/.test(path) ||
		path === 'dist/package.json';
	for (const path of shipped) {
		if (!allowed(path)) problems.push(`shipped but not loaded by n8n: ${path}`);
	}
	for (const file of filesUnder(join(root, 'dist'))) {
		const path = relative(root, file);
		if (path.endsWith('.js') && !shipped.has(path)) problems.push(`built but not shipped: ${path}`);
	}
	console.log(
		`package: ${packed.filename}, ${packed.entryCount} files, ${(packed.size / 1024).toFixed(1)} KiB packed, ${(packed.unpackedSize / 1024).toFixed(1)} KiB unpacked`,
	);

	// 2. n8n's scanner, both offline legs.
	const unpacked = join(work, 'unpacked');
	mkdirSync(unpacked);
	execFileSync('tar', [
		'-xzf',
		join(work, packed.filename),
		'-C',
		unpacked,
		'--strip-components=1',
	]);
	const legs = [
		['source tree', root, SOURCE_FILE_PATTERNS],
		['packed tarball', unpacked, ['**/*.js', 'package.json']],
	];
	for (const [name, dir, patterns] of legs) {
		const result = await analyzePackage(dir, patterns);
		if (result.passed) {
			console.log(`scan-community-package, ${name}: passed`);
		} else {
			problems.push(`scan-community-package, ${name}: ${result.message}\n${result.details ?? ''}`);
		}
	}
} finally {
	rmSync(work, { recursive: true, force: true });
}

if (problems.length > 0) {
	console.error(problems.map((problem) => `✗ ${problem}`).join('\n'));
	process.exit(1);
}
console.log('package check passed');

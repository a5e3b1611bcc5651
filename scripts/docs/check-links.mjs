#!/usr/bin/env node
// Every link and anchor in the README, the docs and the node documentation links resolves:
// relative links (images too) name files that exist, `#anchors` name a heading of their page
// (GitHub's slugs), and the nodes' and credentials' documentation URLs point at a page of this
// repository (docs/nodes/) and, with an anchor, at one of its headings. Web links are not
// fetched (no network here). Part of `npm test`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
const { homepage } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const pages = [
	'README.md',
	'CHANGELOG.md',
	'examples/README.md',
	'test/simulator/README.md',
	'test/e2e/README.md',
	...readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`),
].filter((page) => existsSync(join(root, page)));

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchorsOf(page) {
	const seen = new Map();
	const anchors = new Set();
	let fenced = false;
	for (const line of readFileSync(join(root, page), 'utf8').split('\n')) {
		if (line.startsWith('```')) fenced = !fenced;
		const heading = !fenced && line.match(/^#{1,6} (.+)$/);
		if (!heading) continue;
		const base = heading[1]
			.trim()
			.toLowerCase()
			.replace(/[`*_]/g, '')
			.replace(/[^\p{L}\p{N} -]/gu, '')
			.replace(/ /g, '-');
		const count = seen.get(base) ?? 0;
		seen.set(base, count + 1);
		anchors.add(count === 0 ? base : `${base}-${count}`);
	}
	return anchors;
}

const problems = [];
let checked = 0;
function checkTarget(from, target) {
	checked++;
	const [path, anchor] = target.split('#');
	const file = path === '' ? from : relative(root, join(root, dirname(from), path));
	if (!existsSync(join(root, file))) {
		problems.push(`${from}: "${target}" names a file that does not exist (${file})`);
		return;
	}
	if (anchor !== undefined && file.endsWith('.md') && !anchorsOf(file).has(anchor)) {
		problems.push(`${from}: "${target}" names no heading of ${file}`);
	}
}

for (const page of pages) {
	let fenced = false;
	for (const line of readFileSync(join(root, page), 'utf8').split('\n')) {
		if (line.startsWith('```')) fenced = !fenced;
		if (fenced) continue;
		for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
			if (/^(https?:|mailto:)/.test(target)) continue;
			checkTarget(page, target);
		}
	}
}

// The editor's documentation links: homepage#anchor (a README heading) or
// homepage/blob/main/<file>#anchor (a file of this repository, e.g. docs/nodes/video.md).
const sources = ['nodes', 'credentials'].flatMap(function walk(dir) {
	return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory()
			? walk(join(dir, entry.name))
			: /\.(ts|json)$/.test(entry.name)
				? [join(dir, entry.name)]
				: [],
	);
});
for (const source of sources) {
	const text = readFileSync(join(root, source), 'utf8');
	for (const [url] of text.matchAll(/https:\/\/github\.com\/[^\s'"`)]+/g)) {
		checked++;
		const [base, anchor] = url.split('#');
		const filePrefix = `${homepage}/blob/main/`;
		const file =
			base === homepage
				? 'README.md'
				: base.startsWith(filePrefix)
					? base.slice(filePrefix.length)
					: undefined;
		if (file === undefined)
			problems.push(
				`${source}: ${url} is not the homepage ${homepage} or a file under ${filePrefix}`,
			);
		else if (!existsSync(join(root, file)))
			problems.push(`${source}: ${url} names a file that does not exist (${file})`);
		else if (anchor && !anchorsOf(file).has(anchor))
			problems.push(`${source}: ${url} names no heading of ${file}`);
	}
}

if (problems.length > 0) {
	console.error(problems.map((problem) => `✗ ${problem}`).join('\n'));
	process.exit(1);
}
console.log(`links: ${checked} links in ${pages.length} pages and the node sources resolve`);

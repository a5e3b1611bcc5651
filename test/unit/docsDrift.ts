import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { INodeProperties, INodePropertyCollection, INodePropertyOptions } from 'n8n-workflow';

/**
 * Drift between the docs and what they describe (issue 55): statements that were true once and
 * went stale unnoticed. Each check reads the pages as text and compares them with the source of
 * truth (the node descriptions, package.json and CHANGELOG.md, the page's own headings).
 */

export const ROOT = join(__dirname, '..', '..');

export const read = (page: string): string => readFileSync(join(ROOT, page), 'utf8');

/**
 * Every page the docs checks cover: the READMEs and everything under docs/ (not the CHANGELOG,
 * whose old versions are history).
 */
export function docPages(): string[] {
	const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
		.filter((name) => name.endsWith('.md'))
		.map((name) => `docs/${name}`);
	return [
		'README.md',
		'examples/README.md',
		'test/e2e/README.md',
		'test/simulator/README.md',
		...docs,
	].sort();
}

/** The page's lines with their numbers (1-based), fenced code left out. */
function proseLines(markdown: string): Array<{ line: number; text: string }> {
	let fenced = false;
	const lines: Array<{ line: number; text: string }> = [];
	markdown.split('\n').forEach((text, index) => {
		if (text.startsWith('```')) fenced = !fenced;
		else if (!fenced) lines.push({ line: index + 1, text });
	});
	return lines;
}

// ---------------------------------------------------------------------------------------------
// Option and parameter names a node page lists, against the node's description.

/** Every displayName of a node's properties: collection options and fixed collections included. */
export function displayNames(properties: INodeProperties[]): Set<string> {
	const names = new Set<string>();
	const visit = (
		entries: ReadonlyArray<INodeProperties | INodePropertyOptions | INodePropertyCollection>,
	) => {
		for (const entry of entries) {
			if ('displayName' in entry) names.add(entry.displayName);
			if ('values' in entry) visit(entry.values);
			if ('options' in entry && Array.isArray(entry.options)) visit(entry.options);
		}
	};
	visit(properties);
	return names;
}

/** Markdown reduced to the words a reader sees: links to their text, no emphasis marks. */
const plain = (text: string) =>
	text
		.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
		.replace(/\*\*?/g, '')
		.trim();

/** Splits at the separator where it stands outside parentheses, brackets and code. */
function splitTopLevel(text: string, separator: string): string[] {
	const parts: string[] = [];
	let depth = 0;
	let code = false;
	let start = 0;
	for (let index = 0; index < text.length; index++) {
		const char = text[index];
		if (char === '`') code = !code;
		else if (!code && (char === '(' || char === '[')) depth++;
		else if (!code && (char === ')' || char === ']')) depth = Math.max(0, depth - 1);
		else if (!code && depth === 0 && text.startsWith(separator, index)) {
			parts.push(text.slice(start, index));
			start = index + separator.length;
		}
	}
	parts.push(text.slice(start));
	return parts.map((part) => part.trim()).filter((part) => part !== '');
}

export interface ListedName {
	line: number;
	/** The entry as the page writes it: the name, maybe followed by a note in parentheses. */
	entry: string;
}

const cells = (row: string) => row.split('|').slice(1, -1).map(plain);
/** "Options → Name" and "Options › Name": the name ends where the sentence or cell goes on. */
const OPTION_ARROW = /Options\*{0,2} ?[→›] ?([^|`,.:;*]+)/g;

/**
 * The option and parameter names a node page lists: the first column of its tables headed
 * "Parameter" or "Option" (an "Options" row lists the options in its second column), the
 * entries of a "- **Options**:" list, and every "Options → Name" in the text.
 */
export function listedNames(markdown: string): ListedName[] {
	const listed: ListedName[] = [];
	const lines = proseLines(markdown);
	let inTable = false;
	for (const [position, { line, text }] of lines.entries()) {
		for (const [, name] of text.matchAll(OPTION_ARROW)) {
			for (const part of name.split(' / ')) listed.push({ line, entry: part.trim() });
		}
		if (/^\| ?(Parameter|Option) ?\|/.test(text)) {
			inTable = true;
			continue;
		}
		if (!text.startsWith('|')) inTable = false;
		if (inTable && !text.startsWith('|--')) {
			const [first, second = ''] = cells(text);
			// "Options → …" rows were read above, with the rest of the text.
			if (first.startsWith('Options ')) continue;
			const entries = first === 'Options' ? splitTopLevel(second, ',') : first.split(/, | \/ /);
			listed.push(...entries.map((entry) => ({ line, entry })));
		}
		const bullet = text.match(/^- \*\*Options\*\*: (.*)$/);
		if (bullet) {
			// The list goes on over the bullet's indented continuation lines.
			let body = bullet[1];
			for (const next of lines.slice(position + 1)) {
				if (!next.text.startsWith('  ')) break;
				body += ` ${next.text.trim()}`;
			}
			listed.push(...splitTopLevel(plain(body), ',').map((entry) => ({ line, entry })));
		}
	}
	return listed;
}

/**
 * Whether an entry names one of the node's fields: the name itself, the name followed by a note
 * in parentheses ("Temperature (0–2)"), or a name ending in parentheses continued inside them
 * ("Tools (JSON, responses format)" for "Tools (JSON)").
 */
function namesField(entry: string, names: ReadonlySet<string>): boolean {
	return [...names].some(
		(name) =>
			entry === name ||
			entry.startsWith(`${name} (`) ||
			(name.endsWith(')') && entry.startsWith(`${name.slice(0, -1)}, `)),
	);
}

/** The listed names the node does not have, as "line N: name". */
export function unknownNames(markdown: string, names: ReadonlySet<string>): string[] {
	return listedNames(markdown)
		.filter(({ entry }) => !namesField(entry, names))
		.map(({ line, entry }) => `line ${line}: "${entry.split(' (')[0]}"`);
}

/** Which node each page documents, as the node reference's table says (page → node type name). */
export function nodePages(referenceTable: string): Map<string, string> {
	const pages = new Map<string, string>();
	for (const [, page, type] of referenceTable.matchAll(
		/^\| \[[^\]]+\]\(([\w-]+\.md)\) \| `(\w+)` \|/gm,
	))
		pages.set(page, type);
	return pages;
}

// ---------------------------------------------------------------------------------------------
// Version and release-date examples, against package.json and the newest CHANGELOG heading.

/** The newest CHANGELOG heading, e.g. "## 0.8.0 — 2026-12-02". */
export function newestRelease(changelog: string): string | undefined {
	return changelog.match(/^## \d+\.\d+\.\d+ — \d{4}-\d\d-\d\d$/m)?.[0];
}

/** "the current version 0.8.0", "0.8.0 (the current version)". */
const CALLED_CURRENT =
	/current (?:package )?version[^.\d]{0,20}(\d+\.\d+\.\d+)|(?<![.\d])(\d+\.\d+\.\d+)[^.\d]{0,10}the current version/gi;

/**
 * Versions a page presents as current: a release heading given as an example (`## 0.2.0 —
 * 2026-11-24`, in code) must be the newest CHANGELOG heading, and a version called "the current
 * version" must be package.json's. Versions named as history ("before 0.6.0") are left alone.
 */
export function staleVersions(markdown: string, version: string, newest: string): string[] {
	const problems: string[] = [];
	for (const { line, text } of proseLines(markdown)) {
		for (const [, heading] of text.matchAll(/`(## \d+\.\d+\.\d+ — [^`]*)`/g)) {
			if (heading !== newest)
				problems.push(`line ${line}: "${heading}" is not the newest CHANGELOG heading "${newest}"`);
		}
		for (const [, before, after] of text.matchAll(CALLED_CURRENT)) {
			const named = before ?? after;
			if (named !== version)
				problems.push(`line ${line}: "${named}" is called current, package.json says ${version}`);
		}
	}
	return problems;
}

// ---------------------------------------------------------------------------------------------
// "see *Heading* below / above": the heading exists on the page, on that side.

/**
 * The page's sections with their lines, as plain lower-case text: its headings, and the bold
 * words that open a paragraph or a list item ("**What bounds a burst.**", "- **Creates**:"),
 * which these pages use as small sections.
 */
function headings(markdown: string): Array<{ line: number; text: string }> {
	return proseLines(markdown)
		.map(({ line, text }) => ({
			line,
			heading: (text.match(/^#{1,6} (.+)$/) ?? text.match(/^(?:- )?\*\*([^*]+?)[.:]?\*\*/))?.[1],
		}))
		.filter((entry): entry is { line: number; heading: string } => entry.heading !== undefined)
		.map(({ line, heading }) => ({ line, text: plain(heading).replace(/`/g, '').toLowerCase() }));
}

/**
 * Every "*Some Heading* below" and "*Some Heading* above" (the emphasis may break across a
 * line): a section of the page must begin with those words, on the side the text says.
 */
export function wrongSectionReferences(markdown: string): string[] {
	const problems: string[] = [];
	const all = headings(markdown);
	const prose = proseLines(markdown);
	const text = prose.map((entry) => entry.text).join('\n');
	const lineAt = (offset: number) => prose[text.slice(0, offset).split('\n').length - 1].line;
	for (const match of text.matchAll(/(?<![*\w])\*([^*\n]+(?:\n[^*\n]+)?)\*\s+(below|above)\b/g)) {
		const words = match[1].replace(/\s+/g, ' ').replace(/`/g, '').trim().toLowerCase();
		const line = lineAt(match.index);
		const named = all.filter(
			(heading) => heading.text === words || heading.text.startsWith(`${words} `),
		);
		const side = match[2];
		if (named.length === 0)
			problems.push(`line ${line}: "*${match[1]}* ${side}" names no section of the page`);
		else if (
			!named.some((heading) => (side === 'below' ? heading.line > line : heading.line < line))
		)
			problems.push(
				`line ${line}: "*${match[1]}* ${side}": the heading is ${side === 'below' ? 'above' : 'below'} (line ${named[0].line})`,
			);
	}
	return problems;
}

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The user docs stay short enough to read (issue 55): the README, the examples' README and every
 * page under docs/ have a word limit, and the pages a newcomer reads first have no over-long
 * sentence and no over-long table cell.
 *
 * How this test counts, on the Markdown text:
 * - Fenced code blocks (``` … ```) are left out; so are HTML comments.
 * - Inline code (`like this`, whatever it holds) is one word.
 * - A link or an image counts its text only: `[the text](url)` is "the text"; a bare URL is left
 *   out.
 * - A word is anything between spaces that holds a letter or a digit: "|", "---", "→" and "—" are
 *   no words.
 * - A table cell is what lies between two "|" of a table row (a line starting with "|"); the row
 *   of dashes under the header is no row.
 * - A sentence is the text of one block (a paragraph, a list item, a heading, a table cell) cut
 *   after ".", "!" or "?" followed by a space or the block's end. Colons and semicolons do not cut.
 */

const ROOT = join(__dirname, '..', '..');

/** Words per page at most; docs/**\/*.md not listed here: DOCS_PAGE_LIMIT. */
const PAGE_LIMITS: Record<string, number> = {
	'README.md': 1200,
	'examples/README.md': 1800,
};
const DOCS_PAGE_LIMIT = 3000;
/**
 * Pages over the limit that this session could not shorten (another session owned them), with
 * their words when the exception was written: shorten them and remove them from here.
 */
const OVER_THE_LIMIT_FOR_NOW: Record<string, number> = {};

/** The pages where no sentence may pass SENTENCE_LIMIT words and no cell CELL_LIMIT. */
const SHORT_SENTENCE_PAGES = [
	'README.md',
	'examples/README.md',
	'docs/running-at-scale.md',
	'docs/data-table-videos.md',
	'docs/before-you-publish.md',
	'docs/how-it-is-measured.md',
	'docs/performance.md',
	'docs/performance-per-item.md',
	'docs/performance-callbacks.md',
	'docs/performance-bursts.md',
	'docs/performance-video-tasks.md',
	'docs/performance-agent.md',
	'docs/performance-pipeline.md',
];
const SENTENCE_LIMIT = 50;
const CELL_LIMIT = 60;

/** The text as this test reads it: no fenced code, no comments, code and links made plain. */
export function plainText(markdown: string): string {
	const lines: string[] = [];
	let fenced = false;
	for (const line of markdown.split('\n')) {
		// Fenced lines become empty lines, so that line numbers stay the page's.
		if (/^\s*```/.test(line)) {
			fenced = !fenced;
			lines.push('');
		} else lines.push(fenced ? '' : line);
	}
	return lines
		.join('\n')
		.replace(/<!--[\s\S]*?-->/g, (comment) => comment.replace(/[^\n]/g, ''))
		.replace(/`[^`\n]+`/g, 'CODE')
		.replace(/!?\[([^\]]*)\]\([^)\s]*\)/g, '$1')
		.replace(/https?:\/\/\S+/g, '');
}

/** The words of `text`: the pieces between spaces that hold a letter or a digit. */
export function wordsOf(text: string): number {
	return text.split(/\s+/).filter((piece) => /[\p{L}\p{N}]/u.test(piece)).length;
}

interface Block {
	kind: 'prose' | 'cell';
	text: string;
	line: number;
}

/** Paragraphs, list items, headings and table cells of plain text, each with its first line. */
export function blocksOf(text: string): Block[] {
	const blocks: Block[] = [];
	let prose: Block | undefined;
	const close = () => {
		if (prose) blocks.push(prose);
		prose = undefined;
	};
	text.split('\n').forEach((line, index) => {
		const number = index + 1;
		const trimmed = line.trim();
		if (trimmed === '') return close();
		if (trimmed.startsWith('|')) {
			close();
			const cells = trimmed
				.replace(/^\||\|$/g, '')
				.split(/(?<!\\)\|/)
				.map((cell) => cell.trim());
			if (cells.every((cell) => /^:?-+:?$/.test(cell))) return;
			for (const cell of cells) blocks.push({ kind: 'cell', text: cell, line: number });
			return;
		}
		if (/^(#{1,6} |[-*+] |\d+\. |>)/.test(trimmed)) close();
		if (prose) prose.text += ` ${trimmed}`;
		else prose = { kind: 'prose', text: trimmed, line: number };
		if (/^#{1,6} /.test(trimmed)) close();
	});
	close();
	return blocks;
}

/** The sentences of one block. */
export function sentencesOf(block: string): string[] {
	return block.split(/(?<=[.!?])\s+/).filter((sentence) => wordsOf(sentence) > 0);
}

interface Finding {
	line: number;
	words: number;
	start: string;
}

/** Sentences over `sentenceLimit` words and cells over `cellLimit`, with their lines. */
export function tooLong(
	markdown: string,
	sentenceLimit = SENTENCE_LIMIT,
	cellLimit = CELL_LIMIT,
): { sentences: Finding[]; cells: Finding[] } {
	const sentences: Finding[] = [];
	const cells: Finding[] = [];
	for (const block of blocksOf(plainText(markdown))) {
		const start = (text: string) => text.split(/\s+/).slice(0, 8).join(' ');
		if (block.kind === 'cell' && wordsOf(block.text) > cellLimit)
			cells.push({ line: block.line, words: wordsOf(block.text), start: start(block.text) });
		for (const sentence of sentencesOf(block.text))
			if (wordsOf(sentence) > sentenceLimit)
				sentences.push({ line: block.line, words: wordsOf(sentence), start: start(sentence) });
	}
	return { sentences, cells };
}

function read(page: string): string {
	return readFileSync(join(ROOT, page), 'utf8');
}

const docsPages = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
	.filter((name) => name.endsWith('.md'))
	.map((name) => `docs/${name.split('\\').join('/')}`)
	.sort();

describe('docs: how long the pages are (issue 55)', () => {
	it.each([...Object.keys(PAGE_LIMITS), ...docsPages])('%s is within its word limit', (page) => {
		const limit = OVER_THE_LIMIT_FOR_NOW[page] ?? PAGE_LIMITS[page] ?? DOCS_PAGE_LIMIT;
		const words = wordsOf(plainText(read(page)));
		if (words > limit)
			throw new Error(
				`${page} has ${words} words, more than ${limit}: shorten it, or split it by what a reader comes for`,
			);
	});

	it('lists no exception that is no longer needed', () => {
		for (const [page, limit] of Object.entries(OVER_THE_LIMIT_FOR_NOW)) {
			expect(docsPages).toContain(page);
			const words = wordsOf(plainText(read(page)));
			// Once a page fits the ordinary limit, its exception goes; it may not grow meanwhile.
			expect({ page, over: words > DOCS_PAGE_LIMIT }).toEqual({ page, over: true });
			expect(words).toBeLessThanOrEqual(limit);
		}
	});

	it.each(SHORT_SENTENCE_PAGES)(
		`%s has no sentence over ${SENTENCE_LIMIT} words and no table cell over ${CELL_LIMIT}`,
		(page) => {
			const { sentences, cells } = tooLong(read(page));
			const lines = [
				...sentences.map((f) => `line ${f.line}: a sentence of ${f.words} words ("${f.start} …")`),
				...cells.map((f) => `line ${f.line}: a table cell of ${f.words} words ("${f.start} …")`),
			];
			if (lines.length) throw new Error(`${page}:\n${lines.join('\n')}`);
		},
	);
});

describe('docs: how the length check counts', () => {
	it('leaves out fenced code and URLs, and counts inline code as one word', () => {
		const page = [
			'Run `npm run try-it --with many words` and read [the guide](https://example.com/a/b).',
			'',
			'```bash',
			'these words do not count at all',
			'```',
			'',
			'| a | b |',
			'| --- | --- |',
			'| one two | three |',
		].join('\n');
		// Run CODE and read the guide. | a b | one two three
		expect(wordsOf(plainText(page))).toBe(11);
	});

	it('fails on a sentence over the limit, and not on two shorter ones', () => {
		const long = `${Array.from({ length: 51 }, (_, i) => `word${i}`).join(' ')}.`;
		expect(tooLong(long).sentences).toEqual([expect.objectContaining({ line: 1, words: 51 })]);
		const split = `${Array.from({ length: 30 }, () => 'word').join(' ')}. ${Array.from({ length: 30 }, () => 'word').join(' ')}.`;
		expect(tooLong(split).sentences).toEqual([]);
		// A list item is a block of its own, and so is every line of a table.
		expect(tooLong(`- ${'a '.repeat(40)}\n- ${'b '.repeat(40)}`).sentences).toEqual([]);
	});

	it('fails on a table cell over the limit', () => {
		const cell = Array.from({ length: 30 }, () => 'one. two').join(' ');
		const table = `| a | b |\n| --- | --- |\n| short | ${cell} |`;
		expect(tooLong(table).cells).toEqual([]);
		expect(tooLong(`| a | b |\n| --- | --- |\n| short | ${cell} three |`).cells).toEqual([
			expect.objectContaining({ line: 3, words: 61 }),
		]);
	});
});

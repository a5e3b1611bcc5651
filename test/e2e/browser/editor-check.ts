/**
 * Browser check of the n8n editor: starts real n8n (each line in MG_E2E_LINES) with the packed
 * package, opens every node of the package (browser/nodes.ts, once per variant) in headless
 * Chromium, saves a screenshot of each panel into test-results/screenshots/ and fails when a
 * panel shows an error or a parameter that should be hidden (or misses one that should show).
 * On the current release line it also walks README.md's "Try it" list (browser/try-it-walk.ts)
 * on an n8n set up exactly as `npm run try-it` sets it up (startTryIt, ../tryItSetup.ts): each
 * item's workflow opened from the workflows list by the name the README gives, the item's clicks
 * done, the outcome it promises checked (the Echo answer; 20 videos paired with their rows; the
 * mixed sheet ending in the Batch Report; the Data Table batch run from its manual trigger, every
 * `video_batch` row complete, a second run creating nothing; every `video_pipeline` row with its
 * video within the stated minutes). Its mixed-sheet run takes the README's screenshots into
 * test-results/readme-screenshots/, with the panels' and the laned examples'; the check fails
 * when a page references a screenshot under docs/readme/screenshots/ that is missing or that no
 * step takes (it would go stale). Only MG_E2E_UPDATE_DOCS_SCREENSHOTS=1 (`npm run
 * docs:screenshots`) copies the pictures into docs/readme/screenshots/, after a passing check: a
 * test run leaves the tree as it was.
 *
 * Beside the Try-it walk, on an n8n of its own started with n8n's defaults, it walks
 * examples/README.md's steps for examples/video-pipeline-data-table.json (browser/readme-walk.ts):
 * import, credential, folder, publish, then rows through the pipeline. The two walks run side by
 * side (most of their time is waiting for n8n's stored waits and the minute schedule).
 *
 *   bash scripts/e2e/browser-check.sh   (builds, compiles this to .build, runs it)
 *   MG_EDITOR_CHECK_ONLY=readme-walk MG_E2E_LINES=2 bash scripts/e2e/browser-check.sh
 *                                       (only the README walk: no panels, no README screenshots)
 *   MG_EDITOR_CHECK_ONLY=try-it-walk MG_E2E_LINES=2 bash scripts/e2e/browser-check.sh
 *                                       (only the Try-it walk: no panels)
 *
 * Needs Debian's chromium (scripts/e2e/install-browser.sh; MG_E2E_CHROMIUM overrides the path)
 * and the playwright-core devDependency (MG_PLAYWRIGHT_DIR: a folder whose node_modules has it).
 */
import {
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readFileSync,
	readdirSync,
	rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

import { startSimulator } from '../../simulator';
import {
	EXAMPLES_DIR,
	EXAMPLE_CREDENTIALS,
	exampleWorkflowId,
	simulatorCredentials,
} from '../examples';
import {
	N8N_LINES,
	REPO_ROOT,
	loadWorkflow,
	packPackage,
	startN8n,
	type JsonObject,
	type N8nInstance,
	type N8nLine,
	type WorkflowJson,
} from '../harness';
import { EDITOR_CHECK_NODES, type EditorCheckNode, type NodeVariant } from './nodes';
import { VIEWPORT, firstLine, withEditorPage, type Page } from './playwright';
import { checkReadmeWalk } from './readme-walk';
import { checkTryItWalk } from './try-it-walk';

const PACKAGE_NAME = 'n8n-nodes-model-gateway';
const SCREENSHOT_DIR = join(REPO_ROOT, 'test-results', 'screenshots');
const UI_TIMEOUT_MS = 30_000;

/** The n8n line the README's screenshots show: the current release. */
const README_LINE: N8nLine = 2;
/** Where a run takes the README's screenshots: with the others, outside the tracked tree. */
const README_SCREENSHOT_DIR = join(REPO_ROOT, 'test-results', 'readme-screenshots');
/** The pictures the pages show (tracked), changed only on request. */
const DOCS_SCREENSHOT_DIR = join(REPO_ROOT, 'docs', 'readme', 'screenshots');
/** Copy the README's screenshots into DOCS_SCREENSHOT_DIR (`npm run docs:screenshots`). */
const UPDATE_DOCS_SCREENSHOTS = process.env.MG_E2E_UPDATE_DOCS_SCREENSHOTS === '1';
/** The pages whose images are checked: the README and every page under docs/. */
const README_PAGES = [
	'README.md',
	'examples/README.md',
	...readdirSync(join(REPO_ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
		.filter((name) => name.endsWith('.md'))
		.map((name) => join('docs', name)),
];
/**
 * MG_EDITOR_CHECK_ONLY=readme-walk or try-it-walk: only that walk (a quicker run while working
 * on it).
 */
const ONLY = process.env.MG_EDITOR_CHECK_ONLY ?? '';
const ONLY_PARTS = ['readme-walk', 'try-it-walk'];
/** The README images this run took (file names, the same in both folders). */
const readmeScreenshotsTaken = new Set<string>();

/** The examples laid out in lanes (issue 49): examples/README.md shows each as it opens. */
const LANED_EXAMPLES = ['video-pipeline-data-table.json', 'video-data-table-batch.json'];

/** Texts n8n shows on a node panel when something is wrong with the node. */
const PANEL_ERRORS = [
	'Install this node to use it',
	'This node is not currently installed',
	'problem loading parameters',
	'There was a problem loading the parameter options',
	'Could not find property option',
	'Unrecognized node type',
];

function workflowId(node: EditorCheckNode, variant: NodeVariant): string {
	return `editorcheck${node.name}${variant.label}`.replace(/[^A-Za-z0-9]/g, '').slice(0, 36);
}

const NODE_UUID = '0b7e5c1a-7c55-4d1e-9e51-ed1702c4e002';

function checkWorkflow(node: EditorCheckNode, variant: NodeVariant): WorkflowJson {
	const credential = EXAMPLE_CREDENTIALS[node.credential];
	return {
		id: workflowId(node, variant),
		name: `Editor check: ${node.name} (${variant.label})`,
		nodes: [
			...(node.trigger || node.subNode ? [] : [MANUAL_TRIGGER]),
			{
				id: NODE_UUID,
				name: node.title,
				type: `${PACKAGE_NAME}.${node.name}`,
				typeVersion: node.typeVersion,
				position: [240, 0],
				parameters: { ...node.parameters, ...(variant.parameters ?? {}) } as JsonObject,
				credentials: { [credential.type]: { id: credential.id, name: credential.name } },
				...(node.trigger ? { webhookId: WEBHOOK_UUID } : {}),
			},
		],
		connections:
			node.trigger || node.subNode
				? {}
				: { 'Manual Trigger': { main: [[{ node: node.title, type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

const WEBHOOK_UUID = '0b7e5c1a-7c55-4d1e-9e51-ed1702c4e003';
const MANUAL_TRIGGER = {
	id: '0b7e5c1a-7c55-4d1e-9e51-ed1702c4e001',
	name: 'Manual Trigger',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: [0, 0],
	parameters: {},
};

/** Opens one node panel, screenshots it, and returns what is wrong with it (empty: fine). */
async function checkPanel(
	page: Page,
	n8n: N8nInstance,
	node: EditorCheckNode,
	variant: NodeVariant,
): Promise<string[]> {
	const problems: string[] = [];
	await page.goto(`${n8n.baseUrl}/workflow/${workflowId(node, variant)}/${NODE_UUID}`, {
		waitUntil: 'load',
	});
	const panel = page.locator('[data-test-id="node-parameters"]').first();
	try {
		await panel.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		await page.waitForLoadState('networkidle');
	} catch {
		problems.push('the node panel did not open');
	}
	const shot = join(
		SCREENSHOT_DIR,
		`n8n-${n8n.installation.version}-${node.name}-${variant.label}.png`,
	);
	await page.screenshot({ path: shot, animations: 'disabled' });
	if (variant.readmeScreenshot) saveReadmeScreenshot(n8n.line, shot, variant.readmeScreenshot);

	if (variant.reveal) {
		const reveal = page.locator(`text="${variant.reveal}"`).first();
		if (await reveal.isVisible()) await reveal.click();
		else problems.push(`"${variant.reveal}" is not on the panel`);
	}
	const text = await page.locator('body').innerText();
	for (const expected of variant.expectText ?? [])
		if (!text.includes(expected)) problems.push(`the panel does not show "${expected}"`);
	for (const forbidden of variant.forbidText ?? [])
		if (text.includes(forbidden)) problems.push(`the panel shows "${forbidden}"`);
	for (const error of PANEL_ERRORS)
		if (text.includes(error)) problems.push(`the panel shows "${error}"`);
	const panelLines = new Set(
		(await panel.innerText().catch(() => ''))
			.split('\n')
			.map((line) => line.trim())
			.filter(Boolean),
	);
	for (const label of variant.expectVisible ?? []) {
		if (!panelLines.has(label)) problems.push(`parameter "${label}" is not on the panel`);
	}
	for (const label of variant.expectHidden ?? []) {
		if (panelLines.has(label))
			problems.push(`parameter "${label}" is on the panel but should be hidden`);
	}
	process.stdout.write(
		`  ${problems.length ? 'FAIL' : 'ok  '} ${node.name} (${variant.label}) -> ${shot}\n`,
	);
	return problems.map(
		(problem) => `n8n ${n8n.installation.version}, ${node.name} (${variant.label}): ${problem}`,
	);
}

/**
 * Adds the node to a workflow the way a user does: the canvas "+" button, a search for the
 * node's name in the node panel, a click on the result. Fails when the node cannot be found or
 * its panel does not open (or opens with an error).
 */
async function checkNodeCreator(
	page: Page,
	n8n: N8nInstance,
	node: EditorCheckNode,
): Promise<string[]> {
	const problems: string[] = [];
	const variant = node.variants[0];
	// A trigger is added as a workflow's first step (n8n offers no triggers after a node).
	const target = node.trigger ? 'new' : workflowId(node, variant);
	await page.goto(`${n8n.baseUrl}/workflow/${target}`, { waitUntil: 'load' });
	try {
		const plus = page
			.locator(
				node.trigger
					? '[data-test-id="canvas-add-button"]'
					: '[data-test-id="node-creator-plus-button"]',
			)
			.first();
		await plus.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		await plus.click();
		const search = page
			.locator(
				'[data-test-id="node-creator-search-bar"] input, input[data-test-id="node-creator-search-bar"]',
			)
			.first();
		await search.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		await search.fill(node.title);
		// The node panel lists triggers without the word "Trigger" at the end of their names.
		const listedAs = node.trigger ? node.title.replace(/ Trigger$/, '') : node.title;
		const result = page
			.locator('[data-test-id="node-creator-item-name"]', { hasText: listedAs })
			.first();
		await result.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		const searchShot = join(
			SCREENSHOT_DIR,
			`n8n-${n8n.installation.version}-${node.name}-search.png`,
		);
		await page.screenshot({ path: searchShot, animations: 'disabled' });
		if (node.readmeSearchScreenshot)
			saveReadmeScreenshot(n8n.line, searchShot, node.readmeSearchScreenshot);
		await result.click();
		// A node with operations lists its actions first; pick the first one.
		const panel = page.locator('[data-test-id="node-parameters"]').first();
		const action = page
			.locator('[data-test-id="node-creator"] [data-test-id="item-iterator-item"]')
			.first();
		for (let attempt = 0; attempt < 2 && !(await panel.isVisible()); attempt++) {
			if (await action.isVisible()) await action.click();
			await panel.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS / 2 }).catch(() => undefined);
		}
		await panel.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		await page.waitForLoadState('networkidle');
	} catch (error) {
		const shot = join(
			SCREENSHOT_DIR,
			`n8n-${n8n.installation.version}-${node.name}-search-failed.png`,
		);
		await page.screenshot({ path: shot, animations: 'disabled' });
		problems.push(
			`adding it from the node panel failed (${await searchFindsBuiltInNode(page)}): ${
				error instanceof Error ? error.message.split('\n')[0] : String(error)
			}`,
		);
	}
	const shot = join(SCREENSHOT_DIR, `n8n-${n8n.installation.version}-${node.name}-added.png`);
	await page.screenshot({ path: shot, animations: 'disabled' });
	const text = await page.locator('body').innerText();
	for (const error of PANEL_ERRORS)
		if (text.includes(error)) problems.push(`the added node's panel shows "${error}"`);
	process.stdout.write(
		`  ${problems.length ? 'FAIL' : 'ok  '} ${node.name} (added from the node panel) -> ${shot}\n`,
	);
	return problems.map((problem) => `n8n ${n8n.installation.version}, ${node.name}: ${problem}`);
}

/** On the README's line, a screenshot just taken also becomes the README image `name`. */
function saveReadmeScreenshot(line: N8nLine, shot: string, name: string): void {
	if (line !== README_LINE) return;
	copyFileSync(shot, join(README_SCREENSHOT_DIR, name));
	readmeScreenshotsTaken.add(name);
}

/**
 * Opens a laned example as a person does after importing it, at the editor's fit-view in a
 * 1440×900 window, and takes the picture examples/README.md shows. Fails when the canvas lacks a
 * node of the file.
 */
async function checkLanedExample(page: Page, n8n: N8nInstance, file: string): Promise<string[]> {
	const shot = join(
		SCREENSHOT_DIR,
		`n8n-${n8n.installation.version}-${file.replace(/\.json$/, '')}.png`,
	);
	const problems: string[] = [];
	try {
		const workflow = loadWorkflow(join(EXAMPLES_DIR, file), exampleWorkflowId(file));
		await page.setViewportSize(VIEWPORT);
		await page.goto(`${n8n.baseUrl}/workflow/${exampleWorkflowId(file)}`, { waitUntil: 'load' });
		const nodes = page.locator('[data-test-id="canvas-node"]');
		await nodes.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		await page.locator('[data-test-id="zoom-to-fit"]').first().click();
		await page.waitForLoadState('networkidle');
		const missing: string[] = [];
		for (const node of workflow.nodes.filter(
			(candidate) => !candidate.type.endsWith('.stickyNote'),
		))
			if (
				(await page
					.locator(`[data-test-id="canvas-node"][data-node-name="${node.name}"]`)
					.count()) !== 1
			)
				missing.push(node.name);
		if (missing.length > 0) problems.push(`${file}: the canvas lacks ${missing.join(', ')}`);
		await page.screenshot({ path: shot, animations: 'disabled' });
		saveReadmeScreenshot(n8n.line, shot, `n8n-2-${file.replace(/\.json$/, '')}.png`);
	} catch (error) {
		await page.screenshot({ path: shot, animations: 'disabled' });
		problems.push(`${file} did not open: ${firstLine(error)}`);
	}
	process.stdout.write(`  ${problems.length ? 'FAIL' : 'ok  '} ${file} as it opens -> ${shot}\n`);
	return problems.map((problem) => `n8n ${n8n.installation.version}: ${problem}`);
}

/**
 * Every image a page references under docs/readme/screenshots/ must exist, and, when the README's
 * line ran, must have been taken by this run (an image no step takes would go stale).
 */
function checkReadmeScreenshots(readmeLineRan: boolean): string[] {
	const problems: string[] = [];
	for (const page of README_PAGES) {
		const text = readFileSync(join(REPO_ROOT, page), 'utf8');
		for (const [, target] of text.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)) {
			const file = join(REPO_ROOT, dirname(page), target);
			if (dirname(file) !== DOCS_SCREENSHOT_DIR) continue;
			const name = relative(DOCS_SCREENSHOT_DIR, file);
			if (!existsSync(file)) problems.push(`${page}: the image ${target} is missing`);
			else if (readmeLineRan && !readmeScreenshotsTaken.has(name))
				problems.push(`${page}: the image ${target} is taken by no step of this check`);
		}
	}
	return problems;
}

/** Tells a broken search apart from a node the search does not list: does it find "Code"? */
async function searchFindsBuiltInNode(page: Page): Promise<string> {
	try {
		const search = page
			.locator(
				'[data-test-id="node-creator-search-bar"] input, input[data-test-id="node-creator-search-bar"]',
			)
			.first();
		await search.fill('Code');
		await page
			.locator('[data-test-id="node-creator-item-name"]', { hasText: 'Code' })
			.first()
			.waitFor({ state: 'visible', timeout: 5000 });
		return 'the same search finds n8n\'s own "Code" node';
	} catch {
		return 'the search does not find n8n\'s own "Code" node either';
	}
}

async function checkLine(
	line: (typeof N8N_LINES)[number],
	tarball: string,
	sim: Parameters<typeof simulatorCredentials>[0],
): Promise<string[]> {
	const workflows = EDITOR_CHECK_NODES.flatMap((node) =>
		node.variants.map((variant) => checkWorkflow(node, variant)),
	);
	if (line === README_LINE)
		workflows.push(
			...LANED_EXAMPLES.map((file) =>
				loadWorkflow(join(EXAMPLES_DIR, file), exampleWorkflowId(file)),
			),
		);
	const n8n = await startN8n({
		line,
		packages: [tarball],
		credentials: simulatorCredentials(sim),
		workflows,
	});
	return await withEditorPage(n8n, async (page) => {
		const problems: string[] = [];
		for (const node of EDITOR_CHECK_NODES) {
			problems.push(...(await checkNodeCreator(page, n8n, node)));
			for (const variant of node.variants)
				problems.push(...(await checkPanel(page, n8n, node, variant)));
		}
		if (line === README_LINE)
			for (const file of LANED_EXAMPLES)
				problems.push(...(await checkLanedExample(page, n8n, file)));
		return problems;
	});
}

async function main(): Promise<void> {
	// Asked to update the docs' pictures without the line they show: say so before the minutes
	// the check takes, not after.
	if (![''].concat(ONLY_PARTS).includes(ONLY))
		throw new Error(
			`MG_EDITOR_CHECK_ONLY: unknown part "${ONLY}" (known: ${ONLY_PARTS.join(', ')})`,
		);
	if (UPDATE_DOCS_SCREENSHOTS && ONLY !== '')
		throw new Error(
			'MG_E2E_UPDATE_DOCS_SCREENSHOTS=1 needs the whole check (no MG_EDITOR_CHECK_ONLY)',
		);
	if (UPDATE_DOCS_SCREENSHOTS && !N8N_LINES.includes(README_LINE))
		throw new Error(
			`MG_E2E_UPDATE_DOCS_SCREENSHOTS=1 needs n8n line ${README_LINE}.x, the line the pictures show (MG_E2E_LINES)`,
		);
	mkdirSync(SCREENSHOT_DIR, { recursive: true });
	// Only this run's README pictures, so the folder shows what the docs would get.
	rmSync(README_SCREENSHOT_DIR, { recursive: true, force: true });
	mkdirSync(README_SCREENSHOT_DIR, { recursive: true });
	const sim = await startSimulator();
	const packDir = mkdtempSync(join(tmpdir(), 'mg-editor-check-pack-'));
	const problems: string[] = [];
	try {
		const { tarball } = await packPackage(packDir);
		if (ONLY === '')
			for (const line of N8N_LINES) {
				process.stdout.write(`editor check on n8n line ${line}.x\n`);
				problems.push(...(await checkLine(line, tarball, sim)));
			}
		if (N8N_LINES.includes(README_LINE)) {
			// The two walks run side by side, each on an n8n of its own: most of their time is
			// waiting (the stored waits of the Try-it list, the pipeline's minute schedule).
			const walks: Array<Promise<string[]>> = [];
			if (ONLY !== 'readme-walk') {
				process.stdout.write(
					`README.md's "Try it" list on n8n ${README_LINE}.x set up by try-it\n`,
				);
				walks.push(
					checkTryItWalk({
						line: README_LINE,
						tarball,
						screenshotDir: SCREENSHOT_DIR,
						readmeScreenshot: (shot, name) => saveReadmeScreenshot(README_LINE, shot, name),
					}),
				);
			}
			if (ONLY !== 'try-it-walk') {
				process.stdout.write(`the README's steps on a fresh n8n ${README_LINE}.x\n`);
				walks.push(
					checkReadmeWalk({
						line: README_LINE,
						tarball,
						sim,
						screenshotDir: SCREENSHOT_DIR,
					}),
				);
			}
			// Both end, whatever one of them does, before n8n and the simulator are stopped.
			for (const result of await Promise.allSettled(walks))
				if (result.status === 'fulfilled') problems.push(...result.value);
				else problems.push(firstLine(result.reason));
		} else
			process.stdout.write(
				`README walks not done: they are n8n line ${README_LINE}.x's (MG_E2E_LINES)\n`,
			);
	} finally {
		await sim.close();
		rmSync(packDir, { recursive: true, force: true });
	}
	const readmeLineRan = ONLY === '' && N8N_LINES.includes(README_LINE);
	// Only the walk: no screenshot of the README was taken, none can be missed.
	if (ONLY === '') problems.push(...checkReadmeScreenshots(readmeLineRan));
	if (ONLY === '' && !readmeLineRan)
		process.stdout.write(
			`README screenshots not taken: they show n8n line ${README_LINE}.x (MG_E2E_LINES)\n`,
		);
	if (problems.length) {
		if (UPDATE_DOCS_SCREENSHOTS)
			process.stdout.write(`${relative(REPO_ROOT, DOCS_SCREENSHOT_DIR)}/ left unchanged\n`);
		throw new Error(`the editor check found problems:\n  ${problems.join('\n  ')}`);
	}
	process.stdout.write(
		`editor check passed; screenshots in ${SCREENSHOT_DIR}` +
			(readmeLineRan ? `, the README's in ${README_SCREENSHOT_DIR}` : '') +
			'\n',
	);
	if (UPDATE_DOCS_SCREENSHOTS) updateDocsScreenshots();
}

/**
 * `npm run docs:screenshots`: the README's pictures this run took replace those the pages show.
 * Only after a passing check, so a picture of a broken panel never reaches the docs.
 */
function updateDocsScreenshots(): void {
	mkdirSync(DOCS_SCREENSHOT_DIR, { recursive: true });
	for (const name of [...readmeScreenshotsTaken].sort()) {
		copyFileSync(join(README_SCREENSHOT_DIR, name), join(DOCS_SCREENSHOT_DIR, name));
		process.stdout.write(`  wrote ${relative(REPO_ROOT, join(DOCS_SCREENSHOT_DIR, name))}\n`);
	}
}

main().catch((error: unknown) => {
	process.stderr.write(
		`editor-check: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});

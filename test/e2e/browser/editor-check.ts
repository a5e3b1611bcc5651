/**
 * Browser check of the n8n editor: starts real n8n (each line in MG_E2E_LINES) with the packed
 * package, opens every node of the package (browser/nodes.ts, once per variant) in headless
 * Chromium, saves a screenshot of each panel into test-results/screenshots/ and fails when a
 * panel shows an error or a parameter that should be hidden (or misses one that should show).
 *
 *   bash scripts/e2e/browser-check.sh   (builds, compiles this to .build, runs it)
 *
 * Needs Debian's chromium (scripts/e2e/install-browser.sh; MG_E2E_CHROMIUM overrides the path)
 * and the playwright-core devDependency (MG_PLAYWRIGHT_DIR: a folder whose node_modules has it).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSimulator } from '../../simulator';
import { EXAMPLE_CREDENTIALS, simulatorCredentials } from '../examples';
import {
	N8N_LINES,
	N8N_OWNER,
	REPO_ROOT,
	packPackage,
	startN8n,
	type JsonObject,
	type N8nInstance,
	type WorkflowJson,
} from '../harness';
import { EDITOR_CHECK_NODES, type EditorCheckNode, type NodeVariant } from './nodes';

const PACKAGE_NAME = 'n8n-nodes-model-gateway';
const SCREENSHOT_DIR = join(REPO_ROOT, 'test-results', 'screenshots');
const CHROMIUM = process.env.MG_E2E_CHROMIUM ?? '/usr/bin/chromium';
const UI_TIMEOUT_MS = 30_000;

/** Texts n8n shows on a node panel when something is wrong with the node. */
const PANEL_ERRORS = [
	'Install this node to use it',
	'This node is not currently installed',
	'problem loading parameters',
	'There was a problem loading the parameter options',
	'Could not find property option',
	'Unrecognized node type',
];

// -- The part of playwright-core's API this check uses (the package is loaded at run time, so
//    that type checking does not depend on it being installed).
interface Locator {
	first(): Locator;
	click(): Promise<void>;
	fill(value: string): Promise<void>;
	isVisible(): Promise<boolean>;
	count(): Promise<number>;
	waitFor(options: { state: 'visible' | 'attached'; timeout: number }): Promise<void>;
	innerText(): Promise<string>;
}
interface Page {
	goto(url: string, options?: { waitUntil: 'load' | 'networkidle' }): Promise<unknown>;
	locator(selector: string, options?: { hasText: string }): Locator;
	/** animations 'disabled': finite CSS transitions (the panel fading in) are finished before the shot. */
	screenshot(options: { path: string; animations: 'disabled' }): Promise<unknown>;
	waitForLoadState(state: 'networkidle'): Promise<void>;
	setViewportSize(size: { width: number; height: number }): Promise<void>;
	request: {
		post(url: string, options: { data: unknown }): Promise<{ ok(): boolean; status(): number }>;
	};
}
interface BrowserContext {
	newPage(): Promise<Page>;
	close(): Promise<void>;
}
interface Playwright {
	chromium: {
		launchPersistentContext(
			userDataDir: string,
			options: {
				executablePath: string;
				headless: boolean;
				args: string[];
				viewport: { width: number; height: number };
			},
		): Promise<BrowserContext>;
	};
}

function loadPlaywright(): Playwright {
	const paths = [
		REPO_ROOT,
		...(process.env.MG_PLAYWRIGHT_DIR ? [process.env.MG_PLAYWRIGHT_DIR] : []),
	];
	let resolved: string;
	try {
		resolved = require.resolve('playwright-core', { paths });
	} catch {
		throw new Error(
			'playwright-core is not installed: it is a devDependency (npm ci), or set MG_PLAYWRIGHT_DIR',
		);
	}
	return require(resolved) as Playwright;
}

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
			...(node.trigger ? [] : [MANUAL_TRIGGER]),
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
		connections: node.trigger
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
		await page.screenshot({
			path: join(SCREENSHOT_DIR, `n8n-${n8n.installation.version}-${node.name}-search.png`),
			animations: 'disabled',
		});
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
	const n8n = await startN8n({
		line,
		packages: [tarball],
		credentials: simulatorCredentials(sim),
		workflows,
	});
	const profile = mkdtempSync(join(tmpdir(), 'mg-chromium-'));
	let context: BrowserContext | undefined;
	try {
		context = await loadPlaywright().chromium.launchPersistentContext(profile, {
			executablePath: CHROMIUM,
			headless: true,
			viewport: { width: 1440, height: 900 },
			args: [
				'--no-sandbox',
				'--disable-gpu',
				'--disable-quic',
				'--no-first-run',
				'--disable-background-networking',
				'--disable-component-update',
				'--disable-sync',
			],
		});
		const page = await context.newPage();
		// Log in through the REST API; the browser context keeps the session cookie.
		const login = await page.request.post(`${n8n.baseUrl}/rest/login`, {
			data: { emailOrLdapLoginId: N8N_OWNER.email, password: N8N_OWNER.password },
		});
		if (!login.ok()) throw new Error(`login answered ${login.status()}`);
		const problems: string[] = [];
		for (const node of EDITOR_CHECK_NODES) {
			problems.push(...(await checkNodeCreator(page, n8n, node)));
			for (const variant of node.variants)
				problems.push(...(await checkPanel(page, n8n, node, variant)));
		}
		return problems;
	} finally {
		await context?.close();
		rmSync(profile, { recursive: true, force: true });
		await n8n.stop();
	}
}

async function main(): Promise<void> {
	mkdirSync(SCREENSHOT_DIR, { recursive: true });
	const sim = await startSimulator();
	const packDir = mkdtempSync(join(tmpdir(), 'mg-editor-check-pack-'));
	const problems: string[] = [];
	try {
		const { tarball } = await packPackage(packDir);
		for (const line of N8N_LINES) {
			process.stdout.write(`editor check on n8n line ${line}.x\n`);
			problems.push(...(await checkLine(line, tarball, sim)));
		}
	} finally {
		await sim.close();
		rmSync(packDir, { recursive: true, force: true });
	}
	if (problems.length)
		throw new Error(`the editor check found problems:\n  ${problems.join('\n  ')}`);
	process.stdout.write(`editor check passed; screenshots in ${SCREENSHOT_DIR}\n`);
}

main().catch((error: unknown) => {
	process.stderr.write(
		`editor-check: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
	);
	process.exit(1);
});

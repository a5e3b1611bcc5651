/**
 * The part of playwright-core's API the browser checks use, and how they start Chromium. The
 * package is loaded at run time, so that type checking does not depend on it being installed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { N8N_OWNER, REPO_ROOT, type N8nInstance } from '../harness';

export const CHROMIUM = process.env.MG_E2E_CHROMIUM ?? '/usr/bin/chromium';
export const VIEWPORT = { width: 1440, height: 900 };

export interface Locator {
	first(): Locator;
	nth(index: number): Locator;
	locator(selector: string, options?: { hasText: string | RegExp }): Locator;
	click(): Promise<void>;
	dblclick(): Promise<void>;
	hover(): Promise<void>;
	fill(value: string): Promise<void>;
	isVisible(): Promise<boolean>;
	isEnabled(): Promise<boolean>;
	count(): Promise<number>;
	waitFor(options: { state: 'visible' | 'attached' | 'hidden'; timeout: number }): Promise<void>;
	innerText(): Promise<string>;
	getAttribute(name: string): Promise<string | null>;
}
export interface FileChooser {
	setFiles(files: string): Promise<void>;
}
export interface Page {
	goto(url: string, options?: { waitUntil: 'load' | 'networkidle' }): Promise<unknown>;
	url(): string;
	locator(selector: string, options?: { hasText: string | RegExp }): Locator;
	/** animations 'disabled': finite CSS transitions (the panel fading in) are finished before the shot. */
	screenshot(options: { path: string; animations: 'disabled' }): Promise<unknown>;
	waitForLoadState(state: 'networkidle'): Promise<void>;
	waitForEvent(event: 'filechooser', options: { timeout: number }): Promise<FileChooser>;
	setViewportSize(size: { width: number; height: number }): Promise<void>;
	keyboard: { press(key: string): Promise<void> };
	request: {
		post(url: string, options: { data: unknown }): Promise<{ ok(): boolean; status(): number }>;
	};
	/** The browser context (its cookies: logged in), for another tab. */
	context(): BrowserContext;
	close(): Promise<void>;
}
export interface BrowserContext {
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

/** Headless Debian Chromium with its own profile folder, quiet: no calls of its own home. */
export async function launchChromium(profile: string): Promise<BrowserContext> {
	return await loadPlaywright().chromium.launchPersistentContext(profile, {
		executablePath: CHROMIUM,
		headless: true,
		viewport: VIEWPORT,
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
}

/** How long a walk waits for a control to show before it clicks it. */
export const UI_TIMEOUT_MS = 30_000;

/**
 * A person at one editor tab, as the walks drive it: every action goes through it and is counted
 * in `actions`.
 */
export class EditorUser {
	actions = 0;

	constructor(readonly page: Page) {}

	async click(locator: Locator): Promise<void> {
		await locator.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		await locator.click();
		this.actions++;
	}

	async dblclick(locator: Locator): Promise<void> {
		await locator.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		await locator.dblclick();
		this.actions++;
	}

	async type(locator: Locator, value: string): Promise<void> {
		await locator.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		await locator.fill(value);
		this.actions++;
	}

	testId(id: string): Locator {
		return this.page.locator(`[data-test-id="${id}"]`).first();
	}

	canvasNode(name: string): Locator {
		return this.page.locator(`[data-test-id="canvas-node"][data-node-name="${name}"]`).first();
	}
}

export function firstLine(error: unknown): string {
	return error instanceof Error ? error.message.split('\n')[0] : String(error);
}

/** Logs in through the REST API as the harness's owner; the browser context keeps the cookie. */
export async function logIn(page: Page, n8n: N8nInstance): Promise<void> {
	const login = await page.request.post(`${n8n.baseUrl}/rest/login`, {
		data: { emailOrLdapLoginId: N8N_OWNER.email, password: N8N_OWNER.password },
	});
	if (!login.ok()) throw new Error(`login answered ${login.status()}`);
}

/**
 * Runs `use` on a logged-in editor page of `n8n` in a fresh Chromium profile, then closes the
 * browser, removes the profile and stops n8n, whatever `use` did.
 */
export async function withEditorPage<T>(
	n8n: N8nInstance,
	use: (page: Page) => Promise<T>,
): Promise<T> {
	const profile = mkdtempSync(join(tmpdir(), 'mg-chromium-'));
	let context: BrowserContext | undefined;
	try {
		context = await launchChromium(profile);
		const page = await context.newPage();
		await logIn(page, n8n);
		return await use(page);
	} finally {
		await context?.close();
		rmSync(profile, { recursive: true, force: true });
		await n8n.stop();
	}
}

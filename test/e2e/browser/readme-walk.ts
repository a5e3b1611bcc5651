/**
 * "The README's steps on a fresh n8n 2.x": what a new user does with
 * examples/video-pipeline-data-table.json, walked through the real editor with real clicks, on an
 * n8n of its own started with n8n's defaults (no credentials, no workflows, only the packed
 * package installed).
 *
 * The steps come from one place: the numbered list under "`video-pipeline-data-table.json`, step
 * by step" in examples/README.md. The walk has one step for each, in order, and fails when the
 * list has more or fewer steps than the walk performs, or when a step does not say what its walk
 * step does: a step added to (or dropped from) the README without the walk breaks the check.
 *
 *   1. Import the file: the workflow menu's Import → From file, the file chosen in the file
 *      chooser; the workflow must then be stored in n8n.
 *   2. Create the Model Gateway API credential: open "Create Video Tasks", create the credential
 *      from its credential field (Base URL and API key of the simulator), save. Every node the
 *      file gave a Model Gateway API credential must then use it; a node n8n left without it is
 *      opened and the credential picked, and those actions are counted as extra.
 *   3. Create the videos folder: the README's `mkdir -p`, done in code (createExampleFolders).
 *   4. Publish: the editor's Publish button and its dialog. n8n refuses while a node has issues;
 *      the check then fails with what n8n says.
 *   5. Add rows: not walked in the editor. The check waits until the first scheduled run has
 *      created the table, inserts rows through n8n's REST API and waits until every row has
 *      succeeded (its own proof that the walk left a working pipeline).
 *
 * It prints "README steps walked: N (…)" with the actions each step took.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { SAMPLE_VIDEO_ROWS, findVideoTable, listTables, type VideoTableRow } from '../dataTable';
import { EXAMPLES_DIR, createExampleFolders, type SimulatorEndpoints } from '../examples';
import {
	REPO_ROOT,
	startN8n,
	seconds,
	until,
	type Execution,
	type JsonObject,
	type N8nInstance,
	type N8nLine,
	type WorkflowJson,
} from '../harness';
import {
	EditorUser,
	UI_TIMEOUT_MS,
	firstLine,
	withEditorPage,
	type Locator,
	type Page,
} from './playwright';

const EXAMPLE = 'video-pipeline-data-table.json';
const README = join(EXAMPLES_DIR, 'README.md');
/** The heading above the example's numbered steps (the list right below it). */
const STEPS_HEADING = '### `video-pipeline-data-table.json`, step by step';
/** The node whose credential field step 2 uses (as the README says). */
const CREDENTIAL_NODE = 'Create Video Tasks';
const CREDENTIAL_TYPE = 'modelGatewayApi';
/** The table the workflow creates on its first run. */
const TABLE_NAME = 'video_pipeline';
/** Four of the sample rows: three generic, one of Family A (whose tasks call back). */
const ROWS: VideoTableRow[] = SAMPLE_VIDEO_ROWS.slice(0, 4);

/** n8n 2.x saves an edited workflow a moment after the edit (its autosave). */
const SAVE_TIMEOUT_MS = 20_000;
/** The schedule fires every minute; the first run creates the table. */
const TABLE_TIMEOUT_MS = 150_000;
/** Rows are claimed, created, checked and completed over two or three scheduled runs. */
const ROWS_TIMEOUT_MS = 240_000;
const POLL_MS = 2_000;

/** What a walk step tells beyond its actions, which the Walk counts. */
interface StepResult {
	/** Actions n8n should have spared the user (e.g. picking the credential in other nodes). */
	extra?: number;
	note?: string;
}

interface WalkStep {
	/** What the README's step must mention, so that the walk and the list stay paired. */
	readme: RegExp;
	/** Done by the check through REST (its own proof), not timed as the user's walk. */
	byRest?: boolean;
	run(walk: Walk): Promise<StepResult>;
}

/** The walk's state, and the actions it counts (every user action goes through it). */
class Walk extends EditorUser {
	workflowId = '';
	credentialId = '';
	readonly file = join(EXAMPLES_DIR, EXAMPLE);
	readonly workflow = JSON.parse(readFileSync(this.file, 'utf8')) as WorkflowJson;

	constructor(
		page: Page,
		readonly n8n: N8nInstance,
		readonly sim: SimulatorEndpoints,
	) {
		super(page);
	}

	/** Clicks what opens the file chooser and picks the file in it: two actions. */
	async chooseFile(opener: Locator, file: string): Promise<void> {
		await opener.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		const [chooser] = await Promise.all([
			this.page.waitForEvent('filechooser', { timeout: UI_TIMEOUT_MS }),
			opener.click(),
		]);
		await chooser.setFiles(file);
		this.actions += 2;
	}

	async storedWorkflow(): Promise<WorkflowJson> {
		return await this.n8n.rest<WorkflowJson>('GET', `/workflows/${this.workflowId}`);
	}
}

const STEPS: WalkStep[] = [
	{ readme: /\bimport\b/i, run: importFile },
	{
		readme: new RegExp(`\\b${CREDENTIAL_NODE}\\b.*\\bcredential\\b`, 'is'),
		run: createCredential,
	},
	{
		readme: /\bmkdir -p ~\/\.n8n-files\/model-gateway-videos\b/,
		run: createFolder,
	},
	{ readme: /\bpublish\b/i, run: publish },
	{
		readme: new RegExp(`\\badd rows\\b.*\\b${TABLE_NAME}\\b`, 'is'),
		byRest: true,
		run: addRows,
	},
];

/** Step 1: from n8n's first page to the imported workflow, stored. */
async function importFile(walk: Walk): Promise<StepResult> {
	const { page, n8n } = walk;
	// Where a new user lands after signing in: an empty n8n offers to build a workflow.
	await page.goto(`${n8n.baseUrl}/home/workflows`, { waitUntil: 'load' });
	await walk.click(walk.testId('new-workflow-card'));
	await walk.click(walk.testId('workflow-menu'));
	await walk.click(walk.testId('workflow-menu-item-import'));
	await walk.chooseFile(walk.testId('workflow-menu-item-import-from-file'), walk.file);
	await walk.canvasNode(CREDENTIAL_NODE).waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	const id = /\/workflow\/([^/?#]+)/.exec(page.url())?.[1];
	if (!id || id === 'new') throw new Error(`the editor shows no stored workflow (${page.url()})`);
	walk.workflowId = id;
	// Imported means stored: the workflow's nodes are in n8n, not only on the canvas.
	const expected = walk.workflow.nodes.length;
	let stored = 0;
	await until(
		`the imported workflow to be stored with its ${expected} nodes`,
		SAVE_TIMEOUT_MS,
		async () => {
			// n8n answers 404 until the new workflow is first saved.
			stored = (await walk.storedWorkflow().catch(() => undefined))?.nodes.length ?? 0;
			return stored === expected;
		},
	).catch((error: unknown) => {
		throw new Error(`${firstLine(error)} (n8n has ${stored})`);
	});
	return {};
}

/** Step 2: the credential, created from the node's credential field. */
async function createCredential(walk: Walk): Promise<StepResult> {
	const { page, n8n, sim } = walk;
	await walk.dblclick(walk.canvasNode(CREDENTIAL_NODE));
	await walk.testId('node-parameters').waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	// The imported credential does not exist here: n8n 2.x shows a "Connect to …" button in its
	// place; with credentials of the type it shows a list whose last entry creates one.
	const connect = walk.testId('node-credentials-empty-state');
	if (await connect.isVisible()) await walk.click(connect);
	else {
		await walk.click(walk.testId('node-credentials-select'));
		await walk.click(walk.testId('node-credentials-select-item-new'));
	}
	const modal = walk.testId('editCredential-modal');
	await walk.type(modal.locator('[data-test-id="parameter-input-baseUrl"] input'), sim.baseUrl);
	await walk.type(modal.locator('[data-test-id="parameter-input-apiKey"] input'), sim.apiKey);
	await walk.click(modal.locator('[data-test-id="credential-save-button"]'));
	await modal.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
	// What n8n tells about the other nodes (a toast), for the report.
	const told = page.locator('.el-notification', { hasText: 'other node' }).first();
	const toast = await told
		.waitFor({ state: 'visible', timeout: 5_000 })
		.then(async () => `n8n: "${(await told.innerText()).replace(/\s+/g, ' ').trim()}"`)
		.catch(() => 'n8n said nothing about other nodes');
	await closeNode(walk);

	const credentials = await n8n.rest<Array<{ id: string; type: string }>>('GET', '/credentials');
	const created = credentials.filter((credential) => credential.type === CREDENTIAL_TYPE);
	if (created.length !== 1)
		throw new Error(
			`n8n has ${created.length} ${CREDENTIAL_TYPE} credentials, not the one created`,
		);
	walk.credentialId = created[0].id;

	// The nodes the file gave this credential type: each must use the one just created.
	const users = walk.workflow.nodes
		.filter((node) => (node.credentials as JsonObject | undefined)?.[CREDENTIAL_TYPE])
		.map((node) => node.name);
	let missing = await nodesWithout(walk, users);
	const before = walk.actions;
	for (const name of missing) {
		// n8n did not give it this node: the user opens the node and picks the credential.
		await walk.dblclick(walk.canvasNode(name));
		await walk.click(walk.testId('node-credentials-select'));
		await walk.click(walk.testId(`node-credentials-select-item-${walk.credentialId}`));
		await closeNode(walk);
	}
	const extra = walk.actions - before;
	if (missing.length) missing = await nodesWithout(walk, users);
	if (missing.length)
		throw new Error(`the stored workflow's ${missing.join(', ')} do not use the new credential`);
	return {
		extra,
		note: `${users.length} nodes use it; ${toast}${extra ? `; picked by hand in ${extra / 4} node(s)` : ''}`,
	};
}

/** Closes the node panel with its close button (Escape may only leave a field). */
async function closeNode(walk: Walk): Promise<void> {
	await walk.click(walk.testId('ndv-close-button'));
	await walk.testId('node-parameters').waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
}

/** The named nodes whose stored credential is not the created one, once n8n has saved. */
async function nodesWithout(walk: Walk, names: string[]): Promise<string[]> {
	let missing = names;
	await until('every node to use the new credential', SAVE_TIMEOUT_MS, async () => {
		const stored = await walk.storedWorkflow();
		missing = names.filter((name) => {
			const node = stored.nodes.find((candidate) => candidate.name === name);
			const credential = (node?.credentials as JsonObject | undefined)?.[CREDENTIAL_TYPE] as
				| JsonObject
				| undefined;
			return credential?.id !== walk.credentialId;
		});
		return missing.length === 0;
	}).catch(() => undefined);
	return missing;
}

/** Step 3: the README's shell command. */
async function createFolder(walk: Walk): Promise<StepResult> {
	createExampleFolders(walk.n8n.userFolder);
	walk.actions++;
	return { note: 'a shell command' };
}

/** Step 4: Publish, and the dialog it opens. */
async function publish(walk: Walk): Promise<StepResult> {
	const { page, n8n } = walk;
	const button = walk.testId('workflow-open-publish-modal-button');
	await button.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	// n8n refuses to publish a workflow whose nodes have issues: the button is disabled and
	// its tooltip says why.
	if (!(await button.isEnabled())) throw new Error(await whyNotPublished(walk));
	await walk.click(button);
	await walk.click(walk.testId('workflow-publish-button'));
	const published = walk.testId('activation-modal');
	const shown = await published
		.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS })
		.then(() => true)
		.catch(() => false);
	if (!shown) throw new Error(`n8n did not publish the workflow: ${await visibleMessages(page)}`);
	await walk.click(published.locator('button', { hasText: 'Got it' }));
	await until('the stored workflow to be active', SAVE_TIMEOUT_MS, async () => {
		const stored = await n8n.rest<WorkflowJson & { active: boolean }>(
			'GET',
			`/workflows/${walk.workflowId}`,
		);
		return stored.active;
	});
	return {};
}

/**
 * n8n's reason for a disabled Publish button (its tooltip), the nodes the canvas marks with
 * issues and what the first of them says: enough to see which README step fell short.
 */
async function whyNotPublished(walk: Walk): Promise<string> {
	const { page } = walk;
	const tooltipText = async (tooltip: Locator): Promise<string> => {
		await tooltip.waitFor({ state: 'visible', timeout: 5_000 });
		// The tooltip carries its text twice (a sized copy): one of each line.
		const lines = (await tooltip.innerText()).split('\n').map((line) => line.trim());
		return [...new Set(lines.filter(Boolean))].join(' ');
	};
	await walk.testId('workflow-open-publish-modal-button').hover();
	const why = await tooltipText(page.locator('[data-test-id="tooltip-content"]').first()).catch(
		() => 'n8n says nothing (no tooltip)',
	);
	const marked = page.locator('[data-test-id="canvas-node"]:has([data-test-id="node-issues"])');
	const names: string[] = [];
	for (let index = 0; index < (await marked.count()); index++)
		names.push((await marked.nth(index).getAttribute('data-node-name')) ?? '?');
	let first = '';
	if (names.length) {
		await marked.first().locator('[data-test-id="node-issues"]').hover();
		// The node's tooltip opens with "Issues" (the Publish tooltip, still open, says "issues").
		const issues = page
			.locator('[data-test-id="tooltip-content"]', { hasText: /^\s*Issues/ })
			.first();
		first = await tooltipText(issues)
			.then((text) => `; "${names[0]}" says: ${text.replace(/^Issues\s*/, '')}`)
			.catch(() => '');
	}
	return (
		`n8n does not publish the workflow: "${why}"` +
		(names.length ? `; nodes with issues: ${names.join(', ')}${first}` : '')
	);
}

/** What n8n shows in toasts and dialogs, to say why something did not happen. */
async function visibleMessages(page: Page): Promise<string> {
	const texts: string[] = [];
	for (const selector of ['.el-notification', '[role="dialog"]']) {
		const found = page.locator(selector);
		for (let index = 0; index < (await found.count()); index++) {
			const text = await found
				.nth(index)
				.innerText()
				.catch(() => '');
			if (text.trim()) texts.push(`"${text.replace(/\s+/g, ' ').trim()}"`);
		}
	}
	return texts.join('; ') || 'n8n showed no message';
}

/**
 * Step 5, by REST: the table the first scheduled run creates, a few rows in it, and every row
 * succeeded.
 */
async function addRows(walk: Walk): Promise<StepResult> {
	const { n8n } = walk;
	await until(
		`the first scheduled run to create the table ${TABLE_NAME}`,
		TABLE_TIMEOUT_MS,
		async () => (await listTables(n8n, TABLE_NAME)).some((table) => table.name === TABLE_NAME),
		POLL_MS,
	).catch(async (error: unknown) => {
		throw new Error(`${firstLine(error)}; ${await lastFailure(walk.n8n, walk.workflowId)}`);
	});
	const table = await findVideoTable(n8n, TABLE_NAME);
	const insertedAt = Date.now();
	await table.insert(ROWS);
	let rows: VideoTableRow[] = [];
	const done = (row: VideoTableRow) => Boolean(row.finishedAt);
	await until(
		`every row to succeed`,
		ROWS_TIMEOUT_MS,
		async () => {
			rows = await table.rows();
			// A finished row that did not succeed never will: no need to wait out the time.
			if (rows.some((row) => done(row) && row.status !== 'succeeded')) return true;
			return rows.length === ROWS.length && rows.every(done);
		},
		POLL_MS,
	).catch(() => undefined);
	const project = await n8n.rest<{ id: string }>('GET', '/projects/personal');
	// The table as a user sees it, for the step's screenshot.
	await walk.page.goto(`${n8n.baseUrl}/projects/${project.id}/datatables/${table.id}`, {
		waitUntil: 'load',
	});
	await walk.page.waitForLoadState('networkidle');
	if (rows.length !== ROWS.length || !rows.every((row) => done(row) && row.status === 'succeeded'))
		throw new Error(
			`the rows did not all succeed; the table shows:\n      ${rows
				.map((row) =>
					[row.id, row.family, row.prompt, row.status, row.finishedAt, row.error, row.file]
						.map((value) => value ?? '-')
						.join(' | '),
				)
				.join('\n      ')}\n    ${await lastFailure(walk.n8n, walk.workflowId)}`,
		);
	return {
		note: `${ROWS.length} rows by REST, all succeeded ${seconds(Date.now() - insertedAt)} after`,
	};
}

/** The newest failed execution of the workflow, for a failure message. */
export async function lastFailure(n8n: N8nInstance, workflowId: string): Promise<string> {
	const executions = await n8n
		.publicApi<{
			data: Execution[];
		}>('GET', `/executions?workflowId=${workflowId}&status=error&includeData=true&limit=1`)
		.catch(() => ({ data: [] }));
	const [execution] = executions.data;
	if (!execution) return 'no execution of the workflow failed';
	const result = execution.data?.resultData;
	return `execution ${execution.id} (${execution.mode}) failed at "${result?.lastNodeExecuted ?? '?'}": ${result?.error?.message ?? '?'}`;
}

/**
 * The numbered steps under `heading` (this walk's by default) in `file` (examples/README.md by
 * default), each as one line.
 */
export function readmeSteps(heading = STEPS_HEADING, file = README): string[] {
	const page = relative(REPO_ROOT, file);
	const lines = readFileSync(file, 'utf8').split('\n');
	const start = lines.findIndex((line) => line.startsWith(heading));
	if (start < 0) throw new Error(`${page} has no "${heading}"`);
	const steps: string[] = [];
	for (const line of lines.slice(start + 1)) {
		const item = /^\d+\.\s+(.*)$/.exec(line);
		if (item) steps.push(item[1]);
		// An item's further lines are indented.
		else if (steps.length && /^\s+\S/.test(line)) steps[steps.length - 1] += ` ${line.trim()}`;
		else if (steps.length) break;
	}
	if (!steps.length) throw new Error(`${page} has no numbered list after "${heading}"`);
	return steps;
}

/** How the README names a step in the report: its words up to the first stop or parenthesis. */
function stepTitle(text: string): string {
	return text.replace(/[*`]/g, '').split(/[.:(]/)[0].trim();
}

/**
 * Walks the README's steps on a fresh n8n of `line`, with n8n's defaults. Returns what went
 * wrong (empty: every step done and every row succeeded).
 */
export async function checkReadmeWalk(options: {
	line: N8nLine;
	tarball: string;
	sim: SimulatorEndpoints;
	screenshotDir: string;
}): Promise<string[]> {
	const steps = readmeSteps();
	if (steps.length !== STEPS.length)
		return [
			`examples/README.md lists ${steps.length} steps for ${EXAMPLE}, the README walk performs ${STEPS.length}: change both together`,
		];
	const unpaired = steps.flatMap((text, index) =>
		STEPS[index].readme.test(text)
			? []
			: [`README step ${index + 1} ("${stepTitle(text)}") does not mention ${STEPS[index].readme}`],
	);
	if (unpaired.length) return unpaired;

	const n8n = await startN8n({
		line: options.line,
		packages: [options.tarball],
		n8nDefaults: true,
	});
	const version = n8n.installation.version;
	const problems: string[] = [];
	const report: string[] = [];
	await withEditorPage(n8n, async (page) => {
		const walk = new Walk(page, n8n, options.sim);
		const walkStart = Date.now();
		let uiDone = walkStart;
		for (const [index, step] of STEPS.entries()) {
			const number = index + 1;
			const title = stepTitle(steps[index]);
			const shot = join(options.screenshotDir, `n8n-${version}-readme-walk-${number}.png`);
			const before = walk.actions;
			const stepStart = Date.now();
			try {
				const result = await step.run(walk);
				await page.screenshot({ path: shot, animations: 'disabled' });
				const actions = walk.actions - before - (result.extra ?? 0);
				report.push(
					`${number} ${title}: ${actions} action${actions === 1 ? '' : 's'}` +
						(result.extra ? ` + ${result.extra} extra` : '') +
						(result.note ? ` (${result.note})` : '') +
						`, ${seconds(Date.now() - stepStart)}`,
				);
				if (!step.byRest) uiDone = Date.now();
				process.stdout.write(`  ok   README step ${number}: ${title} -> ${shot}\n`);
			} catch (error) {
				await page.screenshot({ path: shot, animations: 'disabled' }).catch(() => undefined);
				const message = error instanceof Error ? error.message : String(error);
				process.stdout.write(`  FAIL README step ${number}: ${title} -> ${shot}\n`);
				problems.push(`n8n ${version}, README step ${number} (${title}): ${message}`);
				break;
			}
		}
		process.stdout.write(
			`  README steps walked: ${report.length} (${report.join('; ')}); ` +
				`${walk.actions} actions in all, the editor part took ${seconds(uiDone - walkStart)}\n`,
		);
	});
	return problems;
}

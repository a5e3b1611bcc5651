/**
 * "The Try-it walk": README.md's "Try it" list, walked as a person does on an n8n set up exactly
 * as `npm run try-it` sets it up (startTryIt in ../tryItSetup.ts: the simulator with try-it's
 * task durations, every example of the line, the tables with their sample rows, the Data Table
 * examples published), on free ports.
 *
 * The items come from one place: the numbered list under "## Try it" in README.md. The walk has
 * one item for each, in order, and fails when the list has more or fewer items than the walk, an
 * item does not name its workflow in bold (`**Model Gateway: …**`, a title prefix when it ends in
 * "…"), or an item no longer says what its walk item does. For each item the walk goes to the
 * workflows list (the address try-it prints), clicks the one workflow the README's name fits, does
 * the item's clicks and checks what the item says the person sees:
 *
 *   1. chat: **Execute workflow**; the node's output (opened, JSON view) shows `Echo: <message>`,
 *      the workflow's user message.
 *   2. batch of video tasks from a list: **Execute workflow**; Wait for Videos puts out as many
 *      items as the README says videos, each paired (n8n's pairedItem) with its row of the list,
 *      whose prompt created that very task at the simulator.
 *   3. mixed sheet: **Execute workflow**; the Batch Report node ran, within the README's "a minute
 *      or two". It waits in n8n's database (70 s or more), so the walk leaves it running in a tab
 *      of its own and goes on with item 4, as a person would; its canvas and Batch Report output
 *      become the README's pictures (n8n-2-batch-run.png, n8n-2-batch-report.png).
 *   4. Data Table batch: opens on "Execute workflow from Task Callback Trigger" (the README's
 *      warning); the arrow next to **Execute workflow**, *When clicking ‘Execute workflow’* (the
 *      manual trigger's name in the file), the button, which must then read what
 *      examples/README.md's step 4 says. Every row of `video_batch` gets its task, file (on
 *      disk) and finish time; the table is opened under **Data tables**; the same three clicks
 *      again, and that run creates nothing (its Create Video Tasks puts out nothing, the
 *      simulator's log has no create of a `video_batch` prompt, every row keeps its task).
 *   5. video pipeline: opened, nothing clicked; it is published, and every row of
 *      `video_pipeline` has its video (succeeded, file on disk) with a finish time within the
 *      README's minutes of its publishing.
 *
 * It prints "Try-it list walked: 5 items (…)" with each item's clicks and seconds.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

import {
	DATA_TABLE_EXAMPLE,
	PIPELINE_EXAMPLE,
	createRequestPrompt,
	findVideoTable,
	videoCreates,
	type VideoTable,
	type VideoTableRow,
} from '../dataTable';
import { exampleWorkflowId } from '../examples';
import {
	REPO_ROOT,
	seconds,
	until,
	type Execution,
	type JsonObject,
	type N8nInstance,
	type N8nLine,
	type NodeRun,
	type WorkflowJson,
} from '../harness';
import { startTryIt, type TryIt } from '../tryItSetup';
import { EditorUser, UI_TIMEOUT_MS, VIEWPORT, withEditorPage, type Page } from './playwright';
import { lastFailure, readmeSteps } from './readme-walk';

const README = join(REPO_ROOT, 'README.md');
const LIST_HEADING = '## Try it';

const POLL_MS = 2_000;
/** Chat and the 20-video list: seconds (each task runs 4 s, first checked 10 s after create). */
const QUICK_RUN_TIMEOUT_MS = 120_000;
/** The mixed sheet and the Data Table batch wait 70 s or more in n8n's database: a margin. */
const WAITING_RUN_TIMEOUT_MS = 240_000;
const REPORT_VIEWPORT_HEIGHT = 1400;
/** Item 1's "One answer in seconds". */
const ANSWER_IN_SECONDS_MS = 30_000;
/** Item 3's "a minute or two". */
const MINUTE_OR_TWO_MS = 120_000;

/** The button's words on opening the Data Table batch: the README's warning. */
const TRIGGER_NAME = 'Task Callback Trigger';
const TRAP = `Execute workflow from ${TRIGGER_NAME}`;
/** The button's words after the pick, as examples/README.md's step 4 shows them (in bold). */
const BUTTON_WORDS = /\*\*(Execute workflow from [^*]+)\*\*/;
const BATCH_STEPS_HEADING = '### `video-data-table-batch.json`, step by step';

/** Numbers the README writes as words. */
const NUMBER_WORDS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5 };

/** Everything an item needs: the set-up n8n, the README's words, where pictures go. */
interface WalkContext {
	tryIt: TryIt;
	n8n: N8nInstance;
	version: string;
	screenshotDir: string;
	readmeScreenshot: (shot: string, name: string) => void;
}

/** A person at one browser tab: every click goes through it and is counted. */
class Person extends EditorUser {
	constructor(
		page: Page,
		readonly n8n: N8nInstance,
	) {
		super(page);
	}

	async nodeSucceeded(name: string, timeoutMs: number): Promise<void> {
		await this.canvasNode(name)
			.locator('[data-test-id="canvas-node-status-success"]')
			.waitFor({ state: 'visible', timeout: timeoutMs });
	}

	/** The Execute workflow button's words, on one line. */
	async buttonText(): Promise<string> {
		return (await this.testId('execute-workflow-button').innerText()).replace(/\s+/g, ' ').trim();
	}
}

/** What an item's clicks leave to wait for: the outcome, checked; it returns the item's note. */
type Outcome = () => Promise<string>;

interface ItemInput {
	walk: WalkContext;
	person: Person;
	/** The README's item, on one line. */
	text: string;
	/** The workflow the walk opened (as imported). */
	workflow: WorkflowJson;
}

interface Item {
	/** The example the README's name must lead to. */
	file: string;
	/** What the README's item must say, so that the walk and the list stay paired. */
	readme: RegExp;
	/** The outcome takes minutes: the walk goes on in another tab meanwhile. */
	meanwhile?: boolean;
	/** The item's clicks, on its workflow as opened from the list. */
	run(input: ItemInput): Promise<Outcome>;
}

const ITEMS: Item[] = [
	{
		file: 'chat.json',
		readme: /\bclick \*\*Execute workflow\*\*.*\bOne answer in seconds\b.*`Echo: <your message>`/is,
		run: chat,
	},
	{
		file: 'video-batch.json',
		readme: /\bclick \*\*Execute workflow\*\*.*\b\d+ videos\b.*\bpaired with its row\b/is,
		run: videoList,
	},
	{
		file: 'video-sheet-mixed-batch.json',
		readme:
			/\bclick\s+\*\*Execute workflow\*\*.*\ba minute or two\b.*\bends in the Batch Report\b/is,
		meanwhile: true,
		run: mixedSheet,
	},
	{
		file: DATA_TABLE_EXAMPLE,
		readme: new RegExp(
			'\\bClick the arrow next to \\*\\*Execute workflow\\*\\*.*\\bpick \\*When clicking ‘Execute workflow’\\*' +
				'.*\\bclick the button\\b.*`video_batch`.*\\btask, file and finish time\\b.*\\bagain\\b.*\\bnothing is created twice\\b',
			'is',
		),
		run: dataTableBatch,
	},
	{
		file: PIPELINE_EXAMPLE,
		readme:
			/\bnothing to click\b.*\bpublished\b.*\bWithin (\w+) minutes every row of `video_pipeline` has its video\b/is,
		run: pipeline,
	},
];

/** The workflow name an item gives in bold; a prefix when it ends in "…". */
function itemName(text: string): string {
	return /\*\*(Model Gateway:[^*]+)\*\*/.exec(text)?.[1].trim() ?? '';
}

function namedBy(readmeName: string, title: string): boolean {
	const prefix = readmeName.replace(/\s*…$/, '');
	return prefix === readmeName ? title === readmeName : title.startsWith(prefix);
}

/** The workflows list (the address try-it prints), then the one workflow the name fits. */
async function openFromList(person: Person, readmeName: string): Promise<string> {
	const { page, n8n } = person;
	await page.goto(`${n8n.baseUrl}/home/workflows`, { waitUntil: 'load' });
	const names = page.locator('[data-test-id="workflow-card-name"]');
	await names.first().waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	await page.waitForLoadState('networkidle');
	const listed: string[] = [];
	for (let index = 0; index < (await names.count()); index++)
		listed.push((await names.nth(index).innerText()).replace(/\s+/g, ' ').trim());
	const fits = listed.flatMap((title, index) => (namedBy(readmeName, title) ? [index] : []));
	if (fits.length !== 1)
		throw new Error(
			`the workflows list has ${fits.length} workflows named "${readmeName}" (it lists: ${listed.join('; ')})`,
		);
	await person.click(names.nth(fits[0]));
	await page
		.locator('[data-test-id="canvas-node"]')
		.first()
		.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	await person
		.testId('execute-workflow-button')
		.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	await page.waitForLoadState('networkidle');
	return /\/workflow\/([^/?#]+)/.exec(page.url())?.[1] ?? '';
}

/** Items 1–3 say "click **Execute workflow**": the button must read just that. */
async function clickExecute(person: Person): Promise<number> {
	const words = await person.buttonText();
	if (words !== 'Execute workflow')
		throw new Error(`the button reads "${words}", where the README says "Execute workflow"`);
	// Before the click: its promise may settle seconds after n8n started the run.
	const clicked = Date.now();
	await person.click(person.testId('execute-workflow-button'));
	return clicked;
}

function nodeOfType(workflow: WorkflowJson, type: string): string {
	const node = workflow.nodes.find((candidate) => candidate.type.endsWith(`.${type}`));
	if (!node) throw new Error(`${workflow.name} has no ${type} node`);
	return node.name;
}

/** Item 1: the chat answer, as the node's output shows it. */
async function chat({ person, workflow }: ItemInput): Promise<Outcome> {
	const node = nodeOfType(workflow, 'modelGatewayChat');
	const parameters = workflow.nodes.find((candidate) => candidate.name === node)
		?.parameters as JsonObject;
	const messages = (parameters.messages as { values: Array<{ role: string; content: string }> })
		.values;
	const message = messages.filter((entry) => entry.role === 'user').at(-1)?.content ?? '';
	const expected = `Echo: ${message}`;
	const clicked = await clickExecute(person);
	return async () => {
		await person.nodeSucceeded(node, QUICK_RUN_TIMEOUT_MS);
		const answeredIn = Date.now() - clicked;
		if (answeredIn > ANSWER_IN_SECONDS_MS)
			throw new Error(`the answer took ${seconds(answeredIn)}, where the README says "in seconds"`);
		// To see the answer a person opens the node: its output, as JSON.
		await person.dblclick(person.canvasNode(node));
		const output = person.testId('output-panel');
		await person.click(output.locator('[data-test-id="radio-button-json"]').first());
		let shown = '';
		await until(
			`the output to show "${expected}"`,
			UI_TIMEOUT_MS,
			async () => (shown = await output.innerText()).includes(expected),
			500,
		).catch(() => {
			throw new Error(
				`the output of "${node}" does not show "${expected}": ${shown.replace(/\s+/g, ' ').slice(0, 300)}`,
			);
		});
		return `"${expected}" ${seconds(answeredIn)} after the click`;
	};
}

/** The workflow's executions, newest first (manual ones included). */
async function executions(n8n: N8nInstance, id: string, includeData = false): Promise<Execution[]> {
	return (
		await n8n.publicApi<{ data: Execution[] }>(
			'GET',
			`/executions?workflowId=${id}&limit=20${includeData ? '&includeData=true' : ''}`,
		)
	).data;
}

/** The newest manual execution started after `since`, once it has ended (with its data). */
async function endedManualRun(
	n8n: N8nInstance,
	id: string,
	since: number,
	timeoutMs: number,
): Promise<Execution> {
	let found: Execution | undefined;
	let runs: Execution[] = [];
	await until(
		'the run to end',
		timeoutMs,
		async () => {
			runs = await executions(n8n, id);
			found = runs.find((run) => run.mode === 'manual' && Date.parse(run.startedAt) >= since);
			return found?.stoppedAt !== null && found?.stoppedAt !== undefined;
		},
		POLL_MS,
	).catch((error: unknown) => {
		throw new Error(
			`${error instanceof Error ? error.message : String(error)} (clicked at ${new Date(since).toISOString()}; the workflow's executions: ${runs
				.map((run) => `${run.id} ${run.mode} ${run.status} ${run.startedAt}–${run.stoppedAt ?? ''}`)
				.join(', ')})`,
		);
	});
	if (!found) throw new Error('no manual run');
	return await n8n.publicApi<Execution>('GET', `/executions/${found.id}?includeData=true`);
}

function lastRun(execution: Execution, node: string): NodeRun | undefined {
	return execution.data?.resultData.runData[node]?.at(-1);
}

function pairedIndex(item: { pairedItem?: { item: number } | Array<{ item: number }> }): number {
	const paired = Array.isArray(item.pairedItem) ? item.pairedItem[0] : item.pairedItem;
	return paired?.item ?? -1;
}

/** Item 2: the README's count of videos, each paired with its row. */
async function videoList({ walk, person, workflow, text }: ItemInput): Promise<Outcome> {
	const count = Number(/\b(\d+) videos\b/.exec(text)?.[1]);
	const rowsNode = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.code')?.name ?? '';
	const createNode = nodeOfType(workflow, 'modelGatewayVideo');
	const waitNode = nodeOfType(workflow, 'modelGatewayWaitForTask');
	const clicked = await clickExecute(person);
	return async () => {
		await person.nodeSucceeded(waitNode, QUICK_RUN_TIMEOUT_MS);
		const tookMs = Date.now() - clicked;
		const execution = await endedManualRun(walk.n8n, workflow.id, clicked, UI_TIMEOUT_MS);
		const rows = lastRun(execution, rowsNode)?.data?.main?.[0] ?? [];
		const created = lastRun(execution, createNode)?.data?.main?.[0] ?? [];
		const videos = lastRun(execution, waitNode)?.data?.main?.[0] ?? [];
		if (videos.length !== count)
			throw new Error(`"${waitNode}" put out ${videos.length} videos, the README says ${count}`);
		const creates = videoCreates(walk.tryIt.sim.requests).filter(
			(request) => request.at >= clicked,
		);
		const unpaired = videos.flatMap((video, index) => {
			const task = String(video.json.taskId);
			const create = created[pairedIndex(video)];
			const row = create ? rows[pairedIndex(create)] : undefined;
			const prompt = String(row?.json.prompt ?? '');
			const createdBy = creates.find(
				(request) =>
					createRequestPrompt(request.body) === prompt && (request.answer ?? '').includes(task),
			);
			return video.json.status === 'succeeded' && create?.json.taskId === task && createdBy
				? []
				: [`video ${index + 1} (task ${task}, ${String(video.json.status)}) → row "${prompt}"`];
		});
		if (unpaired.length)
			throw new Error(`videos not paired with the row that created them: ${unpaired.join('; ')}`);
		return `${count} videos, each paired with its row, ${seconds(tookMs)} after the click`;
	};
}

/**
 * Item 3: the Batch Report ran, within "a minute or two"; its canvas and output are the README's
 * pictures.
 */
async function mixedSheet({ walk, person, workflow }: ItemInput): Promise<Outcome> {
	const report = 'Batch Report';
	if (!workflow.nodes.some((node) => node.name === report))
		throw new Error(`${workflow.name} has no "${report}" node`);
	const clicked = await clickExecute(person);
	return async () => {
		const { page } = person;
		await person.nodeSucceeded(report, WAITING_RUN_TIMEOUT_MS);
		const tookMs = Date.now() - clicked;
		if (tookMs > MINUTE_OR_TWO_MS)
			throw new Error(`it took ${seconds(tookMs)}, where the README says "a minute or two"`);
		const runShot = join(walk.screenshotDir, `n8n-${walk.version}-batch-run.png`);
		const reportShot = join(walk.screenshotDir, `n8n-${walk.version}-batch-report.png`);
		await dismissNotifications(page);
		await page.locator('[data-test-id="zoom-to-fit"]').first().click();
		await page.waitForLoadState('networkidle');
		await page.screenshot({ path: runShot, animations: 'disabled' });
		walk.readmeScreenshot(runShot, 'n8n-2-batch-run.png');
		// The report, as a person opens it: the node, its output as JSON.
		await person.dblclick(person.canvasNode(report));
		const output = person.testId('output-panel');
		await person.click(output.locator('[data-test-id="radio-button-json"]').first());
		// Tall enough for the whole report in the JSON view.
		await page.setViewportSize({ width: VIEWPORT.width, height: REPORT_VIEWPORT_HEIGHT });
		await output
			.locator('text=byStatus')
			.first()
			.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
		await page.screenshot({ path: reportShot, animations: 'disabled' });
		walk.readmeScreenshot(reportShot, 'n8n-2-batch-report.png');
		return `"${report}" ran ${seconds(tookMs)} after the click`;
	};
}

/**
 * Closes the "Workflow executed successfully" toast, which would cover part of the picture. It
 * comes when the execution has finished, a moment after the last node shows its result.
 */
async function dismissNotifications(page: Page): Promise<void> {
	const notification = page.locator('.el-notification').first();
	const shown = await notification
		.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS / 3 })
		.then(() => true)
		.catch(() => false);
	if (!shown) return;
	const close = page.locator('.el-notification__closeBtn').first();
	for (let open = await close.count(); open > 0; open--) {
		if (await close.isVisible()) await close.click();
	}
	await notification.waitFor({ state: 'hidden', timeout: UI_TIMEOUT_MS });
}

/** `text` inside a double-quoted CSS attribute value. */
function cssString(text: string): string {
	return text.replace(/["\\]/g, '\\$&');
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * examples/README.md's step 4 for the Data Table batch gives the same clicks: it must name the
 * arrow, the manual trigger by its name in the file and the button's words after the pick
 * (which the walk compares with the button).
 */
function unpairedBatchStep(manualTrigger: string): string[] {
	const step = readmeSteps(BATCH_STEPS_HEADING)[3] ?? '';
	const pattern = new RegExp(
		`\\barrow next\\s+to\\s+\\*\\*Execute workflow\\*\\*.*\\bpick\\s+\\*${escapeRegExp(manualTrigger)}\\*` +
			`.*${BUTTON_WORDS.source}`,
		'is',
	);
	return pattern.test(step)
		? []
		: [
				`examples/README.md's step 4 for ${DATA_TABLE_EXAMPLE} does not match ${pattern}: change the Try-it walk (test/e2e/browser/try-it-walk.ts) with it`,
			];
}

/**
 * The arrow next to Execute workflow, the manual trigger, the button; the button must then read
 * what examples/README.md's step 4 says (n8n 2.41.1 shortens a long trigger name on it).
 */
async function runFromManualTrigger(person: Person, manualTrigger: string): Promise<number> {
	// The arrow has no test id in n8n 2.41.1: the split button's second half, named by its label.
	await person.click(person.page.locator('button[aria-label="Select trigger node"]').first());
	// The menu's items are named by the trigger's full name (their text is shortened).
	await person.click(person.testId(`action-${cssString(manualTrigger)}`));
	const picked = await person.buttonText();
	const readme = (BUTTON_WORDS.exec(readmeSteps(BATCH_STEPS_HEADING)[3] ?? '')?.[1] ?? '').replace(
		/\s+/g,
		' ',
	);
	if (picked !== readme)
		throw new Error(
			`after picking "${manualTrigger}" the button reads "${picked}", where examples/README.md's step 4 says "${readme}"`,
		);
	// Before the click: its promise may settle seconds after n8n started the run.
	const clicked = Date.now();
	await person.click(person.testId('execute-workflow-button'));
	return clicked;
}

function fileOnDisk(n8n: N8nInstance, file: string | null | undefined): boolean {
	return (
		Boolean(file) &&
		existsSync(isAbsolute(file ?? '') ? (file ?? '') : join(n8n.userFolder, file ?? ''))
	);
}

function rowsTable(rows: VideoTableRow[]): string {
	return rows
		.map((row) =>
			[row.id, row.family, row.prompt, row.taskId, row.status, row.finishedAt, row.error, row.file]
				.map((value) => value ?? '-')
				.join(' | '),
		)
		.join('\n      ');
}

/** Data tables, then the table: as a person opens it, for the item's picture. */
async function openTable(person: Person, name: string): Promise<void> {
	const { page, n8n } = person;
	await page.goto(`${n8n.baseUrl}/home/workflows`, { waitUntil: 'load' });
	await person.click(person.testId('project-tabs').locator('text=Data tables').first());
	await person.click(page.locator('[data-test-id="data-table-card"]', { hasText: name }).first());
	await page.waitForLoadState('networkidle');
	await page
		.locator('[data-test-id="data-table-details-view"]')
		.first()
		.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS })
		.catch(() => undefined);
}

/** Item 4: the three clicks, every row done, the table opened, and a second run creating nothing. */
async function dataTableBatch({ walk, person, workflow, text }: ItemInput): Promise<Outcome> {
	const { n8n, tryIt } = walk;
	const manual = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	if (!manual) throw new Error(`${workflow.name} has no manual trigger`);
	const unpaired = unpairedBatchStep(manual.name);
	if (unpaired.length) throw new Error(unpaired.join('; '));
	if (!/\bn8n 2\.x sets the button to wait for a callback\b/i.test(text))
		throw new Error('the README no longer warns that n8n 2.x sets the button to the callback');
	const opened = await person.buttonText();
	if (opened !== TRAP)
		throw new Error(
			`as the workflow opened, the button read "${opened}", not "${TRAP}": the README's warning ("n8n 2.x sets the button to wait for a callback") may be stale`,
		);
	const table = await findVideoTable(n8n, 'video_batch');
	const clicked = await runFromManualTrigger(person, manual.name);
	return async () => {
		const done = (row: VideoTableRow) =>
			Boolean(row.taskId) && Boolean(row.finishedAt) && fileOnDisk(n8n, row.file);
		const rows = await rowsDone(table, done, WAITING_RUN_TIMEOUT_MS);
		if (!rows.every(done))
			throw new Error(
				`not every row of video_batch has its task, file (on disk) and finish time:\n      ${rowsTable(rows)}\n    ${await lastFailure(n8n, workflow.id)}`,
			);
		const first = await endedManualRun(n8n, workflow.id, clicked, WAITING_RUN_TIMEOUT_MS);
		if (first.status !== 'success')
			throw new Error(
				`the first run ended ${first.status}; ${await lastFailure(n8n, workflow.id)}`,
			);
		const firstMs = Date.now() - clicked;
		await openTable(person, table.name);
		await person.page.screenshot({
			path: join(walk.screenshotDir, `n8n-${walk.version}-try-it-4-video_batch.png`),
			animations: 'disabled',
		});

		// "Run it again": the workflow from the list, the same three clicks.
		await openFromList(person, itemName(text));
		const reopened = await person.buttonText();
		const again = await runFromManualTrigger(person, manual.name);
		const second = await endedManualRun(n8n, workflow.id, again, WAITING_RUN_TIMEOUT_MS);
		const prompts = new Set(rows.map((row) => row.prompt ?? ''));
		const createdAgain = videoCreates(tryIt.sim.requests).filter(
			(request) =>
				request.at >= again &&
				request.at <= Date.parse(second.stoppedAt ?? '') + 1_000 &&
				prompts.has(createRequestPrompt(request.body)),
		);
		const createdByRun = (lastRun(second, 'Create Video Tasks')?.data?.main?.[0] ?? []).length;
		const after = await table.rows();
		const retasked = after.filter(
			(row) => row.taskId !== rows.find((before) => before.id === row.id)?.taskId,
		);
		if (second.status !== 'success' || createdAgain.length || createdByRun || retasked.length)
			throw new Error(
				`the second run (${second.status}) created again: ${createdAgain.length} creates at the simulator (${createdAgain
					.map((request) => createRequestPrompt(request.body))
					.join(
						', ',
					)}), ${createdByRun} from Create Video Tasks, ${retasked.length} rows with another task`,
			);
		const reopenedNote = reopened === opened ? '' : `, reopened on "${reopened}"`;
		return `"${opened}"${reopenedNote}; ${rows.length} rows done ${seconds(firstMs)} after the click; run again: nothing created`;
	};
}

/** The table's rows once every one is `done` (or a row failed, or the time ran out). */
async function rowsDone(
	table: VideoTable,
	done: (row: VideoTableRow) => boolean,
	timeoutMs: number,
): Promise<VideoTableRow[]> {
	let rows: VideoTableRow[] = [];
	await until(
		`every row of ${table.name} to be done`,
		timeoutMs,
		async () => {
			rows = await table.rows();
			// A row finished without its result never gets it: no need to wait out the time.
			if (rows.some((row) => row.finishedAt && !done(row))) return true;
			return rows.length > 0 && rows.every(done);
		},
		POLL_MS,
	).catch(() => undefined);
	return rows;
}

/** Item 5: published, and every row's video done within the README's minutes of publishing. */
async function pipeline({ walk, person, workflow, text }: ItemInput): Promise<Outcome> {
	const { n8n, tryIt } = walk;
	const word = /\bWithin (\w+) minutes\b/i.exec(text)?.[1].toLowerCase() ?? '';
	const minutes = NUMBER_WORDS[word] ?? Number(word);
	if (!Number.isFinite(minutes) || minutes <= 0)
		throw new Error(`the README's "Within ${word} minutes" is no number of minutes`);
	const stored = await n8n.rest<WorkflowJson & { active: boolean }>(
		'GET',
		`/workflows/${workflow.id}`,
	);
	if (!stored.active) throw new Error('the workflow is not published');
	const publishedAt = tryIt.publishedAt[workflow.id];
	const deadline = publishedAt + minutes * 60_000;
	const table = await findVideoTable(n8n, 'video_pipeline');
	return async () => {
		const done = (row: VideoTableRow) =>
			row.status === 'succeeded' && Boolean(row.finishedAt) && fileOnDisk(n8n, row.file);
		// Past the deadline, a row still running is late: the rows are read once more, no longer.
		const rows = await rowsDone(table, done, Math.max(deadline - Date.now(), 0) + POLL_MS);
		const late = rows.filter((row) => !done(row) || Date.parse(row.finishedAt ?? '') > deadline);
		if (late.length)
			throw new Error(
				`not every row of video_pipeline has its video within ${minutes} minutes of publishing:\n      ${rowsTable(late)}\n    ${await lastFailure(n8n, workflow.id)}`,
			);
		const lastMs = Math.max(...rows.map((row) => Date.parse(row.finishedAt ?? ''))) - publishedAt;
		await openTable(person, table.name);
		await person.page.screenshot({
			path: join(walk.screenshotDir, `n8n-${walk.version}-try-it-5-video_pipeline.png`),
			animations: 'disabled',
		});
		return `published; ${rows.length} rows with their videos, the last ${seconds(lastMs)} after publishing`;
	};
}

/** How the report names an item: the README's workflow name without "Model Gateway: ". */
function itemTitle(text: string): string {
	return itemName(text).replace(/^Model Gateway:\s*/, '') || text.slice(0, 40);
}

/** What is wrong with the README's list for this walk (empty: paired). */
function unpairedItems(items: string[]): string[] {
	if (items.length !== ITEMS.length)
		return [
			`README.md's "Try it" list has ${items.length} items, the Try-it walk performs ${ITEMS.length}: change both together (test/e2e/browser/try-it-walk.ts)`,
		];
	return items.flatMap((text, index) => {
		const problems: string[] = [];
		if (!itemName(text))
			problems.push(
				`README "Try it" item ${index + 1} names no workflow in bold (**Model Gateway: …**)`,
			);
		if (!ITEMS[index].readme.test(text))
			problems.push(
				`README "Try it" item ${index + 1} ("${itemTitle(text)}") does not mention ${ITEMS[index].readme}`,
			);
		return problems;
	});
}

/**
 * Walks README.md's "Try it" list on an n8n set up as `npm run try-it` sets it up. Returns what
 * went wrong (empty: every item's clicks worked and showed what the README says).
 */
export async function checkTryItWalk(options: {
	line: N8nLine;
	tarball: string;
	screenshotDir: string;
	/** Makes a screenshot just taken one of the README's pictures (the editor check's). */
	readmeScreenshot: (shot: string, name: string) => void;
}): Promise<string[]> {
	const items = readmeSteps(LIST_HEADING, README);
	const unpaired = unpairedItems(items);
	if (unpaired.length) return unpaired;

	const walkStart = Date.now();
	const tryIt = await startTryIt({
		line: options.line,
		tarball: options.tarball,
		log: (text) => process.stdout.write(`  try-it: ${text}\n`),
	});
	const { n8n } = tryIt;
	const walk: WalkContext = {
		tryIt,
		n8n,
		version: n8n.installation.version,
		screenshotDir: options.screenshotDir,
		readmeScreenshot: options.readmeScreenshot,
	};
	const problems: string[] = [];
	const report: string[] = [];
	try {
		await withEditorPage(n8n, async (page) => {
			const setUp = Date.now();
			const pending: Array<Promise<void>> = [];
			for (const [index, item] of ITEMS.entries()) {
				const number = index + 1;
				const text = items[index];
				const title = itemTitle(text);
				const tab = item.meanwhile ? await page.context().newPage() : page;
				const person = new Person(tab, n8n);
				const shot = join(options.screenshotDir, `n8n-${walk.version}-try-it-${number}.png`);
				const started = Date.now();
				const fail = async (error: unknown): Promise<void> => {
					await tab.screenshot({ path: shot, animations: 'disabled' }).catch(() => undefined);
					process.stdout.write(`  FAIL Try-it item ${number}: ${title} -> ${shot}\n`);
					problems.push(
						`n8n ${walk.version}, Try-it item ${number} (${title}): ${error instanceof Error ? error.message : String(error)}`,
					);
					report[index] = `${number} ${title}: failed`;
				};
				const finish = async (outcome: Outcome): Promise<void> => {
					try {
						const note = await outcome();
						await tab.screenshot({ path: shot, animations: 'disabled' });
						report[index] =
							`${number} ${title}: ${person.actions} click${person.actions === 1 ? '' : 's'}, ${seconds(Date.now() - started)} (${note})`;
						process.stdout.write(`  ok   Try-it item ${number}: ${title} -> ${shot}\n`);
					} catch (error) {
						await fail(error);
					} finally {
						if (item.meanwhile) await tab.close().catch(() => undefined);
					}
				};
				try {
					const id = await openFromList(person, itemName(text));
					const expectedId = exampleWorkflowId(item.file);
					if (id !== expectedId)
						throw new Error(
							`"${itemName(text)}" opened workflow ${id}, not ${item.file} (${expectedId})`,
						);
					const workflow = tryIt.workflows.find((candidate) => candidate.id === id);
					if (!workflow) throw new Error(`try-it did not import ${item.file}`);
					const outcome = await item.run({ walk, person, text, workflow });
					const finished = finish(outcome);
					if (item.meanwhile) pending.push(finished);
					else await finished;
				} catch (error) {
					await fail(error);
					if (item.meanwhile) await tab.close().catch(() => undefined);
				}
			}
			await Promise.all(pending);
			process.stdout.write(
				`  Try-it list walked: ${ITEMS.length} items (${report.join('; ')}); ` +
					`${seconds(Date.now() - setUp)} in the editor, ${seconds(Date.now() - walkStart)} with try-it's set-up\n`,
			);
		});
	} finally {
		await tryIt.sim.close();
	}
	return problems;
}

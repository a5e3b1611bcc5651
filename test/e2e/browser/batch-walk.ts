/**
 * "The batch walk": examples/video-data-table-batch.json run the way examples/README.md tells a
 * person to (steps 4 and 5 under "`video-data-table-batch.json`, step by step"), on an n8n that
 * already has the workflow (imported with its id) and the simulator's credentials.
 *
 * The trap it guards against: n8n 2.x sets the Execute workflow button to the community Task
 * Callback Trigger every time the workflow opens; from there the button only waits for a test
 * callback and creates nothing. The README says to click the arrow next to Execute workflow,
 * pick *When clicking ‘Execute workflow’* and click the button, which then runs from there.
 *
 *   1. Publish: through n8n's REST API (the README walk of the pipeline example clicks Publish in
 *      the editor already; here it would only add seconds), then wait until the trigger listens.
 *      Before that, the Wait node is set to 11 s, as the editor check's mixed-batch run does: a
 *      new task's first check is due 10 s after its create, so the shipped wait (70 s or more,
 *      parked in n8n's database) would add a minute to every check run. That wait is the batch
 *      e2e test's (dataTableBatch.e2e.test.ts); this walk is about the clicks.
 *   2. Open the workflow; the button must read "… from Task Callback Trigger" (the README's
 *      warning); when it does not, the warning may be stale and the walk says so.
 *   3. The README's three clicks: the arrow, *When clicking ‘Execute workflow’*, the button
 *      (which must then read what step 4 says it reads: n8n shortens the trigger's name).
 *   4. The first run creates the table `video_batch` (waited for through REST).
 *   5. Rows added through REST (as a person does in Data tables), the workflow opened again and
 *      run with the same three clicks; every row must succeed with its file on disk.
 *
 * It fails when the README's steps 4 and 5 no longer say what the walk clicks, or a row does not
 * succeed within its time.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';

import {
	DATA_TABLE_EXAMPLE,
	SAMPLE_VIDEO_ROWS,
	exampleCallbackPath,
	findVideoTable,
	listTables,
	type VideoTableRow,
} from '../dataTable';
import { EXAMPLES_DIR, EXAMPLE_CREDENTIALS, exampleWorkflowId } from '../examples';
import {
	loadWorkflow,
	seconds,
	until,
	type Execution,
	type JsonObject,
	type N8nInstance,
	type WorkflowJson,
} from '../harness';
import { firstLine, type Locator, type Page } from './playwright';
import { lastFailure, readmeSteps } from './readme-walk';

export const BATCH_WALK_EXAMPLE = DATA_TABLE_EXAMPLE;
/** The README's list this walk follows. */
const STEPS_HEADING = '### `video-data-table-batch.json`, step by step';
const TABLE_NAME = 'video_batch';
const TRIGGER_NAME = 'Task Callback Trigger';
/** Three generic rows and one of Family A, whose task calls back to the trigger. */
const ROWS: VideoTableRow[] = SAMPLE_VIDEO_ROWS.slice(0, 4);

const UI_TIMEOUT_MS = 30_000;
/** The first run (an empty table) takes seconds; the margin is for a busy machine. */
const TABLE_TIMEOUT_MS = 120_000;
/** The second run: creates, an 11-s wait, a check; the rest is margin for a busy machine. */
const ROWS_TIMEOUT_MS = 240_000;
/** Over the 10 s before a new task's first check, under n8n's 65-s limit for waits in memory. */
const WAIT_SECONDS = 11;
const POLL_MS = 2_000;

/** The example as the walk reads it: ids, node names, the manual trigger's name. */
function example(): { workflow: WorkflowJson; id: string; manualTrigger: string } {
	const id = exampleWorkflowId(BATCH_WALK_EXAMPLE);
	const workflow = loadWorkflow(join(EXAMPLES_DIR, BATCH_WALK_EXAMPLE), id);
	const manual = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
	if (!manual) throw new Error(`${BATCH_WALK_EXAMPLE} has no manual trigger`);
	return { workflow, id, manualTrigger: manual.name };
}

function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The button's words after the pick, as step 4 of the README shows them (in bold). */
const BUTTON_WORDS = /\*\*(Execute workflow from [^*]+)\*\*/;

/**
 * What steps 4 and 5 of the README must say for this walk to be theirs: the arrow next to
 * **Execute workflow**, the manual trigger by its name in the file, the button's words after the
 * pick (the walk compares them with the button); rows added to the table and the run as in step 4.
 */
export function unpairedSteps(manualTrigger: string, steps = readmeSteps(STEPS_HEADING)): string[] {
	const name = escapeRegExp(manualTrigger);
	const expected: Array<[number, RegExp]> = [
		[
			4,
			new RegExp(
				`\\bpublish\\b.*\\barrow next\\s+to\\s+\\*\\*Execute workflow\\*\\*.*\\bpick\\s+\\*${name}\\*` +
					`.*${BUTTON_WORDS.source}.*\\b${TABLE_NAME}\\b`,
				'is',
			),
		],
		[5, new RegExp(`\\badd rows\\b.*\\b${TABLE_NAME}\\b.*\\bas in step 4\\b`, 'is')],
	];
	return expected.flatMap(([number, pattern]) => {
		const text = steps[number - 1];
		if (text === undefined)
			return [`examples/README.md lists no step ${number} for ${BATCH_WALK_EXAMPLE}`];
		return pattern.test(text)
			? []
			: [
					`examples/README.md's step ${number} for ${BATCH_WALK_EXAMPLE} does not match ${pattern}: change the batch walk (test/e2e/browser/batch-walk.ts) with it`,
				];
	});
}

/** The button's words, on one line ("Execute workflow from Task Callback Trigger"). */
async function buttonText(button: Locator): Promise<string> {
	return (await button.innerText()).replace(/\s+/g, ' ').trim();
}

/**
 * The button's words after the pick as step 4 shows them, which a person looks for: n8n 2.41.1
 * shortens a long trigger name on the button ("When clicking ‘…workflow’").
 */
export function readmeButtonWords(steps = readmeSteps(STEPS_HEADING)): string {
	return (BUTTON_WORDS.exec(steps[3] ?? '')?.[1] ?? '').replace(/\s+/g, ' ');
}

/** `text` inside a double-quoted CSS attribute value. */
function cssString(text: string): string {
	return text.replace(/["\\]/g, '\\$&');
}

interface Run {
	/** The button's words as the workflow opened, before the pick. */
	opened: string;
	/** ... and after it. */
	picked: string;
}

/**
 * Opens the workflow and runs it as step 4 says: the arrow, the manual trigger, the button.
 * Counts the clicks in `clicks`.
 */
async function runAsStepFour(
	page: Page,
	n8n: N8nInstance,
	id: string,
	manualTrigger: string,
	clicks: { count: number },
): Promise<Run> {
	await page.goto(`${n8n.baseUrl}/workflow/${id}`, { waitUntil: 'load' });
	const button = page.locator('[data-test-id="execute-workflow-button"]').first();
	await button.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	await page.waitForLoadState('networkidle');
	const opened = await buttonText(button);
	// The arrow has no test id in n8n 2.41.1: the split button's second half, named by its label.
	const arrow = page.locator('button[aria-label="Select trigger node"]').first();
	await arrow.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	await arrow.click();
	clicks.count++;
	// The menu's items are named by the trigger's full name (their text is shortened).
	const item = page.locator(`[data-test-id="action-${cssString(manualTrigger)}"]`).first();
	await item.waitFor({ state: 'visible', timeout: UI_TIMEOUT_MS });
	await item.click();
	clicks.count++;
	const picked = await buttonText(button);
	const readme = readmeButtonWords();
	if (picked !== readme)
		throw new Error(
			`after picking "${manualTrigger}" the button reads "${picked}", where examples/README.md's step 4 says "${readme}"`,
		);
	await button.click();
	clicks.count++;
	return { opened, picked };
}

/** The workflow's executions, newest first (manual ones included). */
async function executions(n8n: N8nInstance, id: string): Promise<Execution[]> {
	return (
		await n8n.publicApi<{ data: Execution[] }>('GET', `/executions?workflowId=${id}&limit=20`)
	).data;
}

function rowDone(row: VideoTableRow): boolean {
	return Boolean(row.finishedAt);
}

/** A succeeded row whose file the run wrote (relative paths are n8n's home folder's). */
function rowSucceeded(n8n: N8nInstance, row: VideoTableRow): boolean {
	const file = row.file ?? '';
	return (
		rowDone(row) &&
		row.status === 'succeeded' &&
		file !== '' &&
		existsSync(isAbsolute(file) ? file : join(n8n.userFolder, file))
	);
}

/**
 * Walks steps 4 and 5 of the README for the Data Table batch example on `n8n` (which has it,
 * unpublished, and the simulator's credentials). Returns what went wrong (empty: fine).
 */
export async function checkBatchWalk(
	page: Page,
	n8n: N8nInstance,
	screenshotDir: string,
): Promise<string[]> {
	const version = n8n.installation.version;
	const { workflow, id, manualTrigger } = example();
	const unpaired = unpairedSteps(manualTrigger);
	if (unpaired.length) return unpaired.map((problem) => `n8n ${version}: ${problem}`);
	// The credentials the check imports must be those the file names, or nothing would run.
	const gateway = EXAMPLE_CREDENTIALS.gateway;
	const unwired = workflow.nodes
		.filter((node) => {
			const credential = (node.credentials as JsonObject | undefined)?.[gateway.type] as
				| JsonObject
				| undefined;
			return credential !== undefined && credential.id !== gateway.id;
		})
		.map((node) => node.name);
	if (unwired.length)
		return [
			`n8n ${version}: ${BATCH_WALK_EXAMPLE}'s ${unwired.join(', ')} name another ${gateway.type} credential than ${gateway.id}`,
		];

	const problems: string[] = [];
	const notes: string[] = [];
	const clicks = { count: 0 };
	const started = Date.now();
	const shot = join(screenshotDir, `n8n-${version}-batch-walk.png`);
	let rows: VideoTableRow[] = [];
	try {
		await n8n.updateWorkflow(id, (stored) => {
			const wait = stored.nodes.find((node) => node.type === 'n8n-nodes-base.wait');
			if (!wait) throw new Error(`${BATCH_WALK_EXAMPLE} has no Wait node`);
			wait.parameters = { ...(wait.parameters as JsonObject), amount: WAIT_SECONDS };
		});
		// Step 4's "Publish", through REST; then the trigger must listen, or the run stops at its
		// check of the callback URL.
		await n8n.activateWorkflow(id);
		await n8n.waitForWebhook(exampleCallbackPath(workflow));

		const trap = `Execute workflow from ${TRIGGER_NAME}`;
		const first = await runAsStepFour(page, n8n, id, manualTrigger, clicks);
		const firstClicked = Date.now();
		if (first.opened !== trap)
			problems.push(
				`as the workflow opened, the Execute workflow button read "${first.opened}", not "${trap}": examples/README.md's warning ("n8n 2.x sets the Execute workflow button to the Task Callback Trigger") may be stale`,
			);
		await until(
			`the first run to create the table ${TABLE_NAME}`,
			TABLE_TIMEOUT_MS,
			async () => (await listTables(n8n, TABLE_NAME)).some((table) => table.name === TABLE_NAME),
			POLL_MS,
		).catch(async (error: unknown) => {
			throw new Error(`${firstLine(error)}; ${await lastFailure(n8n, id)}`);
		});
		// A person adds rows once the run has ended; rows added during it could be claimed by it.
		let firstRun: Execution | undefined;
		await until(
			'the first run to end',
			TABLE_TIMEOUT_MS,
			async () => {
				const runs = await executions(n8n, id);
				firstRun = runs.find((run) => run.mode === 'manual');
				return firstRun !== undefined && runs.every((run) => run.stoppedAt !== null);
			},
			POLL_MS,
		);
		if (firstRun?.status !== 'success')
			throw new Error(
				`the first run ended ${firstRun?.status ?? '?'}; ${await lastFailure(n8n, id)}`,
			);
		notes.push(`first run ${seconds(Date.now() - firstClicked)}`);
		const table = await findVideoTable(n8n, TABLE_NAME);
		await table.insert(ROWS);

		// Back from Data tables: the workflow opens again, with the trap again.
		const second = await runAsStepFour(page, n8n, id, manualTrigger, clicks);
		const secondClicked = Date.now();
		notes.unshift(`"${first.opened}" → "${first.picked}"`);
		if (second.opened !== first.opened) notes.push(`reopened: "${second.opened}"`);
		await until(
			'every row to succeed',
			ROWS_TIMEOUT_MS,
			async () => {
				rows = await table.rows();
				// A finished row that did not succeed never will: no need to wait out the time.
				if (rows.some((row) => rowDone(row) && !rowSucceeded(n8n, row))) return true;
				return rows.length === ROWS.length && rows.every((row) => rowSucceeded(n8n, row));
			},
			POLL_MS,
		).catch(() => undefined);
		if (rows.length !== ROWS.length || !rows.every((row) => rowSucceeded(n8n, row)))
			throw new Error(
				`the rows did not all succeed (status succeeded, file on disk); the table shows:\n      ${rows
					.map((row) =>
						[row.id, row.family, row.prompt, row.status, row.finishedAt, row.error, row.file]
							.map((value) => value ?? '-')
							.join(' | '),
					)
					.join('\n      ')}\n    ${await lastFailure(n8n, id)}`,
			);
		notes.push(`rows done ${seconds(Date.now() - secondClicked)} after the second run's click`);
		await page.screenshot({ path: shot, animations: 'disabled' });
	} catch (error) {
		await page.screenshot({ path: shot, animations: 'disabled' }).catch(() => undefined);
		problems.push(error instanceof Error ? error.message : String(error));
	}
	const done = rows.filter((row) => rowSucceeded(n8n, row)).length;
	process.stdout.write(
		`  ${problems.length ? 'FAIL' : 'ok  '} ${BATCH_WALK_EXAMPLE} run the README's way: ${clicks.count} clicks, ${done} rows done in ${seconds(Date.now() - started)} (${notes.join('; ')}) -> ${shot}\n`,
	);
	return problems.map((problem) => `n8n ${version}, batch walk: ${problem}`);
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import {
	EXAMPLES_DIR,
	EXAMPLE_LINES,
	exampleFiles,
	exampleWorkflowId,
	examplesNotOn,
	loadExamples,
} from '../e2e/examples';
import { N8N_VERSIONS, type N8nLine } from '../e2e/harness';

/**
 * Which example works on which n8n line (EXAMPLE_LINES): `npm run try-it` and the e2e suite
 * import into a line only what works there (loadExamples), so an example is never offered where
 * it fails when used.
 */

const LINES = Object.keys(N8N_VERSIONS).map(Number) as N8nLine[];

/** Node types that need n8n 2.x: the Chat Model runs on n8n's AI Node SDK, which 1.x lacks. */
const NEEDS_N8N_2 = ['n8n-nodes-model-gateway.modelGatewayChatModel'];

test('every file in examples/ says which n8n lines it works on, and every listed one exists', () => {
	expect(exampleFiles()).toEqual(Object.keys(EXAMPLE_LINES).sort());
	for (const lines of Object.values(EXAMPLE_LINES)) {
		expect(lines.length).toBeGreaterThan(0);
		for (const line of lines) expect(LINES).toContain(line);
	}
});

test.each(LINES)('n8n %s.x gets exactly the examples that work there', (line) => {
	const imported = loadExamples(line).map((workflow) => workflow.id);
	const expected = Object.keys(EXAMPLE_LINES)
		.sort()
		.filter((file) => EXAMPLE_LINES[file].includes(line));
	expect(imported).toEqual(expected.map(exampleWorkflowId));
	expect(examplesNotOn(line)).toEqual(
		Object.keys(EXAMPLE_LINES)
			.sort()
			.filter((file) => !expected.includes(file)),
	);
});

test('n8n 1.x leaves out the AI Agent example; n8n 2.x, the current line, gets every example', () => {
	expect(examplesNotOn(1)).toEqual(['ai-agent-video.json']);
	expect(examplesNotOn(2)).toEqual([]);
});

test('an example with a node that needs n8n 2.x is imported into 2.x only', () => {
	const needing2 = new Set(
		loadExamples(2)
			.filter((workflow) => workflow.nodes.some((node) => NEEDS_N8N_2.includes(node.type)))
			.map((workflow) => workflow.id),
	);
	expect(needing2.size).toBeGreaterThan(0);
	for (const file of exampleFiles())
		if (needing2.has(exampleWorkflowId(file))) expect(EXAMPLE_LINES[file]).toEqual([2]);
});

/** The parts of an example workflow these checks read. */
interface ExampleShape {
	id: string;
	nodes: Array<{
		name: string;
		type: string;
		typeVersion?: number;
		webhookId?: string;
		disabled?: boolean;
		parameters?: Record<string, unknown>;
		credentials?: Record<string, unknown>;
	}>;
	connections: Record<string, { main?: Array<Array<{ node: string }>> } | undefined>;
}

const DATA_TABLE_EXAMPLES = ['video-data-table-batch.json', 'video-pipeline-data-table.json'];

function dataTableExamples(): ExampleShape[] {
	return loadExamples(1).filter((workflow) =>
		DATA_TABLE_EXAMPLES.map(exampleWorkflowId).includes(workflow.id),
	) as unknown as ExampleShape[];
}

/** The value of a field of an example's Settings node. */
function setting(workflow: ExampleShape, name: string): string {
	const settings = workflow.nodes.find((node) => node.name === 'Settings');
	const assignments = (
		settings?.parameters?.assignments as { assignments?: Array<{ name: string; value: unknown }> }
	)?.assignments;
	const value = assignments?.find((entry) => entry.name === name)?.value;
	if (typeof value !== 'string') throw new Error(`${workflow.id}: no Settings › ${name}`);
	return value;
}

/** What an expression reads from n8n when it runs: a stand-in for each variable it uses. */
interface ExpressionScope {
	$env: Record<string, string | undefined>;
	$execution: { resumeUrl: string };
	$workflow: { id: string };
	/** `$('Node').params`: the node's parameters as stored (expressions unevaluated). */
	$?: (name: string) => { params: Record<string, unknown> | undefined };
}

/**
 * Evaluates a `={{ … }}` field as plain JavaScript with stand-ins for n8n's variables. The
 * fields checked here use nothing but these and the language itself.
 */
function evaluate(expression: string, scope: ExpressionScope): unknown {
	const body = /^=\{\{([\s\S]*)\}\}$/.exec(expression)?.[1];
	if (body === undefined) throw new Error(`not an expression: ${expression}`);
	const run = new Function('$env', '$execution', '$workflow', '$', `return (${body});`) as (
		...args: unknown[]
	) => unknown;
	return run(scope.$env, scope.$execution, scope.$workflow, scope.$);
}

/** `$env` as n8n 2.x gives it by default (N8N_BLOCK_ENV_ACCESS_IN_NODE): every read throws. */
const BLOCKED_ENV = new Proxy(
	{},
	{
		get() {
			throw new Error('access to env vars denied');
		},
	},
) as Record<string, string>;

/** `$execution.resumeUrl` as each line builds it (2.x adds the resume token). */
const RESUME_URL = {
	1: 'http://127.0.0.1:5678/webhook-waiting/41',
	2: 'http://127.0.0.1:5678/webhook-waiting/41?signature=0f3c9a',
} as const;

/**
 * n8n 1.x's default SQLite has no pool, and two executions writing a Data Table at once then fail
 * inside n8n (seen in the suite: a callback's execution beside a batch run). Every example whose
 * Data Table writes can overlap (a trigger lane beside a run, or a schedule) checks this first.
 */
test('every example that writes a Data Table from more than one lane stops first on SQLite without a pool', () => {
	const guarded: string[] = [];
	for (const workflow of loadExamples(1) as unknown as ExampleShape[]) {
		const writes = workflow.nodes.filter(
			(node) =>
				node.type === 'n8n-nodes-base.dataTable' &&
				['update', 'upsert', 'insert'].includes(String(node.parameters?.operation)),
		);
		const triggers = workflow.nodes.filter((node) => /trigger|webhook/i.test(node.type));
		if (writes.length === 0 || triggers.length < 2) continue;
		guarded.push(workflow.id);
		expect(setting(workflow, 'sqliteWithoutPool')).toContain('DB_SQLITE_POOL_SIZE');
		expect(workflow.connections.Settings?.main?.[0]?.[0]?.node).toBe('SQLite Without a Pool?');
		const stopName = workflow.connections['SQLite Without a Pool?']?.main?.[0]?.[0]?.node;
		const stop = workflow.nodes.find((node) => node.name === stopName);
		expect(stop?.type).toBe('n8n-nodes-base.stopAndError');
		expect(String(stop?.parameters?.errorMessage)).toMatch(/Set DB_SQLITE_POOL_SIZE=2/);
	}
	expect(guarded.sort()).toEqual(DATA_TABLE_EXAMPLES.map(exampleWorkflowId));
});

/**
 * The guard stops only a run that would fail: n8n 1.x on SQLite without a pool. n8n 2.x pools
 * SQLite by default (3) and refuses a pool size below 1 (it falls back to 3), so it never stops
 * there, even where `$env` is readable and DB_SQLITE_POOL_SIZE is unset or 0 (issue 42: the
 * batch example created nothing on such a 2.x). The line is told by `$execution.resumeUrl`, which
 * carries `?signature=` on 2.x only (n8n-core's get-additional-keys, read in 1.123.81 and 2.41.1).
 */
test.each([
	['1.x defaults', true, 1, {}],
	['1.x, DB_SQLITE_POOL_SIZE=0', true, 1, { DB_SQLITE_POOL_SIZE: '0' }],
	['1.x, DB_SQLITE_POOL_SIZE=2', false, 1, { DB_SQLITE_POOL_SIZE: '2' }],
	['1.x on Postgres', false, 1, { DB_TYPE: 'postgresdb' }],
	['1.x, $env blocked (cannot tell: runs)', false, 1, BLOCKED_ENV],
	['2.x defaults ($env blocked)', false, 2, BLOCKED_ENV],
	['2.x, $env readable, no pool size', false, 2, {}],
	['2.x, $env readable, DB_SQLITE_POOL_SIZE=0', false, 2, { DB_SQLITE_POOL_SIZE: '0' }],
	['2.x on Postgres', false, 2, { DB_TYPE: 'postgresdb' }],
] as const)('the SQLite guard on %s stops the run: %s', (_case, stops, line, env) => {
	for (const workflow of dataTableExamples()) {
		const scope = {
			$env: env as Record<string, string | undefined>,
			$execution: { resumeUrl: RESUME_URL[line] },
			$workflow: { id: workflow.id },
		};
		expect([workflow.id, evaluate(setting(workflow, 'sqliteWithoutPool'), scope)]).toEqual([
			workflow.id,
			stops,
		]);
	}
});

/**
 * The URL a Data Table example hands out is worked out from n8n's own webhook address (the base
 * of `$execution.resumeUrl`, which follows WEBHOOK_URL) and the trigger's fixed webhookId, so a
 * user copies none. Its secret is in no node and no output (issue 48): the trigger makes it from
 * the credential, and Create Video Tasks adds it to the URL when it sends the create.
 */
test.each([
	['n8n 1.x on localhost', RESUME_URL[1], 'http://127.0.0.1:5678/webhook/'],
	['n8n 2.x on localhost', RESUME_URL[2], 'http://127.0.0.1:5678/webhook/'],
	[
		'n8n behind a proxy (WEBHOOK_URL with a path)',
		'https://automation.example.com/n8n/webhook-waiting/981?signature=ab',
		'https://automation.example.com/n8n/webhook/',
	],
])('the Data Table examples work out their webhook URLs: %s', (_case, resumeUrl, webhookBase) => {
	for (const workflow of dataTableExamples()) {
		const trigger = workflow.nodes.find((node) => node.name === 'Task Callback Trigger');
		const scope: ExpressionScope = {
			$env: {},
			$execution: { resumeUrl },
			$workflow: { id: 'Wf4xY7kQ2pLm9ZrT' },
		};
		expect(evaluate(setting(workflow, 'callbackUrl'), scope)).toBe(
			`${webhookBase}${String(trigger?.webhookId)}/callback`,
		);
	}
});

test('the Data Table examples ship no callback secret: the trigger makes it from the credential, the create adds it', () => {
	for (const workflow of dataTableExamples()) {
		const trigger = workflow.nodes.find((node) => node.name === 'Task Callback Trigger');
		expect(trigger?.typeVersion).toBe(3);
		expect(trigger?.parameters).toEqual({ secretLocation: 'credential', events: 'final' });
		expect(Object.keys(trigger?.credentials ?? {})).toEqual(['modelGatewayApi']);
		// The run checks it first: a trigger set to another secret stops the run before it claims
		// anything (Check the Answers), as Create Video Tasks adds this one.
		const given = (params: Record<string, unknown>): ExpressionScope => ({
			$env: {},
			$execution: { resumeUrl: RESUME_URL[2] },
			$workflow: { id: 'Wf4xY7kQ2pLm9ZrT' },
			$: (name) => ({ params: name === trigger?.name ? params : undefined }),
		});
		const fromCredential = setting(workflow, 'callbackSecretFromCredential');
		expect(evaluate(fromCredential, given(trigger?.parameters ?? {}))).toBe(true);
		expect(evaluate(fromCredential, given({ secretLocation: 'path', secret: 'typed' }))).toBe(
			false,
		);
		expect(evaluate(fromCredential, given({ secretLocation: 'query', secret: 'typed' }))).toBe(
			false,
		);
		const check = workflow.nodes.find((node) => node.name === 'Check the Answers');
		expect(String(check?.parameters?.jsCode)).toContain(
			'settings.callbackSecretFromCredential !== true',
		);
		const create = workflow.nodes.find((node) => node.name === 'Create Video Tasks');
		expect((create?.parameters?.options as Record<string, unknown>).addCallbackSecret).toBe(true);
		expect(JSON.stringify(workflow)).not.toMatch(
			/"secret"|params\.secret(?!Location)|\$workflow\.id \}\}\)/,
		);
	}
});

/**
 * The only door the Data Table examples open to the network is the Task Callback Trigger, which
 * checks its secret first. The pipeline hands each finished video to itself through n8n's
 * Execute Workflow (this same workflow, at its Finished Video trigger): no webhook (issue 48).
 */
test('no Data Table example registers a webhook but the Task Callback Trigger', () => {
	const WEBHOOK_TYPES = /\.(webhook|formTrigger|chatTrigger|mcpTrigger)$/;
	for (const workflow of dataTableExamples()) {
		const doors = workflow.nodes.filter(
			(node) => WEBHOOK_TYPES.test(node.type) || node.type.endsWith('.modelGatewayTaskTrigger'),
		);
		expect(doors.map((node) => node.name)).toEqual(['Task Callback Trigger']);
		const handOn = workflow.nodes.find((node) => node.name === 'Hand On the Finished Video');
		if (!handOn) continue;
		expect(handOn.type).toBe('n8n-nodes-base.executeWorkflow');
		expect(handOn.parameters).toMatchObject({
			workflowId: { value: '={{ $workflow.id }}' },
			mode: 'each',
			options: { waitForSubWorkflow: false },
		});
		const finished = workflow.nodes.find((node) => node.name === 'Finished Video');
		expect(finished?.type).toBe('n8n-nodes-base.executeWorkflowTrigger');
	}
});

test('a Data Table example checks its webhook URLs after the guard and before its first lane', () => {
	for (const workflow of dataTableExamples()) {
		const next = (name: string, output = 0) =>
			(workflow.connections[name]?.main?.[output] ?? []).map((link) => link.node);
		expect(next('SQLite Without a Pool?', 1)).toEqual(['Webhook URLs to Check']);
		expect(next('Webhook URLs to Check')).toEqual(['Ask Each URL']);
		expect(next('Ask Each URL')).toEqual(['Check the Answers']);
		expect(next('Check the Answers')).toEqual(['Set-up Sound?']);
		expect(next('Set-up Sound?', 1)).toEqual(['Stop: Fix a Setting']);
		const lanes = next('Set-up Sound?', 0);
		expect(lanes.length).toBeGreaterThan(0);
		// Every lane starts by reading the table; the pipeline's create lane asks the clock first.
		const firstReads = lanes.map((lane) =>
			lane === 'Time to Create?' ? next('Time to Create?')[0] : lane,
		);
		for (const lane of firstReads)
			expect(workflow.nodes.find((node) => node.name === lane)?.type).toBe(
				'n8n-nodes-base.dataTable',
			);
		const code = String(
			workflow.nodes.find((node) => node.name === 'Webhook URLs to Check')?.parameters?.jsCode,
		);
		expect(code).toContain(`'callbackUrl'`);
	}
});

/** The set-up verdict of the pipeline ('Check the Answers'), run on stand-ins for n8n's variables. */
function pipelineVerdict(
	createHours: string,
	clock: { hour: number; minute: number },
): { ready: boolean; message: string; createNow: boolean } {
	const workflow = dataTableExamples().find(
		(example) => example.id === exampleWorkflowId('video-pipeline-data-table.json'),
	);
	const code = String(
		workflow?.nodes.find((node) => node.name === 'Check the Answers')?.parameters?.jsCode,
	);
	const settings = { callbackUrl: '', callbackSecretFromCredential: true, createHours };
	const $ = (name: string) => ({
		first: () => ({ json: name === 'Settings' ? settings : {} }),
		all: () => [],
	});
	const $input = { all: () => [] };
	const $now = { ...clock, zoneName: 'Europe/Berlin' };
	const run = new Function('$', '$input', '$now', code) as (
		...args: unknown[]
	) => Array<{ json: { ready: boolean; message: string; createNow: boolean } }>;
	return run($, $input, $now)[0].json;
}

/**
 * Issue 55: "every morning" without editing a lane. Settings › createHours gates the create lane
 * by the clock of the workflow's time zone; the schedule stays every minute for the checks.
 */
test('the pipeline creates inside Settings › createHours only, and refuses a window it cannot read', () => {
	const at = (hour: number, minute = 0) => ({ hour, minute });
	const creates = (hours: string, clock: { hour: number; minute: number }) => {
		const verdict = pipelineVerdict(hours, clock);
		expect(verdict).toMatchObject({ ready: true, message: '' });
		return verdict.createNow;
	};
	expect(creates('', at(3))).toBe(true);
	expect(creates('07:00-09:00', at(6, 59))).toBe(false);
	expect(creates('07:00-09:00', at(7))).toBe(true);
	expect(creates('07:00-09:00', at(8, 59))).toBe(true);
	expect(creates('07:00-09:00', at(9))).toBe(false);
	expect(creates(' 7:30 - 8:00 ', at(7, 45))).toBe(true);
	// A window that passes midnight.
	expect(creates('22:00-02:00', at(23, 30))).toBe(true);
	expect(creates('22:00-02:00', at(1, 59))).toBe(true);
	expect(creates('22:00-02:00', at(12))).toBe(false);
	expect(creates('00:00-24:00', at(23, 59))).toBe(true);
	for (const unreadable of ['7-9', 'mornings', '07:00-07:00', '07:00-25:00', '07:60-09:00']) {
		const verdict = pipelineVerdict(unreadable, at(8));
		expect(verdict.ready).toBe(false);
		expect(verdict.message).toBe(
			`Settings › createHours is "${unreadable}": write the hours in which runs create tasks as HH:MM-HH:MM, for example 07:00-09:00 (this workflow's time zone: Europe/Berlin), or leave it empty to create at every run.`,
		);
	}
});

/** The triggers of a Data Table example that start a run (which looks the table up first). */
const RUN_TRIGGERS = ['When clicking ‘Execute workflow’', 'Every Minute'];
/** The data table a callback or a finished video carries (issue 49: no lookup each). */
const CARRIED_TABLE: Record<string, string> = {
	'Attach Task to Its Row': "={{ $('Task Callback Trigger').first().json.query.table }}",
	'Claim the Row for Its Video': "={{ $('Task Callback Trigger').first().json.query.table }}",
};

/** What the finished-video execution's nodes (after Video to Fetch) read: the table it carries. */
const FINISHED_VIDEO_TABLE = "={{ $('Video to Fetch').first().json.table }}";

/**
 * Issue 42: no table pickers. Every Data table node of a Data Table example reads the table of
 * its execution from the *Table* node, which every run reaches first: on n8n 2.x the table found
 * by its exact name or created (the list filter is a substring match, so the exact name is
 * checked after it); on 1.x the one picker, in a disabled node publishing never looks at.
 * Issue 49: callbacks and finished videos skip that lookup; they carry the table's id, which the
 * run that created the task put in the callback URL or the handed-on item.
 */
test('the Data Table examples find their table in every run, with one picker left for n8n 1.x', () => {
	for (const workflow of dataTableExamples()) {
		const next = (name: string, output = 0) =>
			(workflow.connections[name]?.main?.[output] ?? []).map((link) => link.node);
		const triggers = workflow.nodes.filter((node) => /trigger|webhook/i.test(node.type));
		expect(triggers.length).toBeGreaterThanOrEqual(2);
		for (const trigger of triggers)
			expect([trigger.name, next(trigger.name)]).toEqual([
				trigger.name,
				RUN_TRIGGERS.includes(trigger.name)
					? ['n8n 2.x?']
					: trigger.name === 'Task Callback Trigger'
						? ['Names a Row?']
						: ['Video to Fetch'],
			]);
		const lineCheck = workflow.nodes.find((node) => node.name === 'n8n 2.x?');
		const condition = (
			lineCheck?.parameters?.conditions as { conditions: Array<{ leftValue: string }> }
		).conditions[0].leftValue;
		for (const line of [1, 2] as const)
			expect(
				evaluate(condition, {
					$env: {},
					$execution: { resumeUrl: RESUME_URL[line] },
					$workflow: { id: workflow.id },
				}),
			).toBe(line === 2);
		expect(next('n8n 2.x?', 0)).toEqual(['Find the Table']);
		expect(next('n8n 2.x?', 1)).toEqual(['Table']);
		expect(next('Find the Table')).toEqual(['Named Exactly So']);
		expect(next('Named Exactly So')).toEqual(['Table Found?']);
		expect([next('Table Found?', 0), next('Table Found?', 1)]).toEqual([
			['Table'],
			['Create the Table'],
		]);
		expect(next('Create the Table')).toEqual(['Table']);
		expect(next('Table')).toEqual(['Table Ready?']);
		// n8n 1.x drops the parameters of a node version it lacks, so the 1.x message carries the
		// table's name and columns itself: they must be those Create the Table makes on 2.x.
		const create = workflow.nodes.find((node) => node.name === 'Create the Table')?.parameters as {
			tableName: string;
			columns: { column: Array<{ name: string }> };
		};
		const tableOutput = String(
			workflow.nodes.find((node) => node.name === 'Table')?.parameters?.jsonOutput,
		);
		// The column file n8n 1.x users import the table from (Import CSV) has the same header.
		const csv = readFileSync(join(EXAMPLES_DIR, `${create.tableName}.csv`), 'utf8');
		expect(csv).toBe(`${create.columns.column.map((column) => column.name).join(',')}\n`);
		expect(tableOutput).toContain(
			`create the table ${create.tableName} with the Text columns ${create.columns.column
				.map((column) => column.name)
				.join(', ')}, and pick it`,
		);
		const tables = workflow.nodes.filter((node) => node.type === 'n8n-nodes-base.dataTable');
		const pickers = tables.filter(
			(node) => (node.parameters?.dataTableId as { mode?: string } | undefined)?.mode === 'list',
		);
		expect(pickers.map((node) => [node.name, node.disabled])).toEqual([
			['n8n 1.x Only: Pick Your Table Here', true],
		]);
		const afterVideoToFetch = new Set<string>();
		const reach = (name: string) => {
			for (const links of workflow.connections[name]?.main ?? [])
				for (const { node } of links ?? [])
					if (!afterVideoToFetch.has(node)) {
						afterVideoToFetch.add(node);
						reach(node);
					}
		};
		reach('Video to Fetch');
		for (const node of tables.filter((table) => table.parameters?.resource !== 'table'))
			if (!pickers.includes(node))
				expect([node.name, node.parameters?.dataTableId]).toEqual([
					node.name,
					{
						__rl: true,
						mode: 'id',
						value:
							CARRIED_TABLE[node.name] ??
							(afterVideoToFetch.has(node.name)
								? FINISHED_VIDEO_TABLE
								: "={{ $('Table').first().json.id }}"),
					},
				]);
		// What carries the table: the callback URL the run builds, the finished video it hands on.
		const code = (name: string) =>
			JSON.stringify(workflow.nodes.find((node) => node.name === name)?.parameters);
		expect(code('Request Fields')).toContain(
			"&table=${encodeURIComponent($('Table').first().json.id)}",
		);
		if (workflow.nodes.some((node) => node.name === 'The Finished Video'))
			expect(code('The Finished Video')).toContain("table: $('Table').first().json.id");
	}
});

/**
 * A lane that starts at its own trigger runs without the nodes of the others: every node it
 * reaches may read the output (`$('…').first()`, `.item`, …) only of nodes that execution ran, or
 * the expression fails there (a node's `.params` and `.isExecuted` can be read in any case).
 */
test('the Data Table examples: each trigger lane refers only to nodes of its own execution', () => {
	for (const workflow of dataTableExamples()) {
		const reached = (start: string): Set<string> => {
			const seen = new Set<string>([start]);
			const queue = [start];
			while (queue.length > 0)
				for (const output of workflow.connections[queue.shift()!]?.main ?? [])
					for (const link of output ?? [])
						if (!seen.has(link.node)) {
							seen.add(link.node);
							queue.push(link.node);
						}
			return seen;
		};
		for (const trigger of workflow.nodes.filter((node) => /trigger/i.test(node.type))) {
			const ran = reached(trigger.name);
			const strays: string[] = [];
			for (const name of ran) {
				const node = workflow.nodes.find((candidate) => candidate.name === name);
				for (const [, referred] of JSON.stringify(node?.parameters ?? {}).matchAll(
					/\$\('([^']+)'\)\.(?:first|last|all|item)\b/g,
				))
					if (!ran.has(referred)) strays.push(`${name} → ${referred}`);
			}
			expect([workflow.id, trigger.name, strays]).toEqual([workflow.id, trigger.name, []]);
		}
	}
});

/** A callback names its row (and, in the pipeline, its claim) and a table id, or changes nothing. */
test('the Data Table examples take a callback only when it names its row and its table', () => {
	for (const workflow of dataTableExamples()) {
		const names = workflow.nodes.find((node) => node.name === 'Names a Row?')?.parameters as {
			conditions: { conditions: Array<{ leftValue: string }> };
		};
		const body = /^=\{\{([\s\S]*)\}\}$/.exec(names.conditions.conditions[0].leftValue)?.[1];
		const takes = new Function('$json', `return (${String(body)});`) as (json: unknown) => boolean;
		const query = (fields: Record<string, string>) => ({
			query: { claim: '41-1700000000000', ...fields },
		});
		expect(takes(query({ row: '7', table: 'Xb3kQ9rT2mN8pL4v' }))).toBe(true);
		expect(takes(query({ row: '7' }))).toBe(false);
		expect(takes(query({ row: '7', table: '../other' }))).toBe(false);
		expect(takes(query({ row: 'seven', table: 'Xb3kQ9rT2mN8pL4v' }))).toBe(false);
		expect(takes({ query: {} })).toBe(false);
	}
});

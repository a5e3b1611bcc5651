/**
 * The sheet of examples/video-data-table-batch.json, made headlessly: an n8n Data Table with the
 * example's columns, created and filled through the editor's REST API, and the example's Data
 * table nodes pointed at it (what a user does after import). Shared by the e2e tests and the
 * batch benchmark.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { deriveCallbackSecret } from '../../nodes/shared/callbacks/callbackSecret';
import type { RecordedRequest } from '../simulator';
import { EXAMPLES_DIR } from './examples';
import type { JsonObject, N8nInstance, WorkflowJson } from './harness';

export const DATA_TABLE_EXAMPLE = 'video-data-table-batch.json';

/** The table's columns, all text, as the example's note asks. */
export const VIDEO_TABLE_COLUMNS = [
	'prompt',
	'family',
	'model',
	'endpoint',
	'request',
	'claimedAt',
	'taskId',
	'status',
	'taskCreatedAt',
	'file',
	'cost',
	'currency',
	'costPrecision',
	'downloadAttempts',
	'error',
	'finishedAt',
] as const;

export const PIPELINE_EXAMPLE = 'video-pipeline-data-table.json';

/** The pipeline's table: the batch's columns, and who claimed a row or a check, and when. */
export const PIPELINE_TABLE_COLUMNS = [
	...VIDEO_TABLE_COLUMNS,
	'claimedBy',
	'nextCheckAt',
	'lastCheckedAt',
	'checkedBy',
] as const;

export type VideoTableColumn = (typeof PIPELINE_TABLE_COLUMNS)[number];
/** A row as n8n returns it: the columns (null when never written) and n8n's own `id`. */
export type VideoTableRow = Partial<Record<VideoTableColumn, string | null>> & { id?: number };

/** A sheet line as written by hand: family, model, endpoint, prompt, request fields (JSON). */
export type VideoSheetLine = [string, string, string, string, string];

/** Rows from sheet lines, the result columns left empty. */
export function videoRows(lines: VideoSheetLine[]): VideoTableRow[] {
	return lines.map(([family, model, endpoint, prompt, request]) => ({
		family,
		model,
		endpoint,
		prompt,
		request,
	}));
}

/** Create requests of the six families (POST paths). */
const VIDEO_CREATE_PATHS = [
	/^\/v1\/videos$/,
	/^\/vendor-a\/v1\/videos\/(omni-video|image2video|text2video)$/,
	/^\/vendor-b\/v1\/video\/generations$/,
	/^\/vendor-c\/ent\/v2\/reference2video$/,
	/:predictLongRunning$/,
	/^\/v1\/task\/create$/,
];

/** The video creates among recorded gateway requests: each one billed, answered or not. */
export function videoCreates(requests: RecordedRequest[]): RecordedRequest[] {
	return requests.filter(
		(request) =>
			request.method === 'POST' && VIDEO_CREATE_PATHS.some((path) => path.test(request.path)),
	);
}

/** How often each value occurs. */
export function countBy(values: string[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
	return counts;
}

/** The values that occur more than once. */
export function moreThanOnce(values: string[]): string[] {
	return Object.entries(countBy(values))
		.filter(([, count]) => count > 1)
		.map(([value]) => value);
}

/** A valid sheet line of each of the six families: family, model, endpoint, request fields. */
const SIX_FAMILY_LINES: Array<[string, string, string, string]> = [
	['generic', 'video-model-1', '', '{"duration": 6, "size": "768p"}'],
	['familyA', 'kling-video-2', 'omni-video', '{"aspect_ratio": "16:9"}'],
	['familyB', 'hunyuan-video', '', ''],
	['familyC', 'vidu-q1', '', ''],
	['taskS', 'seedance-video-1', '', ''],
	['longRunning', 'veo-3', '', '{"parameters": {"durationSeconds": 8}}'],
];

/** Rows `from` … `from + count - 1`, the six families in turn, each prompt `${prefix} <n> (<family>)`. */
export function sixFamilyRows(prefix: string, from: number, count: number): VideoTableRow[] {
	return videoRows(
		Array.from({ length: count }, (_, offset): VideoSheetLine => {
			const index = from + offset;
			const [family, model, endpoint, request] = SIX_FAMILY_LINES[index % SIX_FAMILY_LINES.length];
			return [family, model, endpoint, `${prefix} ${index + 1} (${family})`, request];
		}),
	);
}

/** The prompt of a create request, wherever its family puts it ('' when it has none). */
export function createRequestPrompt(body: unknown): string {
	if (typeof body !== 'object' || body === null) return '';
	const fields = body as {
		prompt?: unknown;
		Prompt?: unknown;
		content?: Array<{ text?: unknown }>;
		instances?: Array<{ prompt?: unknown }>;
	};
	const prompt =
		fields.prompt ??
		fields.Prompt ??
		fields.content?.find((part) => typeof part.text === 'string')?.text ??
		fields.instances?.[0]?.prompt;
	return typeof prompt === 'string' ? prompt : '';
}

export interface VideoTable {
	id: string;
	name: string;
	/** Every row, oldest first. */
	rows(): Promise<VideoTableRow[]>;
	insert(rows: VideoTableRow[]): Promise<void>;
}

/**
 * Rows to try the example with: five families, one row per line of a marketing sheet. Task family
 * S is left out because its first check is allowed only 10 minutes after creation.
 */
export const SAMPLE_VIDEO_ROWS: VideoTableRow[] = videoRows([
	['generic', 'video-model-1', '', 'A lighthouse at dusk', '{"duration": 6, "size": "768p"}'],
	['generic', 'video-model-1', '', 'Rain on a window at night', ''],
	['generic', 'video-model-1', '', 'A sneaker turning slowly', ''],
	[
		'familyA',
		'kling-video-2',
		'omni-video',
		'A red kite over green hills',
		'{"aspect_ratio": "16:9"}',
	],
	[
		'familyA',
		'kling-video-2',
		'omni-video',
		'A paper plane over a city',
		'{"aspect_ratio": "9:16"}',
	],
	[
		'familyA',
		'kling-video-2',
		'image2video',
		'The garden photo comes alive',
		'{"image": "https://example.com/garden.png"}',
	],
	['familyB', 'hunyuan-video', '', 'A bicycle leaning on a wall', ''],
	['familyB', 'hunyuan-video', '', 'Leaves falling in a park', ''],
	['familyC', 'vidu-q1', '', 'Two friends talking in a cafe', ''],
	['familyC', 'vidu-q1', '', 'A cat watching birds', ''],
	['familyC', 'vidu-q1', '', 'A train crossing a bridge', ''],
	['longRunning', 'veo-3', '', 'Waves rolling onto a beach', ''],
]);

/** n8n's REST API answers at most 250 rows per page (MAX_ITEMS_PER_PAGE). */
const PAGE = 250;

/** The data tables of the owner's personal project, through n8n's REST API. */
async function personalTables(n8n: N8nInstance): Promise<string> {
	const project = await n8n.rest<{ id: string }>('GET', '/projects/personal');
	return `/projects/${project.id}/data-tables`;
}

/** Creates the table in the owner's personal project and fills it (250 rows per request). */
export async function createVideoTable(
	n8n: N8nInstance,
	rows: VideoTableRow[],
	name = 'video_batch',
	columns: readonly string[] = VIDEO_TABLE_COLUMNS,
): Promise<VideoTable> {
	const tables = await personalTables(n8n);
	const { id } = await n8n.rest<{ id: string }>('POST', tables, {
		name,
		columns: columns.map((column) => ({ name: column, type: 'string' })),
	});
	const table = openVideoTable(n8n, tables, id, name);
	await table.insert(rows);
	return table;
}

/**
 * Creates a table from one of the examples' column files (`examples/<name>.csv`: the header row
 * only) as the editor's *Import CSV* does on both lines: the file uploaded, then the table
 * created with the columns n8n read from it. How n8n 1.x users get the columns without typing
 * them.
 */
export async function createVideoTableFromCsv(n8n: N8nInstance, name: string): Promise<VideoTable> {
	const file = join(EXAMPLES_DIR, `${name}.csv`);
	const upload = await n8n.restUpload<{
		id: string;
		columns: Array<{ name: string; type: string }>;
	}>(
		'/data-tables/uploads',
		{ name: `${name}.csv`, type: 'text/csv', content: readFileSync(file, 'utf8') },
		{ hasHeaders: 'true' },
	);
	const tables = await personalTables(n8n);
	const { id } = await n8n.rest<{ id: string }>('POST', tables, {
		name,
		columns: upload.columns.map((column) => ({ name: column.name, type: column.type })),
		fileId: upload.id,
		hasHeaders: true,
	});
	return openVideoTable(n8n, tables, id, name);
}

/** A table of the personal project as the tests read and fill it. */
function openVideoTable(n8n: N8nInstance, tables: string, id: string, name: string): VideoTable {
	return {
		id,
		name,
		async rows() {
			const all: VideoTableRow[] = [];
			for (;;) {
				const page = await n8n.rest<{ count: number; data: VideoTableRow[] }>(
					'GET',
					`${tables}/${id}/rows?take=${PAGE}&skip=${all.length}&sortBy=id:asc`,
				);
				all.push(...page.data);
				if (page.data.length === 0 || all.length >= page.count) return all;
			}
		},
		async insert(more) {
			for (let start = 0; start < more.length; start += PAGE) {
				// 1.x requires returnType; 2.x accepts it.
				await n8n.rest('POST', `${tables}/${id}/insert`, {
					data: more.slice(start, start + PAGE),
					returnType: 'id',
				});
			}
		},
	};
}

/** A data table as n8n lists it: its columns in their order. */
export interface ListedTable {
	id: string;
	name: string;
	columns: Array<{ name: string; type: string }>;
}

/** The personal project's tables whose names contain `name` (n8n's own filter). */
export async function listTables(n8n: N8nInstance, name: string): Promise<ListedTable[]> {
	return await listTablesOf(n8n, await personalTables(n8n), name);
}

async function listTablesOf(
	n8n: N8nInstance,
	tables: string,
	name: string,
): Promise<ListedTable[]> {
	const filter = encodeURIComponent(JSON.stringify({ name }));
	const page = await n8n.rest<{ data: ListedTable[] }>(
		'GET',
		`${tables}?filter=${filter}&take=100`,
	);
	return page.data;
}

/** The table named exactly `name` (the examples create it on n8n 2.x), to read and fill. */
export async function findVideoTable(n8n: N8nInstance, name: string): Promise<VideoTable> {
	const tables = await personalTables(n8n);
	const found = (await listTablesOf(n8n, tables, name)).find((table) => table.name === name);
	if (!found) throw new Error(`no data table named ${name}`);
	return openVideoTable(n8n, tables, found.id, name);
}

/** Deletes a table of the personal project. */
export async function deleteTable(n8n: N8nInstance, id: string): Promise<void> {
	await n8n.rest('DELETE', `${await personalTables(n8n)}/${id}`);
}

/**
 * Points an example at a table, as a user does: the name its n8n 2.x branch finds (the *Create
 * the Table* node's) and the table picked for n8n 1.x, which cannot find tables by name.
 */
export function useVideoTable(workflow: WorkflowJson, table: { id: string; name: string }): void {
	const node = (name: string) => {
		const found = workflow.nodes.find((candidate) => candidate.name === name);
		if (!found) throw new Error(`the example has no node ${name}`);
		return found.parameters as JsonObject;
	};
	node(CREATE_TABLE_NODE).tableName = table.name;
	const picker = node(PICK_TABLE_NODE);
	picker.dataTableId = { ...(picker.dataTableId as JsonObject), value: table.id };
}

/** The columns an example creates its table with (n8n 2.x), in their order. */
export function exampleTableColumns(workflow: WorkflowJson): string[] {
	const create = workflow.nodes.find((node) => node.name === CREATE_TABLE_NODE);
	const columns = (
		(create?.parameters as JsonObject | undefined)?.columns as JsonObject | undefined
	)?.column as Array<{ name: string }> | undefined;
	if (!columns) throw new Error(`the example has no ${CREATE_TABLE_NODE} node with columns`);
	return columns.map((column) => column.name);
}

/** The node of the Data Table examples that names their table and its columns. */
export const CREATE_TABLE_NODE = 'Create the Table';
/** Where n8n 1.x users pick the table (1.x cannot find one by name). */
export const PICK_TABLE_NODE = 'n8n 1.x Only: Pick Your Table Here';

/**
 * The production path of an example's Task Callback Trigger: its webhookId, then `callback` (the
 * shipped secret is made from the credential and travels as `?secret=`, see
 * exampleCallbackSecret), or a secret typed into it in the URL path. The
 * Settings node works the URL out the same way.
 */
export function exampleCallbackPath(workflow: WorkflowJson): string {
	const trigger = workflow.nodes.find((node) => node.name === 'Task Callback Trigger');
	if (!trigger?.webhookId) throw new Error('the example has no Task Callback Trigger');
	const parameters = trigger.parameters as JsonObject;
	return parameters.secretLocation === 'path'
		? `${trigger.webhookId}/${String(parameters.secret)}`
		: `${trigger.webhookId}/callback`;
}

/**
 * The secret the shipped trigger makes from the gateway credential (the simulator's key), as
 * Create Video Tasks adds it to a callback URL: for tasks a test creates itself.
 */
export function exampleCallbackSecret(apiKey: string): string {
	return deriveCallbackSecret(apiKey);
}

/** Sets a field of the example's Settings node (e.g. `callbackUrl`). */
export function setExampleSetting(
	workflow: WorkflowJson,
	name: string,
	value: string | number,
): void {
	exampleSettingAssignment(workflow, name).value = value;
}

/** A setting of an example's *Settings* node, as the workflow holds it. */
export function exampleSetting(workflow: WorkflowJson, name: string): unknown {
	return exampleSettingAssignment(workflow, name).value;
}

function exampleSettingAssignment(workflow: WorkflowJson, name: string): JsonObject {
	const settings = workflow.nodes.find((node) => node.name === 'Settings');
	const assignments = (
		(settings?.parameters as JsonObject | undefined)?.assignments as JsonObject | undefined
	)?.assignments as JsonObject[] | undefined;
	const assignment = assignments?.find((entry) => entry.name === name);
	if (!assignment) throw new Error(`the example has no setting ${name}`);
	return assignment;
}

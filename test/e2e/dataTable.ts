/**
 * The sheet of examples/video-data-table-batch.json, made headlessly: an n8n Data Table with the
 * example's columns, created and filled through the editor's REST API, and the example's Data
 * table nodes pointed at it (what a user does after import). Shared by the e2e tests and the
 * batch benchmark.
 */
import type { RecordedRequest } from '../simulator';
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

/** Creates the table in the owner's personal project and fills it (250 rows per request). */
export async function createVideoTable(
	n8n: N8nInstance,
	rows: VideoTableRow[],
	name = 'video_batch',
	columns: readonly VideoTableColumn[] = VIDEO_TABLE_COLUMNS,
): Promise<VideoTable> {
	const project = await n8n.rest<{ id: string }>('GET', '/projects/personal');
	const tables = `/projects/${project.id}/data-tables`;
	const { id } = await n8n.rest<{ id: string }>('POST', tables, {
		name,
		columns: columns.map((column) => ({ name: column, type: 'string' })),
	});
	const table: VideoTable = {
		id,
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
	await table.insert(rows);
	return table;
}

/** Points every Data table node of a workflow at the table, as a user does after import. */
export function useVideoTable(workflow: WorkflowJson, tableId: string): void {
	for (const node of workflow.nodes) {
		if (node.type !== 'n8n-nodes-base.dataTable') continue;
		const parameters = node.parameters as JsonObject;
		parameters.dataTableId = { ...(parameters.dataTableId as JsonObject), value: tableId };
	}
}

/**
 * The production path of an example's Task Callback Trigger: its webhookId, then its secret,
 * which the examples set to the workflow's id (so that the Settings node can work the URL out).
 */
export function exampleCallbackPath(workflow: WorkflowJson): string {
	const trigger = workflow.nodes.find((node) => node.name === 'Task Callback Trigger');
	if (!trigger?.webhookId || !workflow.id)
		throw new Error('the example has no Task Callback Trigger');
	return `${trigger.webhookId}/${workflow.id}`;
}

/** Sets a field of the example's Settings node (e.g. `callbackUrl`). */
export function setExampleSetting(
	workflow: WorkflowJson,
	name: string,
	value: string | number,
): void {
	const settings = workflow.nodes.find((node) => node.name === 'Settings');
	const assignments = (
		(settings?.parameters as JsonObject | undefined)?.assignments as JsonObject | undefined
	)?.assignments as JsonObject[] | undefined;
	const assignment = assignments?.find((entry) => entry.name === name);
	if (!assignment) throw new Error(`the example has no setting ${name}`);
	assignment.value = value;
}

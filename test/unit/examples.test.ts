import {
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

/** The parts of an example workflow this check reads. */
interface ExampleShape {
	id: string;
	nodes: Array<{ name: string; type: string; parameters?: Record<string, unknown> }>;
	connections: Record<string, { main?: Array<Array<{ node: string }>> } | undefined>;
}

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
		const settings = workflow.nodes.find((node) => node.name === 'Settings');
		expect(JSON.stringify(settings?.parameters)).toContain('DB_SQLITE_POOL_SIZE');
		expect(workflow.connections.Settings?.main?.[0]?.[0]?.node).toBe('SQLite Without a Pool?');
		const stopName = workflow.connections['SQLite Without a Pool?']?.main?.[0]?.[0]?.node;
		const stop = workflow.nodes.find((node) => node.name === stopName);
		expect(stop?.type).toBe('n8n-nodes-base.stopAndError');
		expect(String(stop?.parameters?.errorMessage)).toMatch(/Set DB_SQLITE_POOL_SIZE=2/);
	}
	expect(guarded.sort()).toEqual(
		['video-data-table-batch.json', 'video-pipeline-data-table.json'].map(exampleWorkflowId),
	);
});

/**
 * The example workflows users import (examples/*.json), the n8n lines each works on, and the
 * credentials they reference. The end-to-end suite and the "try it" command both use these, so
 * the examples never rot and each line gets only the examples that work there.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import {
	N8N_FILES_FOLDER,
	REPO_ROOT,
	loadWorkflow,
	type CredentialJson,
	type N8nLine,
	type WorkflowJson,
} from './harness';

export const EXAMPLES_DIR = join(REPO_ROOT, 'examples');

const BOTH_LINES: readonly N8nLine[] = [1, 2];

/**
 * Every example and the n8n lines it works on: the one place that says so. The e2e suite and
 * `npm run try-it` import an example only into these lines; loading fails when a file in
 * examples/ is missing here or a name here has no file, so a new example must say where it works.
 */
export const EXAMPLE_LINES: Readonly<Record<string, readonly N8nLine[]>> = {
	// The Model Gateway Chat Model runs on n8n's AI Node SDK, which n8n 1.x does not have:
	// activating the workflow there fails ("Cannot read properties of undefined (reading 'execute')").
	'ai-agent-video.json': [2],
	'asset-review-routing.json': BOTH_LINES,
	'chat.json': BOTH_LINES,
	'image-edit.json': BOTH_LINES,
	'responses-chaining.json': BOTH_LINES,
	'task-callback-create.json': BOTH_LINES,
	'task-callback-react.json': BOTH_LINES,
	'task-callback-sweeper.json': BOTH_LINES,
	'video-all-families.json': BOTH_LINES,
	'video-batch-durable-loop.json': BOTH_LINES,
	'video-batch.json': BOTH_LINES,
	'video-data-table-batch.json': BOTH_LINES,
	'video-pipeline-data-table.json': BOTH_LINES,
	'video-sheet-mixed-batch.json': BOTH_LINES,
};

/**
 * Credential ids and names the examples reference. n8n matches an imported workflow's
 * credential by id first, then by name, so a user who created their own credentials under these
 * names gets them wired up too.
 */
export const EXAMPLE_CREDENTIALS = {
	gateway: { id: 'mgSimulatorApi001', name: 'Model Gateway (simulator)', type: 'modelGatewayApi' },
	assetReview: {
		id: 'mgSimulatorReview1',
		name: 'Model Gateway Asset Review (simulator)',
		type: 'modelGatewayAssetReviewApi',
	},
} as const;

export interface SimulatorEndpoints {
	baseUrl: string;
	identityUrl: string;
	apiKey: string;
	accessToken: string;
}

/** Both credentials, pointing at a running gateway simulator. */
export function simulatorCredentials(sim: SimulatorEndpoints): CredentialJson[] {
	return [
		{ ...EXAMPLE_CREDENTIALS.gateway, data: { baseUrl: sim.baseUrl, apiKey: sim.apiKey } },
		{
			...EXAMPLE_CREDENTIALS.assetReview,
			data: { identityUrl: sim.identityUrl, accessToken: sim.accessToken },
		},
	];
}

/**
 * The workflow id an example gets: `ex` + its file name's letters and digits, 16 characters at
 * most, like the ids n8n generates (n8n keeps a trigger's static data only for such ids).
 */
export function exampleWorkflowId(fileName: string): string {
	return `ex${fileName.replace(/\.json$/, '').replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 16);
}

/** The file names of examples/*.json, sorted, checked against EXAMPLE_LINES. */
export function exampleFiles(): string[] {
	const files = readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort();
	const unlisted = files.filter((file) => !Object.hasOwn(EXAMPLE_LINES, file));
	const missing = Object.keys(EXAMPLE_LINES).filter((file) => !files.includes(file));
	if (unlisted.length || missing.length)
		throw new Error(
			`EXAMPLE_LINES (test/e2e/examples.ts) and examples/ differ: ${[
				...unlisted.map((file) => `${file} has no n8n lines listed`),
				...missing.map((file) => `${file} is listed but not in examples/`),
			].join('; ')}`,
		);
	const ids = new Set(files.map(exampleWorkflowId));
	if (ids.size !== files.length) throw new Error('two examples would get the same workflow id');
	return files;
}

/** The examples that work on n8n line `line`, each with its fixed id. */
export function loadExamples(line: N8nLine): WorkflowJson[] {
	return exampleFiles()
		.filter((file) => EXAMPLE_LINES[file].includes(line))
		.map((file) => loadWorkflow(join(EXAMPLES_DIR, file), exampleWorkflowId(file)));
}

/** The examples that do not work on n8n line `line` (file names): left out of its imports. */
export function examplesNotOn(line: N8nLine): string[] {
	return exampleFiles().filter((file) => !EXAMPLE_LINES[file].includes(line));
}

/**
 * Where `video-sheet-mixed-batch.json` writes its videos: relative to the folder n8n runs in
 * (the harness runs n8n in its home folder, as n8n's Docker image does), inside the folder
 * n8n 2.x lets file nodes write to.
 */
export const EXAMPLE_VIDEO_FOLDER = `${N8N_FILES_FOLDER}/model-gateway-videos`;

/** Creates the folders the examples write to, as the example's note asks its user to. */
export function createExampleFolders(n8nHome: string): string {
	const videos = join(n8nHome, EXAMPLE_VIDEO_FOLDER);
	mkdirSync(videos, { recursive: true });
	return videos;
}

/** The Wait node of the shipped loops (Still Running → Wait → Check Videos). */
export const LOOP_WAIT_NODE = 'Wait Until Next Check';
/**
 * What the shipped loops wait at the least: Wait for Task's `nextCheckInSeconds` is never under
 * 70 s, so that n8n stores the wait in its database (it keeps waits under 65 s in memory).
 */
export const SHIPPED_LOOP_WAIT_SECONDS = 70;
/** The shortened wait: one check interval and a second, so each pass finds the tasks due again. */
export const SHORT_LOOP_WAIT_SECONDS = 11;

/**
 * The workflow with its loop's Wait shortened to at most 11 s, for tests whose promise is not the
 * stored wait. That promise has its own tests, with the shipped wait: waitForTask.e2e.test.ts
 * (every wait of the loop is stored, both lines) and queueMode.e2e.test.ts (a restart inside the
 * stored wait). A 70-s wait resumed by n8n's minute-long wait tracker costs such a test 70–130 s
 * per pass. The amount still reads `nextCheckInSeconds`: a test that shortens the wait asserts
 * the value the shipped wait would have used (SHIPPED_LOOP_WAIT_SECONDS or more).
 */
export function withShortLoopWait(workflow: WorkflowJson): WorkflowJson {
	const shipped = '={{ $json.nextCheckInSeconds }}';
	let found = false;
	const nodes = workflow.nodes.map((node) => {
		if (node.name !== LOOP_WAIT_NODE) return node;
		const parameters = node.parameters as { amount?: string };
		if (parameters.amount !== shipped)
			throw new Error(`${workflow.name}: ${LOOP_WAIT_NODE} no longer waits ${shipped}`);
		found = true;
		return {
			...node,
			parameters: {
				...parameters,
				amount: `={{ Math.min($json.nextCheckInSeconds, ${SHORT_LOOP_WAIT_SECONDS}) }}`,
			},
		};
	});
	if (!found) throw new Error(`${workflow.name} has no ${LOOP_WAIT_NODE} node`);
	return { ...workflow, nodes };
}

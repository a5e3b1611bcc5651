/**
 * The example workflows users import (examples/*.json) and the credentials they reference.
 * The end-to-end suite and the "try it" command both use these, so the examples never rot.
 */
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import {
	N8N_FILES_FOLDER,
	REPO_ROOT,
	loadWorkflow,
	type CredentialJson,
	type WorkflowJson,
} from './harness';

export const EXAMPLES_DIR = join(REPO_ROOT, 'examples');

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

/** Every examples/*.json, with its fixed id. */
export function loadExamples(): WorkflowJson[] {
	const files = readdirSync(EXAMPLES_DIR)
		.filter((file) => file.endsWith('.json'))
		.sort();
	const ids = new Set(files.map(exampleWorkflowId));
	if (ids.size !== files.length) throw new Error('two examples would get the same workflow id');
	return files.map((file) => loadWorkflow(join(EXAMPLES_DIR, file), exampleWorkflowId(file)));
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

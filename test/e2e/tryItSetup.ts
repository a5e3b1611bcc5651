/**
 * What `npm run try-it` sets up, in one place: the gateway simulator with the try-it task
 * durations, a real n8n with the packed package, the simulator credentials, every example that
 * works on the line (EXAMPLE_LINES in examples.ts) and an owner account; the examples' folders;
 * the callback-reacting workflow active; the Data Table examples with their tables (12 sample
 * rows each) and published. try-it.ts runs it on fixed ports for a person; the browser check's
 * Try-it walk (browser/try-it-walk.ts) runs it on free ports and clicks what README.md's "Try it"
 * list says, so the list is walked on exactly what the command gives.
 */
import { startSimulator, type Simulator } from '../simulator';
import {
	DATA_TABLE_EXAMPLE,
	PIPELINE_EXAMPLE,
	PIPELINE_TABLE_COLUMNS,
	SAMPLE_VIDEO_ROWS,
	VIDEO_TABLE_COLUMNS,
	createVideoTable,
	useVideoTable,
} from './dataTable';
import {
	createExampleFolders,
	exampleWorkflowId,
	examplesNotOn,
	loadExamples,
	simulatorCredentials,
} from './examples';
import {
	N8N_VERSIONS,
	startN8n,
	type N8nInstance,
	type N8nLine,
	type WorkflowJson,
} from './harness';

/** The simulator's task durations in try-it (SIM_QUEUED_MS, SIM_RUNNING_MS override them). */
export const TRY_IT_QUEUED_MS = 1000;
export const TRY_IT_RUNNING_MS = 3000;

const CALLBACK_REACT_ID = exampleWorkflowId('task-callback-react.json');
const DATA_TABLE_ID = exampleWorkflowId(DATA_TABLE_EXAMPLE);
const PIPELINE_ID = exampleWorkflowId(PIPELINE_EXAMPLE);

/** The tables try-it gives the Data Table examples, by workflow id. */
export const TRY_IT_TABLES = [
	{ workflowId: DATA_TABLE_ID, name: 'video_batch', columns: VIDEO_TABLE_COLUMNS },
	{ workflowId: PIPELINE_ID, name: 'video_pipeline', columns: PIPELINE_TABLE_COLUMNS },
] as const;

export interface TryItOptions {
	line: N8nLine;
	/** The packed package (packPackage). */
	tarball: string;
	/** n8n's editor port; default: a free one (reservePort). */
	n8nPort?: number;
	/** The simulator's ports; 0 or unset: free ones. */
	simPort?: number;
	identityPort?: number;
	queuedMs?: number;
	runningMs?: number;
	/** The simulator's rate-limit mode (0: off, try-it's default). */
	rateLimitEvery?: number;
	rateLimitPerSecond?: number;
	/** Progress lines ("Gateway simulator on …"); default: none. */
	log?: (line: string) => void;
	/**
	 * Filled as each part starts, so that a caller stopped half-way (Ctrl-C during start) can
	 * stop what already runs.
	 */
	started?: { sim?: Simulator; n8n?: N8nInstance };
}

export interface TryIt {
	sim: Simulator;
	n8n: N8nInstance;
	/** The examples imported (with their ids). */
	workflows: WorkflowJson[];
	/** Where the batch examples write their videos. */
	videoFolder: string;
	/** When each published Data Table example was published (Date.now()), by workflow id. */
	publishedAt: Record<string, number>;
}

/**
 * Starts the simulator and n8n as try-it does. On failure it stops what it started and throws;
 * on success the caller stops both (n8n.stop(), sim.close()).
 */
export async function startTryIt(options: TryItOptions): Promise<TryIt> {
	const { line } = options;
	const log = options.log ?? (() => undefined);
	const started = options.started ?? {};
	try {
		const sim = await startSimulator({
			port: options.simPort ?? 0,
			identityPort: options.identityPort ?? 0,
			queuedMs: options.queuedMs ?? TRY_IT_QUEUED_MS,
			runningMs: options.runningMs ?? TRY_IT_RUNNING_MS,
			// The simulator's rate-limit mode, off unless asked for (see test/simulator/README.md).
			rateLimitEvery: options.rateLimitEvery ?? 0,
			rateLimitPerSecond: options.rateLimitPerSecond ?? 0,
		});
		started.sim = sim;
		log(`Gateway simulator on ${sim.baseUrl} (identity host ${sim.identityUrl})`);
		// Only what works on this line: an example imported where it cannot work fails when used.
		const workflows = loadExamples(line);
		log(
			`Starting n8n ${N8N_VERSIONS[line]} with the package and ${workflows.length} example workflow(s)...`,
		);
		const leftOut = examplesNotOn(line);
		if (leftOut.length)
			log(`Not imported, they do not work on n8n ${line}.x: ${leftOut.join(', ')}`);
		const n8n = await startN8n({
			line,
			port: options.n8nPort,
			packages: [options.tarball],
			credentials: simulatorCredentials(sim),
			workflows,
		});
		started.n8n = n8n;
		const videoFolder = createExampleFolders(n8n.userFolder);
		// The callback pair works at once: the reacting workflow listens on the URL the creating
		// workflow's Callback URL names (a local n8n on port 5678).
		for (const workflow of workflows.filter((entry) => entry.id === CALLBACK_REACT_ID)) {
			await n8n.activateWorkflow(workflow.id);
		}
		// The Data Table examples get their tables, filled with sample rows, as a user sets them up
		// after import (the URLs they hand out they work out themselves); published, so their
		// triggers listen and the pipeline's schedule takes new rows every minute.
		const publishedAt: Record<string, number> = {};
		for (const { workflowId, name, columns } of TRY_IT_TABLES) {
			if (!workflows.some((entry) => entry.id === workflowId)) continue;
			const table = await createVideoTable(n8n, SAMPLE_VIDEO_ROWS, name, columns);
			await n8n.updateWorkflow(workflowId, (stored) => useVideoTable(stored, table));
			await n8n.activateWorkflow(workflowId);
			publishedAt[workflowId] = Date.now();
		}
		return { sim, n8n, workflows, videoFolder, publishedAt };
	} catch (error) {
		await started.n8n?.stop();
		await started.sim?.close();
		throw error;
	}
}

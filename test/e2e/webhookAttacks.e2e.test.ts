/**
 * The published Data Table examples, exactly as shipped, attacked from the network the way
 * issue 48 found them open, and broken the way a long day breaks them (issue 54), on each n8n
 * line's defaults (1.x with the SQLite pool the docs ask for; 2.x with its SSRF protection on, as
 * the docs recommend for a public address). One n8n per line serves every test. The pipeline
 * listens on a public address, so:
 *
 * - every webhook n8n registered for them (read from n8n's own webhook table, not listed by
 *   hand) refuses a request without its secret, with a wrong one, and with the workflow's id
 *   (which n8n shows everywhere) as the secret: nothing starts, nothing is fetched;
 * - the old fixed *Finished Video* path is gone;
 * - a final Task family S callback pointing at an internal address, even with the right secret
 *   (as from a leaked URL), changes no row that was not claimed for its task and fetches nothing;
 * - a task id the gateway does not know, written into a row, ends as that row's failure with the
 *   gateway's words; no run stops for it, and the real rows around it finish;
 * - a gateway that redirects to another origin gets the key sent nowhere;
 * - 2.x with SSRF protection on: the pipeline finishes its rows, downloads and callbacks included.
 *
 * And each fault of a long day fails only its own row, no run stops for it:
 * - a file host that fails twice and then serves: the video is written, byte for byte;
 * - a proxy in front of the gateway answering task queries with an HTML 404: no row marked failed;
 * - a `request` cell that is no JSON object, an unknown family: nothing sent, the row says why;
 * - a row's own `callback_url`: dropped, nothing carries the secret elsewhere;
 * - a video the file host has lost (404): its row ends `downloadFailed` with the address, asked once;
 * - a finished callback whose video is a `data:` URL: nothing stored, the row says why.
 */
import { execFile } from 'node:child_process';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { startSimulator, type Simulator } from '../simulator';
import { SAMPLE_MP4 } from '../simulator/media';
import {
	DATA_TABLE_EXAMPLE,
	PIPELINE_EXAMPLE,
	PIPELINE_TABLE_COLUMNS,
	createVideoTable,
	exampleCallbackPath,
	exampleCallbackSecret,
	setExampleSetting,
	sixFamilyRows,
	useVideoTable,
	videoCreates,
	type VideoTable,
	type VideoTableRow,
} from './dataTable';
import {
	EXAMPLES_DIR,
	EXAMPLE_VIDEO_FOLDER,
	createExampleFolders,
	exampleWorkflowId,
	simulatorCredentials,
	withShortLoopWait,
} from './examples';
import {
	N8N_LINES,
	loadWorkflow,
	packPackage,
	startN8n,
	until,
	type JsonObject,
	type N8nInstance,
	type PackedPackage,
	type WorkflowJson,
} from './harness';

const PIPELINE_ID = exampleWorkflowId(PIPELINE_EXAMPLE);
const BATCH_ID = exampleWorkflowId(DATA_TABLE_EXAMPLE);
const FINISH_TIMEOUT_MS = 150_000;
/** n8n 2.x's SSRF protection, allowing only loopback (the simulator, n8n itself). */
const SSRF_PROTECTION = {
	N8N_SSRF_PROTECTION_ENABLED: 'true',
	N8N_SSRF_ALLOWED_IP_RANGES: '127.0.0.1/32',
};

interface Arrival {
	method: string;
	url: string;
	headers: IncomingHttpHeaders;
}

/** A listener on 127.0.0.1 standing for what an attacker would have n8n fetch (metadata, admin). */
async function startInternalListener(): Promise<{
	url: string;
	arrivals: Arrival[];
	server: Server;
}> {
	const arrivals: Arrival[] = [];
	const server = createServer((req, res) => {
		arrivals.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
		res.writeHead(200, { 'content-type': 'video/mp4' });
		res.end(Buffer.from('not a video, an internal secret'));
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, arrivals, server };
}

interface RegisteredWebhook {
	workflowId: string;
	webhookPath: string;
	method: string;
	node: string;
}

/** n8n's own webhook table, read with n8n's own SQLite driver and Node.js. */
async function registeredWebhooks(n8n: N8nInstance): Promise<RegisteredWebhook[]> {
	const driver = join(n8n.installation.dir, 'node_modules', 'sqlite3');
	const script = `const sqlite3 = require(${JSON.stringify(driver)});
const db = new sqlite3.Database(process.argv[1], sqlite3.OPEN_READONLY);
db.all('SELECT "workflowId", "webhookPath", "method", "node" FROM webhook_entity', (error, rows) => {
	if (error) { console.error(error.message); process.exit(1); }
	process.stdout.write(JSON.stringify(rows));
	db.close();
});`;
	const { stdout } = await promisify(execFile)(n8n.installation.nodeBinary, [
		'-e',
		script,
		join(n8n.userFolder, '.n8n', 'database.sqlite'),
	]);
	return JSON.parse(stdout) as RegisteredWebhook[];
}

/** A Task family S final callback as the gateway sends it, its video at `videoUrl`. */
const finalSCallback = (taskId: string, videoUrl: string) => ({
	id: taskId,
	model: 'seedance-video-1',
	status: 'succeeded',
	content: { video_url: videoUrl },
	usage: { completion_tokens: 1000, total_tokens: 1000 },
	created_at: Math.floor(Date.now() / 1000) - 60,
	updated_at: Math.floor(Date.now() / 1000),
});

let sim: Simulator;
let packDir: string;
let gatewayPackage: PackedPackage;

beforeAll(async () => {
	sim = await startSimulator({ queuedMs: 200, runningMs: 600 });
	packDir = mkdtempSync(join(process.env.MG_E2E_RUN_DIR ?? tmpdir(), 'mg-e2e-pack-'));
	gatewayPackage = await packPackage(packDir);
});

afterAll(async () => {
	await sim?.close();
	if (packDir) rmSync(packDir, { recursive: true, force: true });
});

describe.each(N8N_LINES)(
	'n8n line %s.x, on its defaults (2.x: SSRF protection on): the published examples under attack and under the faults of a long day',
	(line) => {
		let n8n: N8nInstance | undefined;
		let internal: Awaited<ReturnType<typeof startInternalListener>>;
		let pipelineTable: VideoTable;
		let batchTable: VideoTable;
		let pipeline: WorkflowJson;

		function running(): N8nInstance {
			if (!n8n) throw new Error('n8n did not start');
			return n8n;
		}

		const byPrompt = async (table: VideoTable, prompt: string): Promise<VideoTableRow> => {
			const row = (await table.rows()).find((candidate) => candidate.prompt === prompt);
			if (!row) throw new Error(`no row ${prompt}`);
			return row;
		};

		beforeAll(async () => {
			internal = await startInternalListener();
			pipeline = loadWorkflow(join(EXAMPLES_DIR, PIPELINE_EXAMPLE), PIPELINE_ID);
			const batch = loadWorkflow(join(EXAMPLES_DIR, DATA_TABLE_EXAMPLE), BATCH_ID);
			n8n = await startN8n({
				line,
				n8nDefaults: true,
				// What the docs ask of n8n 1.x for the Data Table examples; 2.x on its defaults but for
				// n8n's SSRF protection, on as the docs recommend for a public address (only the
				// addresses the gateway and n8n itself need allowed: here both on 127.0.0.1).
				env: line === 1 ? { DB_SQLITE_POOL_SIZE: '2' } : SSRF_PROTECTION,
				packages: [gatewayPackage.tarball],
				credentials: simulatorCredentials(sim),
				workflows: [pipeline, batch],
			});
			createExampleFolders(n8n.userFolder);
			pipelineTable = await createVideoTable(n8n, [], 'video_pipeline', PIPELINE_TABLE_COLUMNS);
			batchTable = await createVideoTable(n8n, [], 'video_batch');
			await n8n.updateWorkflow(PIPELINE_ID, (stored) => {
				useVideoTable(stored, pipelineTable);
				setExampleSetting(stored, 'rowsPerChunk', 6);
				const schedule = stored.nodes.find((node) => node.name === 'Every Minute');
				(schedule?.parameters as JsonObject).rule = {
					interval: [{ field: 'seconds', secondsInterval: 5 }],
				};
			});
			await n8n.updateWorkflow(BATCH_ID, (stored) => useVideoTable(stored, batchTable));
			await n8n.activateWorkflow(PIPELINE_ID);
			await n8n.activateWorkflow(BATCH_ID);
			await n8n.waitForWebhook(exampleCallbackPath(pipeline));
			await n8n.waitForWebhook(exampleCallbackPath(batch));
		}, 300_000);

		afterAll(async () => {
			await n8n?.stop();
			await new Promise((resolve) => internal?.server.close(resolve));
		});

		test('every webhook they register refuses a caller without the secret: nothing starts, nothing is fetched', async () => {
			const n8n = running();
			await pipelineTable.insert([
				{ prompt: 'Just added', family: 'taskS', model: 'seedance-video-1' },
			]);
			const victim = await byPrompt(pipelineTable, 'Just added');
			const webhooks = (await registeredWebhooks(n8n)).filter((webhook) =>
				[PIPELINE_ID, BATCH_ID].includes(webhook.workflowId),
			);
			// The Task Callback Trigger of each, and nothing else (the finished videos need none).
			expect(webhooks.map((webhook) => [webhook.workflowId, webhook.method]).sort()).toEqual(
				[
					[BATCH_ID, 'POST'],
					[PIPELINE_ID, 'POST'],
				].sort(),
			);
			const forged = finalSCallback('cgt-forged-1', `${internal.url}/latest/meta-data/`);
			const answers: number[] = [];
			for (const webhook of webhooks) {
				const url = `/webhook/${webhook.webhookPath}`;
				const query = `row=${String(victim.id)}&claim=x`;
				for (const attempt of [
					`${url}?${query}`,
					`${url}?${query}&secret=wrong-secret-0123456789abcdef`,
					`${url}?${query}&secret=${webhook.workflowId}`,
					`/webhook/${webhook.webhookPath.replace(/\/callback$/, `/${webhook.workflowId}`)}?${query}`,
				]) {
					answers.push((await n8n.http('POST', attempt, { body: forged })).status);
				}
			}
			// The old fixed path of the pipeline's Finished Video webhook: nothing is there.
			answers.push(
				(await n8n.http('POST', '/webhook/model-gateway-finished-video', { body: forged })).status,
			);
			expect(answers.filter((status) => ![401, 403, 404].includes(status))).toEqual([]);
			expect(answers.filter((status) => status === 401)).toHaveLength(webhooks.length);
			// The pipeline goes on meanwhile: the row gets its own task from a real run.
			await until(
				'the row just added to have its task',
				60_000,
				async () => Boolean((await byPrompt(pipelineTable, 'Just added')).taskId),
				1_000,
			);
			expect(internal.arrivals).toEqual([]);
			expect((await byPrompt(pipelineTable, 'Just added')).taskId).not.toBe('cgt-forged-1');
		});

		test('a callback with the right secret changes no row that was not claimed for its task, and fetches nothing', async () => {
			const n8n = running();
			await batchTable.insert([{ prompt: 'Batch row, never run', family: 'taskS', model: 'm' }]);
			const pipelineRow = await byPrompt(pipelineTable, 'Just added');
			const batchRow = await byPrompt(batchTable, 'Batch row, never run');
			const secret = exampleCallbackSecret(sim.apiKey);
			// A leaked URL, re-used for another row: the claim it names is not that row's.
			await pipelineTable.insert([
				{ prompt: 'Added, not yet claimed', family: 'generic', model: 'm' },
			]);
			const unclaimed = await byPrompt(pipelineTable, 'Added, not yet claimed');
			// Each names its table as the workflow's own callback URLs do (a claim too).
			const inPipeline = `table=${pipelineTable.id}`;
			const callbacks = [
				[
					exampleCallbackPath(pipeline),
					`row=${String(pipelineRow.id)}&claim=a-guessed-claim&${inPipeline}`,
				],
				[exampleCallbackPath(pipeline), `row=${String(unclaimed.id)}&claim=&${inPipeline}`],
				[
					exampleCallbackPath(pipeline),
					`row=${String(unclaimed.id)}&claim=a-guessed-claim&${inPipeline}`,
				],
				// Another table named in the pipeline's URL: the batch's row stays as it is.
				[
					exampleCallbackPath(pipeline),
					`row=${String(batchRow.id)}&claim=a-guessed-claim&table=${batchTable.id}`,
				],
				[
					exampleCallbackPath(loadWorkflow(join(EXAMPLES_DIR, DATA_TABLE_EXAMPLE), BATCH_ID)),
					`row=${String(batchRow.id)}&table=${batchTable.id}`,
				],
			];
			// Each a task of its own: the trigger drops a second callback for one task as a duplicate.
			for (const [index, [path, query]] of callbacks.entries()) {
				const forged = finalSCallback(`cgt-forged-2${index}`, `${internal.url}/admin/export`);
				const answer = await n8n.http('POST', `/webhook/${path}?${query}&secret=${secret}`, {
					body: forged,
				});
				expect([answer.status, (JSON.parse(answer.body) as { started?: boolean }).started]).toEqual(
					[200, true],
				);
			}
			// Give the executions time to run to their end.
			await until('the forged callbacks to have been handled', 60_000, async () => {
				const executions = await n8n.publicApi<{ data: Array<{ status: string }> }>(
					'GET',
					`/executions?workflowId=${PIPELINE_ID}&limit=50`,
				);
				return executions.data.every((execution) => execution.status !== 'running');
			});
			expect(internal.arrivals).toEqual([]);
			for (const [table, prompt] of [
				[pipelineTable, 'Just added'],
				[pipelineTable, 'Added, not yet claimed'],
				[batchTable, 'Batch row, never run'],
			] as const) {
				const row = await byPrompt(table, prompt);
				expect(String(row.taskId ?? '')).not.toMatch(/forged/);
				expect(String(row.file ?? '')).not.toMatch(/forged/);
			}
			const batchAfter = await byPrompt(batchTable, 'Batch row, never run');
			expect([batchAfter.taskId, batchAfter.status, batchAfter.finishedAt]).toEqual([
				null,
				null,
				null,
			]);
		});

		test('a poisoned task id fails only its row, with the gateway’s words; the real rows finish; the key follows no redirect', async () => {
			const n8n = running();
			// A row whose task the gateway does not know, due for a check now.
			await pipelineTable.insert([
				{
					prompt: 'Poisoned row',
					family: 'generic',
					model: 'video-model-1',
					taskId: 'video_poisoned_00',
					claimedBy: 'an earlier run',
					status: 'queued',
					nextCheckAt: new Date(Date.now() - 60_000).toISOString(),
					taskCreatedAt: new Date(Date.now() - 120_000).toISOString(),
				},
			]);
			await pipelineTable.insert(
				sixFamilyRows('Real row', 0, 6).filter((row) => row.family !== 'taskS'),
			);
			const realPrompts = sixFamilyRows('Real row', 0, 6)
				.filter((row) => row.family !== 'taskS')
				.map((row) => String(row.prompt));
			await until(
				'the poisoned row failed and every real row finished',
				FINISH_TIMEOUT_MS,
				async () => {
					const rows = await pipelineTable.rows();
					const poisoned = rows.find((row) => row.prompt === 'Poisoned row');
					return (
						poisoned?.status === 'failed' &&
						realPrompts.every((prompt) => rows.find((row) => row.prompt === prompt)?.finishedAt)
					);
				},
				2_000,
			);
			const rows = await pipelineTable.rows();
			expect(rows.find((row) => row.prompt === 'Poisoned row')?.error).toMatch(/not found/i);
			expect(
				realPrompts.map((prompt) => rows.find((row) => row.prompt === prompt)?.status),
			).toEqual(realPrompts.map(() => 'succeeded'));

			// The gateway now redirects everything to the internal listener: a new row's create
			// fails with a redirect not followed, and the key reaches nowhere.
			sim.setOptions({ redirectTo: internal.url });
			try {
				await pipelineTable.insert([
					{ prompt: 'Redirected row', family: 'generic', model: 'video-model-1' },
				]);
				await until(
					'the redirected row recorded as not created',
					FINISH_TIMEOUT_MS,
					async () => Boolean((await byPrompt(pipelineTable, 'Redirected row')).finishedAt),
					2_000,
				);
			} finally {
				sim.setOptions({ redirectTo: '' });
			}
			const redirected = await byPrompt(pipelineTable, 'Redirected row');
			expect(redirected).toMatchObject({ status: 'notCreated', taskId: null });
			expect(redirected.error).toMatch(
				/redirect \(HTTP 307 to http:\/\/127\.0\.0\.1:\d+\), which was not followed/,
			);
			expect(internal.arrivals).toEqual([]);
			// The key and the callback secret appear in nothing n8n wrote.
			const log = readFileSync(n8n.logFile, 'utf8');
			expect(log).not.toContain(sim.apiKey);
			expect(log).not.toContain(exampleCallbackSecret(sim.apiKey));
		});

		test('a trigger set to a secret the creates do not carry stops the run before it claims anything, and says what to do', async () => {
			const n8n = running();
			await batchTable.insert([
				{ prompt: 'Waiting for a good secret', family: 'generic', model: 'm' },
			]);
			const setTrigger = (parameters: JsonObject) =>
				n8n.updateWorkflow(BATCH_ID, (stored) => {
					const trigger = stored.nodes.find((node) => node.name === 'Task Callback Trigger');
					if (trigger) trigger.parameters = parameters;
				});
			await setTrigger({ secretLocation: 'path', secret: 'guessable', events: 'final' });
			try {
				const run = await n8n.runManualWorkflow(BATCH_ID);
				expect(run.execution.status).toBe('error');
				expect(run.execution.data?.resultData.lastNodeExecuted).toBe('Stop: Fix a Setting');
				expect(String(run.execution.data?.resultData.error?.message)).toContain(
					"The Task Callback Trigger's Secret is not Made From the Credential",
				);
			} finally {
				await setTrigger({ secretLocation: 'credential', events: 'final' });
			}
			expect((await byPrompt(batchTable, 'Waiting for a good secret')).claimedAt).toBeNull();
		});

		/**
		 * The batch on a table of its own (the rows earlier tests left unrun stay out of its runs),
		 * its loop waiting 11 s instead of 70.
		 */
		let faultTable: VideoTable | undefined;
		async function batchOnFaultTable(): Promise<VideoTable> {
			if (faultTable) return faultTable;
			const table = await createVideoTable(running(), [], 'video_batch_faults');
			await running().updateWorkflow(BATCH_ID, (stored) => {
				useVideoTable(stored, table);
				stored.nodes = withShortLoopWait(stored).nodes;
			});
			faultTable = table;
			return table;
		}

		test('the faults of a long day each fail only their own row: a file host failing twice, a proxy’s HTML 404s, malformed rows, a row’s own callback_url (batch)', async () => {
			const n8n = running();
			await until('the pipeline’s earlier rows to be settled', FINISH_TIMEOUT_MS, async () =>
				(await pipelineTable.rows()).every((row) => row.finishedAt || !row.claimedBy),
			);
			const faultTable = await batchOnFaultTable();
			const stealer = `${internal.url}/steal`;
			const good = ['Fault day: good one', 'Fault day: good two', 'Fault day: calls elsewhere'];
			await faultTable.insert([
				{ prompt: good[0], family: 'generic', model: 'video-model-1' },
				{ prompt: good[1], family: 'Generic Video', model: 'video-model-1' },
				{
					prompt: 'Fault day: broken request',
					family: 'generic',
					model: 'video-model-1',
					request: '{bad',
				},
				{
					prompt: 'Fault day: null request',
					family: 'generic',
					model: 'video-model-1',
					request: 'null',
				},
				{ prompt: 'Fault day: unknown family', family: 'familyZ', model: 'video-model-1' },
				{
					prompt: good[2],
					family: 'familyA',
					model: 'kling-video-2',
					endpoint: 'omni-video',
					request: JSON.stringify({ aspect_ratio: '16:9', callback_url: stealer }),
				},
			]);
			const createsBefore = videoCreates(sim.requests).length;
			const downloadsBefore = sim.fileDownloads.length;
			// The file host fails its first two answers; a proxy in front of the gateway answers
			// its first three task queries with an HTML 404 page.
			sim.injectFault({ kind: 'status', method: 'GET', path: '/files/', status: 500, times: 2 });
			sim.injectFault({
				kind: 'html-error',
				status: 404,
				method: 'GET',
				path: /^\/(v1\/videos|vendor-a\/v1\/videos)\/[^/]+/,
				times: 3,
			});
			const requestsBefore = sim.requests.length;
			const run = await n8n.runManualWorkflow(BATCH_ID);
			expect(run.execution.status).toBe('success');
			// The proxy's three HTML 404s were met by task queries of this run.
			expect(
				sim.requests
					.slice(requestsBefore)
					.filter((request) => request.method === 'GET' && request.status === 404),
			).toHaveLength(3);

			const rows = await faultTable.rows();
			const row = (prompt: string) => rows.find((candidate) => candidate.prompt === prompt) ?? {};
			// The good rows: one task each, succeeded, their files written byte for byte.
			for (const prompt of good) {
				expect([prompt, row(prompt).status, row(prompt).error]).toEqual([prompt, 'succeeded', '']);
				expect(String(row(prompt).file)).toMatch(new RegExp(`^${EXAMPLE_VIDEO_FOLDER}/`));
				expect(readFileSync(join(n8n.userFolder, String(row(prompt).file)))).toEqual(SAMPLE_MP4);
			}
			// Three videos: two failed answers, then three good ones (a failed one asked again).
			expect(sim.fileDownloads.length - downloadsBefore).toBe(3 + 2);
			// Nothing was sent for the bad rows; each ends with the field and the value.
			const created = videoCreates(sim.requests).slice(createsBefore);
			expect(created).toHaveLength(3);
			for (const [prompt, said] of [
				[
					'Fault day: broken request',
					/"Request Fields of the Item": must be a JSON object, and is \{bad$/,
				],
				[
					'Fault day: null request',
					/"Request Fields of the Item": must be a JSON object, and is null$/,
				],
				['Fault day: unknown family', /"Family of the Item": "familyZ" is not a family/],
			] as const) {
				expect([prompt, row(prompt).status, row(prompt).taskId]).toEqual([
					prompt,
					'notCreated',
					null,
				]);
				expect([prompt, row(prompt).error]).toEqual([prompt, expect.stringMatching(said)]);
				// Claimed, so no later run takes it again (the batch ends a refused row by its status).
				expect(row(prompt).claimedAt).toBeTruthy();
			}
			// The row's own callback_url was not taken: the create called back this workflow only.
			const familyA = created.find((request) => request.path.startsWith('/vendor-a/'));
			expect(String((familyA?.body as { callback_url?: string }).callback_url)).toContain(
				exampleCallbackPath(loadWorkflow(join(EXAMPLES_DIR, DATA_TABLE_EXAMPLE), BATCH_ID)),
			);
			expect(JSON.stringify(created.map((request) => request.body))).not.toContain(stealer);
			expect(internal.arrivals).toEqual([]);
		});

		test('a video the file host has lost ends its row with the download’s error, the task id and the URL kept; it is asked for once (batch and pipeline)', async () => {
			const n8n = running();
			const faultTable = await batchOnFaultTable();
			await faultTable.insert([
				{ prompt: 'Fault day: lost video', family: 'generic', model: 'video-model-1' },
			]);
			const downloadsBefore = sim.fileDownloads.length;
			sim.injectFault({ kind: 'status', method: 'GET', path: '/files/', status: 404, times: 1 });
			const first = await n8n.runManualWorkflow(BATCH_ID);
			expect(first.execution.status).toBe('success');
			const lost = await byPrompt(faultTable, 'Fault day: lost video');
			expect(lost).toMatchObject({ status: 'downloadFailed', downloadAttempts: '1', file: '' });
			expect(lost.taskId).toBeTruthy();
			expect(lost.finishedAt).toBeTruthy();
			expect(lost.error).toMatch(
				new RegExp(
					`Could not download the video of task ${String(lost.taskId)} from http://\\S+/files/\\S+: HTTP 404`,
				),
			);
			expect(sim.fileDownloads.length - downloadsBefore).toBe(1);
			// A later run leaves the row alone: nothing fetched again, nothing changed.
			const again = await n8n.runManualWorkflow(BATCH_ID);
			expect(again.execution.status).toBe('success');
			expect(sim.fileDownloads.length - downloadsBefore).toBe(1);
			expect(await byPrompt(faultTable, 'Fault day: lost video')).toEqual(lost);

			// The pipeline: one of two rows loses its video; the other finishes with its file.
			const pipelineDownloads = sim.fileDownloads.length;
			sim.injectFault({ kind: 'status', method: 'GET', path: '/files/', status: 404, times: 1 });
			const prompts = ['Fault day: pipeline one', 'Fault day: pipeline two'];
			await pipelineTable.insert(
				prompts.map((prompt) => ({ prompt, family: 'generic', model: 'video-model-1' })),
			);
			await until(
				'both pipeline rows finished',
				FINISH_TIMEOUT_MS,
				async () => {
					const rows = await pipelineTable.rows();
					return prompts.every((prompt) => rows.find((row) => row.prompt === prompt)?.finishedAt);
				},
				2_000,
			);
			const ends = await Promise.all(prompts.map((prompt) => byPrompt(pipelineTable, prompt)));
			expect(ends.map((end) => end.status).sort()).toEqual(['downloadFailed', 'succeeded']);
			const failed = ends.find((end) => end.status === 'downloadFailed') as VideoTableRow;
			expect(failed.error).toMatch(/HTTP 404/);
			expect(failed.taskId).toBeTruthy();
			expect(sim.fileDownloads.length - pipelineDownloads).toBe(2);
		});

		test('a finished callback whose video is a data: URL stores nothing: its row ends downloadFailed, saying why (pipeline)', async () => {
			const n8n = running();
			const taskId = 'cgt-data-url-1';
			// A row an earlier run claimed and created, its task now calling back.
			await pipelineTable.insert([
				{
					prompt: 'Fault day: data URL',
					family: 'taskS',
					model: 'seedance-video-1',
					claimedBy: 'run-of-the-data-url',
					taskId,
					status: 'running',
					nextCheckAt: new Date(Date.now() + 3_600_000).toISOString(),
				},
			]);
			const row = await byPrompt(pipelineTable, 'Fault day: data URL');
			const dataUrl = `data:video/mp4;base64,${SAMPLE_MP4.toString('base64')}`;
			const query = `row=${String(row.id)}&claim=run-of-the-data-url&table=${pipelineTable.id}`;
			const answer = await n8n.http(
				'POST',
				`/webhook/${exampleCallbackPath(pipeline)}?${query}&secret=${exampleCallbackSecret(sim.apiKey)}`,
				{ body: finalSCallback(taskId, dataUrl) },
			);
			expect(answer.status).toBe(200);
			await until(
				'the data: URL row finished',
				60_000,
				async () => Boolean((await byPrompt(pipelineTable, 'Fault day: data URL')).finishedAt),
				1_000,
			);
			const ended = await byPrompt(pipelineTable, 'Fault day: data URL');
			expect(ended).toMatchObject({ status: 'downloadFailed', taskId, file: '' });
			expect(ended.error).toMatch(
				new RegExp(`Could not download the video of task ${taskId}: its URL is a data: URL`),
			);
			expect(
				readdirSync(join(n8n.userFolder, EXAMPLE_VIDEO_FOLDER)).filter((file) =>
					file.includes(taskId),
				),
			).toEqual([]);
		});

		// n8n 1.x has no SSRF protection (docs/before-you-publish.md#ssrf-protection says what it cannot protect).
		if (line === 2)
			test('with SSRF protection on, the pipeline works end to end: every row finishes, every video downloaded, no fetch refused', async () => {
				const rows = sixFamilyRows('Behind SSRF protection', 0, 6).filter(
					(row) => row.family !== 'taskS',
				);
				await pipelineTable.insert(rows);
				const prompts = rows.map((row) => String(row.prompt));
				const ours = async () =>
					(await pipelineTable.rows()).filter((row) => prompts.includes(String(row.prompt)));
				await until(
					'every row finished',
					FINISH_TIMEOUT_MS,
					async () => (await ours()).every((row) => row.finishedAt),
					2_000,
				);
				const finished = await ours();
				expect(finished.map((row) => [row.prompt, row.status, row.error])).toEqual(
					rows.map((row) => [row.prompt, 'succeeded', '']),
				);
				expect(finished.every((row) => String(row.file).endsWith('.mp4'))).toBe(true);
			});
	},
);

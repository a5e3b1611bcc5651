/**
 * The package inside real n8n against the gateway simulator: credential tests through n8n's own
 * "Test" endpoint, every example workflow users import (examples/*.json) on the lines it works on
 * (EXAMPLE_LINES), run as shipped, and
 * n8n's AI Agent (with its OpenAI Chat Model pointed at the simulator) using our Chat node as a tool.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSimulator, type Simulator } from '../simulator';
import { SAMPLE_MP4 } from '../simulator/media';
import { sentAnswerText } from './answerText';
import {
	EXAMPLE_CREDENTIALS,
	EXAMPLE_VIDEO_FOLDER,
	LOOP_WAIT_NODE,
	SHIPPED_LOOP_WAIT_SECONDS,
	createExampleFolders,
	exampleWorkflowId,
	loadExamples,
	simulatorCredentials,
	withShortLoopWait,
} from './examples';
import {
	N8N_LINES,
	allRunsOutput,
	loadWorkflow,
	nodeBinaryOutput,
	nodeOutput,
	packPackage,
	startN8n,
	type N8nInstance,
	type PackedPackage,
} from './harness';

/**
 * The messages of the credential tests for a wrong key or token (nodes/shared/credentialTests.ts).
 * They are node-level test functions (`testedBy`), so both n8n lines show them as they are:
 * n8n 1.x no longer falls back to its own "Authorization failed" text, as it did for the former
 * declarative rules.
 */
const GATEWAY_401_MESSAGE = 'Invalid API key: the gateway answered 401 Unauthorized';
const ASSET_REVIEW_401_MESSAGE =
	'Invalid access token: the identity host answered 401 Unauthorized';

/**
 * n8n's own OpenAI credential (n8n-nodes-base `openAiApi`, field `url` on both lines) pointed at
 * the simulator, for the AI Agent's chat model. The simulator accepts only its one API key.
 */
const MIXED_BATCH = 'video-sheet-mixed-batch.json';
/** The mixed-batch example loops through its Wait node, shortened here to 11 s a pass. */
const MIXED_BATCH_TIMEOUT_MS = 240_000;

function countBy(values: string[]): Record<string, number> {
	const counts: Record<string, number> = {};
	for (const value of values) counts[value] = (counts[value] ?? 0) + 1;
	return counts;
}

const OPENAI_SIMULATOR_CREDENTIAL = {
	id: 'mgSimulatorOpenAi1',
	name: 'OpenAI (simulator)',
	type: 'openAiApi',
} as const;

let sim: Simulator;
let packDir: string;
let gatewayPackage: PackedPackage;

beforeAll(async () => {
	sim = await startSimulator({ queuedMs: 50, runningMs: 100 });
	packDir = mkdtempSync(join(process.env.MG_E2E_RUN_DIR ?? tmpdir(), 'mg-e2e-pack-'));
	gatewayPackage = await packPackage(packDir);
});

afterAll(async () => {
	await sim?.close();
	if (packDir) rmSync(packDir, { recursive: true, force: true });
});

describe.each(N8N_LINES)('n8n line %s.x with the gateway simulator', (line) => {
	let n8n: N8nInstance | undefined;
	let videoFolder = '';

	beforeAll(async () => {
		n8n = await startN8n({
			line,
			packages: [gatewayPackage.tarball],
			credentials: [
				...simulatorCredentials(sim),
				{ ...OPENAI_SIMULATOR_CREDENTIAL, data: { apiKey: sim.apiKey, url: `${sim.baseUrl}/v1` } },
			],
			workflows: [
				// The mixed batch's loop waits 11 s, not its shipped 70: storing the wait is
				// waitForTask.e2e's promise (withShortLoopWait says why).
				...loadExamples(line).map((workflow) =>
					workflow.id === exampleWorkflowId(MIXED_BATCH) ? withShortLoopWait(workflow) : workflow,
				),
				loadWorkflow(join(__dirname, 'workflows', 'chat-streamed.json'), 'chatstreamed'),
				loadWorkflow(join(__dirname, 'workflows', 'agent-tool.json'), 'agenttool'),
				loadWorkflow(join(__dirname, 'workflows', 'multibyte-text.json'), 'multibytetext'),
			],
		});
		videoFolder = createExampleFolders(n8n.userFolder);
	});

	afterAll(async () => {
		await n8n?.stop();
	});

	beforeEach(() => sim.reset());

	function running(): N8nInstance {
		if (!n8n) throw new Error('n8n did not start');
		return n8n;
	}

	describe('credential test (the editor’s "Test" button)', () => {
		const gateway = (apiKey: string) => ({
			...EXAMPLE_CREDENTIALS.gateway,
			data: { baseUrl: `${sim.baseUrl}/`, apiKey },
		});
		const assetReview = (accessToken: string) => ({
			...EXAMPLE_CREDENTIALS.assetReview,
			data: { identityUrl: sim.identityUrl, accessToken },
		});

		test('a good API key passes', async () => {
			await expect(running().testCredential(gateway(sim.apiKey))).resolves.toMatchObject({
				status: 'OK',
			});
			const [request] = sim.requestsTo('GET', '/vendor-a/v1/videos/omni-video/');
			expect(request.headers.authorization).toBe(`Bearer ${sim.apiKey}`);
		});

		test('a wrong API key fails with a clear message', async () => {
			const result = await running().testCredential(gateway('not-the-key'));
			expect(result.status).toBe('Error');
			expect(result.message).toBe(GATEWAY_401_MESSAGE);
			expect(
				sim.requestsTo('GET', '/vendor-a/v1/videos/omni-video/')[0].headers.authorization,
			).toBe('Bearer not-the-key');
		});

		test('a good asset review token passes', async () => {
			await expect(running().testCredential(assetReview(sim.accessToken))).resolves.toMatchObject({
				status: 'OK',
			});
			const [request] = sim.requestsTo('POST', '/api/overseas/asset/upload/sync');
			expect(request.headers['x-access-token']).toBe(sim.accessToken);
			expect(request.body).toEqual({ images: [] });
		});

		test('a wrong asset review token fails with a clear message', async () => {
			const result = await running().testCredential(assetReview('not-the-token'));
			expect(result.status).toBe('Error');
			expect(result.message).toBe(ASSET_REVIEW_401_MESSAGE);
			expect(
				sim.requestsTo('POST', '/api/overseas/asset/upload/sync')[0].headers['x-access-token'],
			).toBe('not-the-token');
		});
	});

	describe('example workflows (examples/*.json, as shipped)', () => {
		test('chat.json answers through the gateway', async () => {
			const { execution } = await running().runManualWorkflow(exampleWorkflowId('chat.json'));

			expect(execution.status).toBe('success');
			const [answer] = nodeOutput(execution, 'Model Gateway Chat');
			expect(answer).toMatchObject({
				content: 'Echo: Write one sentence about the sea.',
				finishReason: 'stop',
				model: 'gpt-4o-mini',
			});
			const requests = sim.requestsTo('POST', '/v1/chat/completions');
			expect(requests).toHaveLength(1);
			expect(requests[0].headers.authorization).toBe(`Bearer ${sim.apiKey}`);
			expect(requests[0].body).toMatchObject({
				model: 'gpt-4o-mini',
				messages: [
					{ role: 'system', content: 'You are a concise assistant.' },
					{ role: 'user', content: 'Write one sentence about the sea.' },
				],
				temperature: 0.7,
			});
			expect(answer.traceId).toBe(requests[0].headers['x-trace-id']);
		});

		test('a streamed chat with tools returns the same aggregate as a plain call: merged tool-call fragments and usage', async () => {
			const { execution } = await running().runManualWorkflow('chatstreamed');

			expect(execution.status).toBe('success');
			const [request] = sim.requestsTo('POST', '/v1/chat/completions');
			expect(request.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
			const [answer] = nodeOutput(execution, 'Streamed Chat');
			expect(answer).toMatchObject({
				finishReason: 'tool_calls',
				toolCalls: [{ type: 'function', name: 'get_weather', arguments: { city: 'Paris' } }],
				usage: { inputTokens: expect.any(Number), totalTokens: expect.any(Number) },
			});
		});

		test('responses-chaining.json continues the first response with previous_response_id', async () => {
			const { execution } = await running().runManualWorkflow(
				exampleWorkflowId('responses-chaining.json'),
			);

			expect(execution.status).toBe('success');
			const [first] = nodeOutput(execution, 'First Response');
			const [followUp] = nodeOutput(execution, 'Follow-up Response');
			const requests = sim.requestsTo('POST', '/v1/responses');
			expect(requests).toHaveLength(2);
			expect(requests[1].body).toMatchObject({ previous_response_id: first.id });
			expect(followUp.outputText).toBe(
				`Echo: Which number did I ask you to remember? (after ${String(first.id)})`,
			);
		});

		test('image-edit.json sends the binary image as base64 and returns the edit as binary', async () => {
			const { execution } = await running().runManualWorkflow(exampleWorkflowId('image-edit.json'));

			expect(execution.status).toBe('success');
			const [request] = sim.requestsTo('POST', '/v1/images/edits');
			expect(request.body).toMatchObject({
				model: 'qwen-image-edit',
				prompt: 'Make the sky purple',
				size: '2K',
			});
			expect((request.body as { image: string[] }).image[0]).toMatch(
				/^data:image\/png;base64,iVBORw0KGgo/,
			);
			const [edited] = nodeOutput(execution, 'Model Gateway Image Edit');
			expect(edited).toMatchObject({ revisedPrompt: 'Make the sky purple' });
			const [binary] = nodeBinaryOutput(execution, 'Model Gateway Image Edit');
			expect(binary.data).toMatchObject({ mimeType: 'image/png' });
		});

		test('video-batch.json creates 20 tasks, each once, and Wait for Task gets every one back paired with its row', async () => {
			const { execution } = await running().runManualWorkflow(
				exampleWorkflowId('video-batch.json'),
			);

			expect(execution.status).toBe('success');
			const creates = sim.requestsTo('POST', '/v1/videos');
			expect(creates).toHaveLength(20);
			expect(
				new Set(creates.map((request) => (request.body as { prompt: string }).prompt)).size,
			).toBe(20);
			const created = nodeOutput(execution, 'Create Video Tasks');
			const statuses = nodeOutput(execution, 'Wait for Videos');
			expect(statuses).toHaveLength(20);
			expect(nodeOutput(execution, 'Wait for Videos', 1)).toEqual([]);
			expect(nodeOutput(execution, 'Wait for Videos', 2)).toEqual([]);
			statuses.forEach((task, index) => {
				expect(task).toMatchObject({
					family: 'generic',
					taskId: created[index].taskId,
					status: 'succeeded',
					done: true,
					polls: 1,
				});
				expect(task.videoUrl).toEqual(expect.stringContaining('/files/'));
			});
		});

		test('video-all-families.json creates and reads a task in every family (long-running video as binary)', async () => {
			const { execution } = await running().runManualWorkflow(
				exampleWorkflowId('video-all-families.json'),
			);

			expect(execution.status).toBe('success');
			// Task family S: checked once, not queried (its first query is allowed 10 minutes after
			// creation), left on Still Running with its next check time.
			const [taskS] = nodeOutput(execution, 'Create (Task Family S)');
			expect(taskS).toMatchObject({ family: 'taskS', status: 'queued', done: false });
			const [stillRunning] = nodeOutput(execution, 'Check Once (Task Family S)', 3);
			expect(stillRunning).toMatchObject({ pendingCount: 1 });
			expect(Date.parse(String(stillRunning.nextCheckAt))).toBeGreaterThanOrEqual(
				Date.parse(String(taskS.createdAt)) + 600_000,
			);
			expect(sim.requestsTo('GET', '/v1/task/get/')).toHaveLength(0);
			const families = {
				'Family A': 'familyA',
				Generic: 'generic',
				'Family B': 'familyB',
				'Family C': 'familyC',
				'Long-Running': 'longRunning',
			};
			for (const [label, family] of Object.entries(families)) {
				const [task] = nodeOutput(execution, `Wait for Video (${label})`);
				expect(task).toMatchObject({
					family,
					status: 'succeeded',
					done: true,
					error: null,
					polls: 1,
				});
			}
			const [longRunningBinary] = nodeBinaryOutput(execution, 'Wait for Video (Long-Running)');
			expect(longRunningBinary.data).toMatchObject({ mimeType: 'video/mp4' });
			expect(sim.requestsTo('POST', '/v1/task/create')).toHaveLength(1);
			expect(sim.requestsTo('POST', '/vendor-a/v1/videos/omni-video')).toHaveLength(1);
		});

		test(
			'video-sheet-mixed-batch.json: 12 rows in five families created, waited for in its loop, every video written to disk, one batch report',
			async () => {
				const executionId = await running().startManualWorkflow(exampleWorkflowId(MIXED_BATCH));
				const execution = await running().waitForExecution(executionId, MIXED_BATCH_TIMEOUT_MS);
				expect(execution.status).toBe('success');

				const rows = nodeOutput(execution, 'Sheet Rows (12, mixed families)');
				const created = nodeOutput(execution, 'Create Video Tasks');
				expect(rows).toHaveLength(12);
				expect(created).toHaveLength(12);
				const createdFamilies = countBy(created.map((task) => String(task.family)));
				expect(createdFamilies).toEqual({
					familyA: 3,
					generic: 3,
					familyB: 2,
					familyC: 2,
					longRunning: 2,
				});
				// Each row went to its own family's endpoint, once.
				expect(sim.requestsTo('POST', '/vendor-a/v1/videos/omni-video')).toHaveLength(2);
				expect(sim.requestsTo('POST', '/vendor-a/v1/videos/image2video')).toHaveLength(1);
				expect(sim.requestsTo('POST', '/v1/videos')).toHaveLength(3);
				expect(sim.requestsTo('POST', '/vendor-b/v1/video/generations')).toHaveLength(2);
				expect(sim.requestsTo('POST', '/vendor-c/ent/v2/reference2video')).toHaveLength(2);
				expect(sim.requestsTo('POST', /:predictLongRunning$/)).toHaveLength(2);

				// The loop: the first pass checks nothing (no task is due yet), Still Running goes
				// through the Wait node and back.
				const passes = execution.data?.resultData.runData['Check Videos'] ?? [];
				expect(passes.length).toBeGreaterThanOrEqual(2);
				expect(allRunsOutput(execution, LOOP_WAIT_NODE).length).toBe(passes.length - 1);
				// What the shipped Wait would have waited: long enough for n8n to store it.
				for (const task of allRunsOutput(execution, 'Check Videos', 3))
					expect(task.nextCheckInSeconds).toBeGreaterThanOrEqual(SHIPPED_LOOP_WAIT_SECONDS);
				const succeeded = allRunsOutput(execution, 'Check Videos', 0);
				expect(succeeded.map((task) => task.taskId).sort()).toEqual(
					created.map((task) => task.taskId).sort(),
				);
				expect(allRunsOutput(execution, 'Failed or Timed Out')).toEqual([]);

				// Every finished video on disk, whole, under the name the workflow gave it.
				const written = allRunsOutput(execution, 'Write Video to Disk');
				expect(written).toHaveLength(12);
				const files = readdirSync(videoFolder).sort();
				expect(files).toHaveLength(12);
				expect(written.map((item) => String(item.fileName)).sort()).toEqual(
					files.map((file) => `${EXAMPLE_VIDEO_FOLDER}/${file}`),
				);
				for (const file of files) {
					expect(readFileSync(join(videoFolder, file))).toEqual(SAMPLE_MP4);
				}
				expect(countBy(files.map((file) => file.split('-')[0]))).toEqual(createdFamilies);

				// One report, when the last task settled: the rows' counts, by family, every query.
				const [report, ...moreReports] = allRunsOutput(execution, 'Batch Report');
				expect(moreReports).toEqual([]);
				expect(report).toMatchObject({
					tasks: 12,
					byStatus: { succeeded: 12, failed: 0, timedOut: 0 },
					failures: [],
					failuresListed: 0,
					passes: passes.length,
				});
				expect(
					Object.fromEntries(
						Object.entries(report.byFamily as Record<string, { succeeded: number }>).map(
							([family, counts]) => [family, counts.succeeded],
						),
					),
				).toEqual(createdFamilies);
				const queries = sim.requests.filter(
					(request) => request.method === 'GET' && !request.path.startsWith('/files/'),
				);
				expect(report.queries).toBe(queries.length);
				process.stderr.write(
					`video-sheet-mixed-batch on n8n ${line}.x: ${rows.length} rows, ${succeeded.length} succeeded, ${files.length} files written, ${passes.length} passes; report ${JSON.stringify(report)}\n`,
				);
			},
			MIXED_BATCH_TIMEOUT_MS + 60_000,
		);

		test('asset-review-routing.json reviews all URLs in one request and routes passed and rejected assets', async () => {
			const { execution } = await running().runManualWorkflow(
				exampleWorkflowId('asset-review-routing.json'),
			);

			expect(execution.status).toBe('success');
			const [request] = sim.requestsTo('POST', '/api/overseas/asset/upload/sync');
			expect(sim.requestsTo('POST', '/api/overseas/asset/upload/sync')).toHaveLength(1);
			expect((request.body as { images: string[] }).images).toHaveLength(3);
			expect(request.headers.authorization).toBeUndefined();
			const passed = nodeOutput(execution, 'Passed');
			const rejected = nodeOutput(execution, 'Rejected');
			expect(passed.map((asset) => asset.assetUrl ?? asset.sourceUrl)).toHaveLength(2);
			expect(rejected).toHaveLength(1);
			expect(rejected[0]).toMatchObject({ passed: false });
			expect(String(rejected[0].errorCode)).not.toBe('');
		});
	});

	describe('AI Agent (n8n langchain nodes) with a gateway node as its tool', () => {
		test('an AI Agent uses Model Gateway Chat as a tool: $fromAI argument in, the answer back to the model', async () => {
			const { execution } = await running().runManualWorkflow('agenttool');

			expect(execution.status).toBe('success');
			const requests = sim.requestsTo('POST', '/v1/chat/completions');
			const fromModel = requests.filter((request) =>
				Array.isArray((request.body as { tools?: unknown }).tools),
			);
			const fromTool = requests.filter((request) => !fromModel.includes(request));
			// The agent's model: the tool call, then the final answer after the tool message.
			expect(fromModel.length).toBeGreaterThanOrEqual(2);
			for (const request of fromModel)
				expect(request.headers.authorization).toBe(`Bearer ${sim.apiKey}`);
			expect(fromModel[0].body).toMatchObject({
				model: 'gpt-4o-mini',
				tools: [
					{
						type: 'function',
						function: {
							name: expect.any(String),
							parameters: { properties: { question: { type: 'string' } } },
						},
					},
				],
			});
			const lastModelMessages = (
				fromModel[fromModel.length - 1].body as { messages: Array<{ role: string }> }
			).messages;
			expect(lastModelMessages[lastModelMessages.length - 1]).toMatchObject({
				role: 'tool',
				content: expect.stringContaining('Echo: Paris'),
			});
			// Our tool node: one gateway call whose user message is the model's argument.
			expect(fromTool).toHaveLength(1);
			expect(fromTool[0].headers.authorization).toBe(`Bearer ${sim.apiKey}`);
			expect(fromTool[0].body).toMatchObject({
				model: 'gpt-4o-mini',
				messages: [{ role: 'user', content: 'Paris' }],
			});
			const [agent] = nodeOutput(execution, 'AI Agent');
			expect(String(agent.output)).toContain('Echo: What is the weather in Paris? Use the tool.');
			expect(String(agent.output)).toContain('Echo: Paris');
		});
	});

	describe('multi-byte text (issue 34)', () => {
		// The simulator writes every JSON answer in pieces cut inside its multi-byte characters and
		// streams in uneven slices, so a decode per network chunk would show as U+FFFD here.
		const TEXT_NODES: Record<string, 'content' | 'outputText'> = {
			'Chat Plain': 'content',
			'Chat Streamed': 'content',
			'Chat Tool Turn': 'content',
			'Chat Tool Turn Streamed': 'content',
			'Responses Plain': 'outputText',
			'Responses Streamed': 'outputText',
			'Responses Chained': 'outputText',
			'Responses Chained Streamed': 'outputText',
			'Responses Tool Turn': 'outputText',
			'Responses Tool Turn Streamed': 'outputText',
		};

		test('every text path outputs the answer byte for byte as the gateway sent it', async () => {
			const { execution } = await running().runManualWorkflow('multibytetext');

			expect(execution.status).toBe('success');
			const answered = new Map(
				sim.requests
					.filter((request) => request.path.startsWith('/v1/'))
					.map((request) => [request.headers['x-trace-id'], request]),
			);
			for (const [name, field] of Object.entries(TEXT_NODES)) {
				const [item] = nodeOutput(execution, name);
				const request = answered.get(String(item.traceId));
				if (!request) throw new Error(`${name}: no gateway request with its trace id`);
				const sent = sentAnswerText(request);
				// Every width of UTF-8 reached the gateway's answer: 2, 3 and 4 bytes.
				expect({ name, sent }).toEqual({ name, sent: expect.stringMatching(/é.*世.*🎬/su) });
				const output = Buffer.from(String(item[field]), 'utf8');
				expect({ name, output: output.toString('hex') }).toEqual({
					name,
					output: Buffer.from(sent, 'utf8').toString('hex'),
				});
			}
		});
	});
});

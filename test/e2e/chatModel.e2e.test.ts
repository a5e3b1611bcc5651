/**
 * Model Gateway Chat Model inside real n8n 2.x: n8n's AI Agent, chains and Chat Trigger reach
 * the gateway through the package's transport. On n8n 1.x the package still loads, and the node
 * says which n8n it needs when a workflow uses it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startSimulator, type Simulator } from '../simulator';
import { sentAnswerText } from './answerText';
import { exampleWorkflowId, loadExamples, simulatorCredentials } from './examples';
import {
	N8N_LINES,
	loadWorkflow,
	nodeOutput,
	packPackage,
	startN8n,
	type Execution,
	type JsonObject,
	type N8nInstance,
	type N8nLine,
	type PackedPackage,
	type WorkflowJson,
} from './harness';

const WORKFLOWS: Record<string, string> = {
	agent: 'chat-model-agent.json',
	agentResponses: 'chat-model-agent-responses.json',
	video: 'chat-model-video.json',
	chain: 'chat-model-chain.json',
	extractor: 'chat-model-extractor.json',
	streaming: 'chat-model-streaming.json',
};

const AGENT_VIDEO_ID = exampleWorkflowId('ai-agent-video.json');

const workflowId = (key: string): string => `chatmodel${key}`.slice(0, 16);

function workflows(): WorkflowJson[] {
	return Object.entries(WORKFLOWS).map(([key, file]) =>
		loadWorkflow(join(__dirname, 'workflows', file), workflowId(key)),
	);
}

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

const modelRequests = () => sim.requestsTo('POST', /^\/v1\/(chat\/completions|responses)$/);

/** Every error text n8n kept for an execution, for checks that the key appears nowhere. */
const everything = (execution: Execution): string => JSON.stringify(execution);

const CHAT = '/v1/chat/completions';
const RESPONSES = '/v1/responses';

/** Issue 39: the gateway's error inside HTTP 200 (no choices, no output), echoing the key. */
const errorInside200 = (path: string) => ({
	kind: 'status' as const,
	status: 200,
	path,
	body: {
		error: {
			message: `The upstream model is overloaded (request made with ${sim.apiKey})`,
			type: 'server_error',
			code: 'upstream_overloaded',
		},
	},
});
const REDACTED_OVERLOAD = 'The upstream model is overloaded (request made with ***)';

/** A chat completion whose one tool call has arguments that are not JSON. */
const BROKEN_TOOL_CALL = {
	id: 'chatcmpl-broken',
	object: 'chat.completion',
	created: 1,
	model: 'gpt-4o-mini',
	choices: [
		{
			index: 0,
			message: {
				role: 'assistant',
				content: null,
				tool_calls: [
					{
						id: 'call_broken',
						type: 'function',
						function: { name: 'Weather_Desk', arguments: '{"city": "Par' },
					},
				],
			},
			finish_reason: 'tool_calls',
		},
	],
	usage: { prompt_tokens: 5, completion_tokens: 5, total_tokens: 10 },
};

interface StreamedLine {
	type: string;
	content?: string;
}

/** The AI nodes on the gateway (n8n 2.x, which provides the AI Node SDK). */
function describeAiNodes(line: N8nLine): void {
	describe(`n8n line ${line}.x: the AI nodes on the gateway`, () => {
		let n8n: N8nInstance | undefined;

		beforeAll(async () => {
			n8n = await startN8n({
				line,
				packages: [gatewayPackage.tarball],
				credentials: simulatorCredentials(sim),
				workflows: [...workflows(), ...loadExamples(line).filter((w) => w.id === AGENT_VIDEO_ID)],
			});
		});

		afterAll(async () => {
			await n8n?.stop();
		});

		beforeEach(() => sim.reset());

		function running(): N8nInstance {
			if (!n8n) throw new Error('n8n did not start');
			return n8n;
		}

		async function setAgentPrompt(key: string, text: string): Promise<void> {
			await running().updateWorkflow(workflowId(key), (workflow) => {
				const agent = workflow.nodes.find((node) => node.name === 'AI Agent');
				if (!agent) throw new Error('no AI Agent node');
				agent.parameters = { ...(agent.parameters as JsonObject), text };
			});
		}

		/** Sends one chat message to the streaming workflow; returns the lines n8n streamed. */
		async function chat(message: string): Promise<{ status: number; lines: StreamedLine[] }> {
			const response = await fetch(
				`${running().baseUrl}/webhook/5f1c0b8e-7a51-4c6e-9d55-0c6b7f1e2a31/chat`,
				{
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ action: 'sendMessage', sessionId: 'e2e', chatInput: message }),
				},
			);
			const text = await response.text();
			const lines = text
				.split('\n')
				.filter((line) => line.trim() !== '')
				.map((line) => JSON.parse(line) as StreamedLine);
			return { status: response.status, lines };
		}

		test('an AI Agent with memory and a tool: the model calls the tool, answers with its result, and remembers the first turn', async () => {
			await setAgentPrompt('agent', 'What is the weather in Paris?');
			const first = await running().runManualWorkflow(workflowId('agent'));
			expect(first.execution.status).toBe('success');
			const [firstAnswer] = nodeOutput(first.execution, 'AI Agent');
			expect(String(firstAnswer.output)).toContain(
				'Echo: What is the weather in Paris? (tool result:',
			);
			expect(String(firstAnswer.output)).toContain('Echo: Paris');
			// Turn 1: the model asks for the tool, our Chat tool asks the gateway, the model answers.
			const turnOne = modelRequests();
			expect(
				turnOne.map((request) => (request.body as { messages: unknown[] }).messages.length),
			).toEqual([1, 1, 3]);
			for (const request of turnOne) {
				expect(request.headers.authorization).toBe(`Bearer ${sim.apiKey}`);
				expect(request.headers['x-trace-id']).toMatch(/^[0-9a-f-]{36}$/);
			}
			const [, , withToolResult] = turnOne;
			expect((withToolResult.body as { messages: unknown[] }).messages[2]).toMatchObject({
				role: 'tool',
				content: expect.stringContaining('Echo: Paris'),
			});
			// The trace id and token usage reach the agent's logs.
			const modelRuns = JSON.stringify(first.execution.data?.resultData.runData['Gateway Model']);
			expect(modelRuns).toContain('"tokenUsage":{"completionTokens"');

			sim.reset();
			await setAgentPrompt('agent', 'Thanks! Which city did I ask about?');
			const second = await running().runManualWorkflow(workflowId('agent'));
			expect(second.execution.status).toBe('success');
			const [again] = modelRequests();
			const remembered = (again.body as { messages: Array<{ role: string; content: unknown }> })
				.messages;
			expect(remembered[0]).toMatchObject({
				role: 'user',
				content: 'What is the weather in Paris?',
			});
			// The first turn as memory kept it: the tool call, its result and the answer.
			expect(remembered).toContainEqual(
				expect.objectContaining({
					role: 'assistant',
					content: expect.stringContaining('Echo: What is the weather in Paris? (tool result:'),
				}),
			);
			expect(remembered[remembered.length - 1]).toMatchObject({
				role: 'user',
				content: 'Thanks! Which city did I ask about?',
			});
			const [secondAnswer] = nodeOutput(second.execution, 'AI Agent');
			expect(secondAnswer.output).toBe('Echo: Thanks! Which city did I ask about?');
		});

		test('the same agent over the Responses API: function_call and function_call_output items', async () => {
			const { execution } = await running().runManualWorkflow(workflowId('agentResponses'));
			expect(execution.status).toBe('success');
			const requests = sim.requestsTo('POST', '/v1/responses');
			expect(requests).toHaveLength(2);
			const input = (requests[1].body as { input: Array<Record<string, unknown>> }).input;
			expect(input).toEqual([
				{ role: 'user', content: 'What is the weather in Paris?' },
				expect.objectContaining({ type: 'function_call', name: 'Weather_Desk' }),
				expect.objectContaining({
					type: 'function_call_output',
					output: expect.stringContaining('Echo: Paris'),
				}),
			]);
			const [answer] = nodeOutput(execution, 'AI Agent');
			expect(String(answer.output)).toContain('(tool result:');
		});

		test('multi-byte text reaches the agent byte for byte as the gateway sent it, over both APIs (issue 34)', async () => {
			const text = 'Grüße 世界 🎬🦊 ñ€ é'.repeat(6);
			for (const key of ['agent', 'agentResponses']) {
				sim.reset();
				await setAgentPrompt(key, text);
				const { execution } = await running().runManualWorkflow(workflowId(key));
				expect(execution.status).toBe('success');
				const [request] = modelRequests();
				const sent = sentAnswerText(request);
				expect(sent).toContain(text);
				const [answer] = nodeOutput(execution, 'AI Agent');
				expect(Buffer.from(String(answer.output)).toString('hex')).toBe(
					Buffer.from(sent).toString('hex'),
				);
			}
		});

		test('the Video node as the agent’s tool: "make a video of a red fox" creates exactly one task', async () => {
			const { execution } = await running().runManualWorkflow(workflowId('video'));
			expect(execution.status).toBe('success');
			const creates = sim.requestsTo('POST', '/v1/videos');
			expect(creates).toHaveLength(1);
			expect(creates[0].body).toMatchObject({
				model: 'video-model-1',
				prompt: 'make a video of a red fox',
			});
			const [answer] = nodeOutput(execution, 'AI Agent');
			expect(String(answer.output)).toContain('Echo: make a video of a red fox (tool result:');
		});

		test('a Basic LLM Chain with a structured output parser gets an object of the asked shape', async () => {
			const { execution } = await running().runManualWorkflow(workflowId('chain'));
			expect(execution.status).toBe('success');
			const [result] = nodeOutput(execution, 'Basic LLM Chain');
			expect(result.output).toEqual({ animal: 'example', colour: 'example' });
			expect(modelRequests()).toHaveLength(1);
		});

		test('the Information Extractor gets its attributes', async () => {
			const { execution } = await running().runManualWorkflow(workflowId('extractor'));
			expect(execution.status).toBe('success');
			const [result] = nodeOutput(execution, 'Information Extractor');
			expect(result.output).toEqual({ customer: 'example', quantity: 1 });
		});

		describe('streamed to the Chat Trigger', () => {
			beforeAll(async () => {
				await running().activateWorkflow(workflowId('streaming'));
				await running().waitForWebhook('5f1c0b8e-7a51-4c6e-9d55-0c6b7f1e2a31/chat');
			});

			test('chunks arrive in order and the last one ends the turn', async () => {
				const { status, lines } = await chat('Tell me about foxes in the snow');
				expect(status).toBe(200);
				const items = lines.filter((line) => line.type === 'item');
				expect(items.length).toBeGreaterThan(1);
				expect(items.map((line) => line.content).join('')).toBe(
					'Echo: Tell me about foxes in the snow',
				);
				expect(lines[lines.length - 1].type).toBe('end');
				const [request] = modelRequests();
				expect(request.body).toMatchObject({
					stream: true,
					stream_options: { include_usage: true },
				});
			});

			test('multi-byte text streams to the chat byte for byte as the gateway sent it (issue 34)', async () => {
				const text = 'Grüße 世界 🎬🦊 ñ€ é'.repeat(6);
				const { lines } = await chat(text);
				const [request] = modelRequests();
				const sent = sentAnswerText(request);
				expect(sent).toBe(`Echo: ${text}`);
				const streamed = lines
					.filter((line) => line.type === 'item')
					.map((line) => line.content)
					.join('');
				expect(Buffer.from(streamed).toString('hex')).toBe(Buffer.from(sent).toString('hex'));
			});

			test('an in-stream error that echoes the key is redacted everywhere: the chat, the execution, the log', async () => {
				sim.injectFault({ kind: 'stream-error', echoKey: true, path: CHAT });
				const { lines } = await chat('Tell me about owls');
				const [execution] = (await running().waitForExecutions(workflowId('streaming'), 1)).filter(
					(run) => run.status === 'error',
				);
				expect(execution).toBeDefined();
				const seen = [JSON.stringify(lines), everything(execution), running().recentOutput(400)];
				for (const text of seen) expect(text).not.toContain(sim.apiKey);
				expect(everything(execution)).toContain('upstream rejected key ***');
				expect(modelRequests()).toHaveLength(1);
			});

			test('an HTTP 200 error body instead of a stream fails the turn in the gateway’s words, key redacted (issue 39)', async () => {
				sim.injectFault(errorInside200(CHAT));
				const { lines } = await chat('Tell me about otters');
				const [execution] = (await running().waitForExecutions(workflowId('streaming'), 1)).filter(
					(run) => run.status === 'error',
				);
				expect(execution).toBeDefined();
				const [request] = modelRequests();
				expect(everything(execution)).toContain(REDACTED_OVERLOAD);
				expect(everything(execution)).toContain(`X-Trace-ID ${request.headers['x-trace-id']}`);
				for (const text of [JSON.stringify(lines), everything(execution)])
					expect(text).not.toContain(sim.apiKey);
				expect(lines.some((line) => line.type === 'item' && line.content)).toBe(false);
				expect(modelRequests()).toHaveLength(1);
			});

			test('a stream that breaks off mid-answer fails the turn and is not sent again', async () => {
				const { lines } = await chat('STREAM_DROP tell me about badgers');
				expect(lines.some((line) => line.type === 'item')).toBe(true);
				expect(modelRequests()).toHaveLength(1);
				expect(sim.violations).toEqual([]);
			});
		});

		test('examples/ai-agent-video.json: a chat message becomes exactly one video task', async () => {
			await running().activateWorkflow(AGENT_VIDEO_ID);
			const path = '0d6c3b6e-2f43-4d53-9a0e-8a3c6b1f7e10/chat';
			await running().waitForWebhook(path);
			const response = await fetch(`${running().baseUrl}/webhook/${path}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({
					action: 'sendMessage',
					sessionId: 'example',
					chatInput: 'make a video of a red fox',
				}),
			});
			expect(response.status).toBe(200);
			const answer = (await response.json()) as { output?: string };
			expect(answer.output).toContain('Echo: make a video of a red fox (tool result:');
			const creates = sim.requestsTo('POST', '/v1/videos');
			expect(creates).toHaveLength(1);
			expect(creates[0].body).toMatchObject({ prompt: 'make a video of a red fox' });
			expect(answer.output).toContain(
				String((creates[0].answer ?? '').match(/"id":"([^"]+)"/)?.[1]),
			);
		});

		describe('faults, as the Chat node handles them', () => {
			beforeAll(async () => {
				await setAgentPrompt('agent', 'What is the weather in Paris?');
			});

			test('401: the gateway’s own words, once', async () => {
				sim.injectFault({
					kind: 'status',
					status: 401,
					path: CHAT,
					body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } },
				});
				const { execution } = await running().runManualWorkflow(workflowId('agent'));
				expect(execution.status).toBe('error');
				expect(everything(execution)).toContain('Incorrect API key provided');
				expect(modelRequests()).toHaveLength(1);
			});

			test('429 with Retry-After is waited out: one answer', async () => {
				sim.injectFault({
					kind: 'status',
					status: 429,
					path: CHAT,
					headers: { 'retry-after': '1' },
				});
				const { execution } = await running().runManualWorkflow(workflowId('agent'));
				expect(execution.status).toBe('success');
				const requests = modelRequests();
				expect(requests[0].status).toBe(429);
				expect(requests[1].status).toBe(200);
				expect(requests[1].at - requests[0].at).toBeGreaterThanOrEqual(1000);
				expect(requests[1].body).toEqual(requests[0].body);
			});

			test('a 5xx is reported, never sent again (it may have been processed and billed)', async () => {
				sim.injectFault({ kind: 'status', status: 502, path: CHAT });
				const { execution } = await running().runManualWorkflow(workflowId('agent'));
				expect(execution.status).toBe('error');
				expect(modelRequests()).toHaveLength(1);
				expect(sim.violations).toEqual([]);
			});

			test.each([
				['agent', CHAT],
				['agentResponses', RESPONSES],
			])(
				'%s: an HTTP 200 error body stops the agent with the gateway’s words and the trace id, key redacted (issue 39)',
				async (key, path) => {
					sim.injectFault(errorInside200(path));
					const { execution } = await running().runManualWorkflow(workflowId(key));
					expect(execution.status).toBe('error');
					const [request] = modelRequests();
					expect(everything(execution)).toContain(REDACTED_OVERLOAD);
					expect(everything(execution)).toContain(`X-Trace-ID ${request.headers['x-trace-id']}`);
					expect(everything(execution)).not.toContain(sim.apiKey);
					expect(modelRequests()).toHaveLength(1);
				},
			);

			test('a tool call whose arguments are not JSON is a clear error', async () => {
				sim.injectFault({ kind: 'status', status: 200, path: CHAT, body: BROKEN_TOOL_CALL });
				const { execution } = await running().runManualWorkflow(workflowId('agent'));
				expect(execution.status).toBe('error');
				expect(everything(execution)).toContain(
					'The model called the tool \\"Weather_Desk\\" with arguments that are not a JSON object',
				);
			});
		});
	});
}

/** n8n 1.x: the package loads, the Chat Model says what it needs. */
function describeWithoutSdk(line: N8nLine): void {
	describe(`n8n line ${line}.x`, () => {
		let n8n: N8nInstance | undefined;

		beforeAll(async () => {
			n8n = await startN8n({
				line,
				packages: [gatewayPackage.tarball],
				credentials: simulatorCredentials(sim),
				workflows: [
					loadWorkflow(join(__dirname, 'workflows', WORKFLOWS.chain), workflowId('chain')),
				],
			});
		});

		afterAll(async () => {
			await n8n?.stop();
		});

		test('loads the package with the Chat Model, which says plainly that it needs n8n 2.x', async () => {
			if (!n8n) throw new Error('n8n did not start');
			const types = await n8n.loadedNodeTypes();
			expect(types).toEqual(
				expect.arrayContaining([
					'n8n-nodes-model-gateway.modelGatewayChatModel',
					'n8n-nodes-model-gateway.modelGatewayChat',
					'n8n-nodes-model-gateway.modelGatewayVideo',
				]),
			);
			sim.reset();
			const { execution } = await n8n.runManualWorkflow(workflowId('chain'));
			expect(execution.status).toBe('error');
			expect(everything(execution)).toContain('Model Gateway Chat Model needs n8n 2.x');
			expect(modelRequests()).toHaveLength(0);
		});
	});
}

for (const line of N8N_LINES) {
	if (line === 2) describeAiNodes(line);
	else describeWithoutSdk(line);
}

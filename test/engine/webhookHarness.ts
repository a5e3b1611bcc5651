import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQuery } from 'node:querystring';

import { ExecutionLifecycleHooks, HookContext, WebhookContext, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteData,
	INode,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	IWebhookData,
	IWebhookResponseData,
	IWorkflowExecuteAdditionalData,
	Logger,
} from 'n8n-workflow';
import { createDeferredPromise, createRunExecutionData, NodeHelpers, Workflow } from 'n8n-workflow';

import { ModelGatewayTaskTrigger } from '../../nodes/ModelGatewayTaskTrigger/ModelGatewayTaskTrigger.node';
import { GenericAuthCredentialsHelper, PACKAGE_PREFIX } from './harness';

/**
 * A production webhook of one active workflow, served over real HTTP the way n8n's
 * LiveWebhooks serves it, with n8n-core's real WebhookContext and WorkflowExecute:
 *
 * - routing: `POST /webhook/<path>` with the path n8n computes (`NodeHelpers.getNodeWebhookPath`
 *   over the node's evaluated path expression); anything else is 404;
 * - body: n8n's body parser (application/json parsed or 422, text/plain as text, url-encoded
 *   parsed, other types `{}`; `rawBody` kept; 16 MiB cap → 413): for typeVersion 1 always, for
 *   later versions only for the content types n8n parses (n8n's `parseRequestBody`); other
 *   bodies are left unread in the request, without `rawBody` or `body`;
 * - answers: `noWebhookResponse` (the node answered itself), `webhookResponse` without
 *   `workflowData` (no execution), or the onReceived answer, then one execution of the workflow;
 * - static data: read fresh from the "database" for every request and written back whole when
 *   changed, after the answer (last writer wins, as n8n does).
 */

const PAYLOAD_SIZE_MAX = 16 * 1024 * 1024;
const TRIGGER_NAME = 'Task Callback';
// At most 16 characters: n8n saves static data only for such ids (isWorkflowIdValid).
const WORKFLOW_ID = 'webhookEngine001';

export interface WebhookHarnessOptions {
	parameters: IDataObject;
	credentials?: Record<string, ICredentialDataDecryptedObject>;
	/** The editor's random per-node values; fixed so the URL is known. */
	nodeId?: string;
	webhookId?: string;
	/** The trigger's typeVersion (default: its defaultVersion). */
	typeVersion?: number;
}

export interface LoggedWarning {
	message: string;
	meta?: unknown;
}

export interface WebhookHarness {
	/** The production URL n8n would show in the node panel. */
	readonly url: string;
	readonly baseUrl: string;
	/** The trigger's output (main 0) of every execution started, in start order. */
	readonly executions: INodeExecutionData[][];
	readonly warnings: LoggedWarning[];
	/**
	 * Activates (publishes) the workflow as n8n does: the webhook's `checkExists`, then `create`,
	 * through n8n-core's HookContext; what the node logs lands in `warnings`. Rejects as n8n's
	 * activation would fail.
	 */
	activate(): Promise<void>;
	/** The workflow's static data as saved in the "database". */
	savedStaticData(): IDataObject;
	/** Resolves when every execution started so far has finished. */
	settled(): Promise<void>;
	close(): Promise<void>;
}

const nodeType: INodeType = new ModelGatewayTaskTrigger();
const triggerType = `${PACKAGE_PREFIX}.${nodeType.description.name}`;

class TriggerNodeTypes implements INodeTypes {
	getByName(): INodeType {
		return nodeType;
	}

	getByNameAndVersion(type: string): INodeType {
		if (type !== triggerType) throw new Error(`Unknown node type in webhook test: ${type}`);
		return nodeType;
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

/** What n8n's request middleware adds to the incoming message. */
type WebhookRequest = IncomingMessage & {
	body: unknown;
	rawBody?: Buffer;
	contentType?: string;
	encoding?: BufferEncoding;
	query: IDataObject;
	params: IDataObject;
	originalUrl: string;
};

export async function startWebhookHarness(options: WebhookHarnessOptions): Promise<WebhookHarness> {
	const node: INode = {
		// A fresh id per harness, as every new workflow's node has its own.
		id: options.nodeId ?? randomUUID(),
		webhookId: options.webhookId ?? 'c3c1a7e2-0d4b-4b8e-a1f6-0e0f0e0f0e01',
		name: TRIGGER_NAME,
		type: triggerType,
		typeVersion: options.typeVersion ?? (nodeType.description.defaultVersion as number),
		position: [0, 0],
		parameters: options.parameters as INode['parameters'],
		credentials: { modelGatewayApi: { id: 'test-modelGatewayApi', name: 'modelGatewayApi' } },
	};
	const nodeTypes = new TriggerNodeTypes();
	let storedStaticData = '{}';
	const workflowFromDatabase = (staticData = storedStaticData) =>
		new Workflow({
			id: WORKFLOW_ID,
			name: 'webhook engine test',
			nodes: [node],
			connections: {},
			active: true,
			nodeTypes,
			staticData: JSON.parse(staticData) as IDataObject,
			settings: { executionOrder: 'v1' },
		});

	const description = nodeType.description.webhooks?.[0];
	if (!description) throw new Error('The trigger declares no webhook');
	const probe = workflowFromDatabase();
	const evaluated = String(
		probe.expression.getSimpleParameterValue(node, description.path, 'internal', {}),
	).replace(/^\/+|\/+$/g, '');
	const webhookPath = NodeHelpers.getNodeWebhookPath(WORKFLOW_ID, node, evaluated, false, false);

	const executions: INodeExecutionData[][] = [];
	const running = new Set<Promise<void>>();
	// A harness fault must fail the test, not vanish with the request.
	const failures: unknown[] = [];
	const warnings: LoggedWarning[] = [];
	const logger = {
		warn: (message: string, meta?: unknown) => warnings.push({ message, meta }),
		error: (message: string, meta?: unknown) => warnings.push({ message, meta }),
		info: () => {},
		debug: () => {},
	} as unknown as Logger;
	const credentialsHelper = new GenericAuthCredentialsHelper(options.credentials ?? {});

	const additionalDataFor = (
		hooks: ExecutionLifecycleHooks,
		request?: WebhookRequest,
		response?: ServerResponse,
	) =>
		({
			credentialsHelper,
			hooks,
			httpRequest: request,
			httpResponse: response,
			executeWorkflow: async () => {
				throw new Error('Sub-workflows are not part of the webhook tests');
			},
			restApiUrl: 'http://127.0.0.1/rest',
			instanceBaseUrl: `${baseUrl}/`,
			webhookBaseUrl: `${baseUrl}/webhook`,
			webhookWaitingBaseUrl: `${baseUrl}/webhook-waiting`,
			webhookTestBaseUrl: `${baseUrl}/webhook-test`,
			formWaitingBaseUrl: `${baseUrl}/form-waiting`,
			currentNodeParameters: undefined,
			executionTimeoutTimestamp: undefined,
			userId: 'webhook-test-user',
			variables: {},
			logAiEvent: () => {},
		}) as unknown as IWorkflowExecuteAdditionalData;

	const hooksFor = (workflow: Workflow) =>
		new ExecutionLifecycleHooks('webhook', 'webhook-test-execution', {
			id: WORKFLOW_ID,
			name: workflow.name,
			active: true,
			isArchived: false,
			createdAt: new Date(),
			updatedAt: new Date(),
			nodes: [node],
			connections: {},
			settings: {},
			activeVersionId: null,
		} as unknown as ConstructorParameters<typeof ExecutionLifecycleHooks>[2]);

	async function startExecution(workflow: Workflow, data: INodeExecutionData[][]): Promise<void> {
		const hooks = hooksFor(workflow);
		const finished = createDeferredPromise<IRun>();
		hooks.addHandler('workflowExecuteAfter', (run) => finished.resolve(run));
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [{ node, data: { main: data }, source: null } as IExecuteData],
			},
		});
		const execute = new WorkflowExecute(additionalDataFor(hooks), 'webhook', runExecutionData);
		await execute.processRunExecutionData(workflow);
		const run = await finished.promise;
		executions.push(run.data.resultData.runData[TRIGGER_NAME]?.[0]?.data?.main?.[0] ?? []);
	}

	const webhookDataFor = (workflow: Workflow): IWebhookData => ({
		httpMethod: 'POST',
		node: node.name,
		path: webhookPath,
		webhookDescription: description,
		workflowId: WORKFLOW_ID,
		workflowExecuteAdditionalData: additionalDataFor(hooksFor(workflow)),
	});

	/** n8n's WebhookService.createWebhookIfNotExists, as activation runs it. */
	const activate = async (): Promise<void> => {
		const workflow = workflowFromDatabase();
		const context = new HookContext(
			workflow,
			node,
			additionalDataFor(hooksFor(workflow)),
			'trigger',
			'activate',
			webhookDataFor(workflow),
		);
		Object.defineProperty(context, 'logger', { value: logger });
		const methods = nodeType.webhookMethods?.[description.name];
		if (!methods) throw new Error('The trigger declares no webhook methods');
		if (!(await methods.checkExists.call(context))) await methods.create.call(context);
	};

	async function handle(request: WebhookRequest, response: ServerResponse): Promise<void> {
		const path = (request.url ?? '').split('?')[0];
		if (request.method !== 'POST' || path !== `/webhook/${webhookPath}`) {
			request.resume();
			return sendJson(response, 404, {
				code: 404,
				message: `The requested webhook "${request.method ?? ''} ${path.replace(/^\/webhook\//, '')}" is not registered.`,
			});
		}
		request.originalUrl = request.url ?? '';
		request.query = parseQuery((request.url ?? '').split('?')[1] ?? '') as IDataObject;
		request.params = {};
		const [mime, ...parameters] = (request.headers['content-type'] ?? '').split(';');
		request.contentType = mime.trim().toLowerCase() || undefined;
		const charset = parameters.find((part) => part.trim().startsWith('charset='));
		request.encoding = (charset?.split('=')[1]?.trim() ?? 'utf-8') as BufferEncoding;
		if (node.typeVersion === 1 || isParsableContentType(request.contentType)) {
			const raw = await readRaw(request);
			if (raw === undefined)
				return sendJson(response, 413, { message: 'request entity too large' });
			request.rawBody = raw;
			try {
				request.body = parseBody(request, raw);
			} catch {
				return sendJson(response, 422, { message: 'Failed to parse request body' });
			}
		}

		// n8n reads the workflow (and its static data) from the database for every call: the
		// read is a snapshot, and other calls run while it is on its way, as in n8n.
		const snapshot = storedStaticData;
		await new Promise((resolve) => setImmediate(resolve));
		const workflow = workflowFromDatabase(snapshot);
		const context = new WebhookContext(
			workflow,
			node,
			additionalDataFor(hooksFor(workflow), request, response),
			'webhook',
			webhookDataFor(workflow),
			[],
			null,
		);
		Object.defineProperty(context, 'logger', { value: logger });

		let result: IWebhookResponseData;
		try {
			result = await nodeType.webhook!.call(context);
		} catch (error) {
			return sendJson(response, 500, {
				code: 0,
				message: error instanceof Error ? error.message : String(error),
			});
		}
		if (result.noWebhookResponse !== true) {
			const fallback = result.workflowData
				? { message: 'Workflow was started' }
				: { message: 'Webhook call received' };
			sendJson(response, 200, result.webhookResponse ?? fallback);
		}
		// LiveWebhooks saves the static data after answering, whether or not an execution starts.
		const staticData = workflow.staticData as IDataObject;
		if (staticData.__dataChanged === true && WORKFLOW_ID.length <= 16) {
			storedStaticData = JSON.stringify(staticData, (key, value: unknown) =>
				key === '__dataChanged' ? undefined : value,
			);
		}
		if (result.workflowData) {
			const execution = startExecution(workflow, result.workflowData);
			running.add(execution);
			void execution.finally(() => running.delete(execution));
		}
	}

	const server: Server = createServer((request, response) => {
		handle(request as WebhookRequest, response).catch((error: unknown) => {
			failures.push(error);
			if (!response.headersSent) sendJson(response, 500, { message: String(error) });
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

	return {
		url: `${baseUrl}/webhook/${webhookPath}`,
		baseUrl,
		executions,
		warnings,
		activate,
		savedStaticData: () => JSON.parse(storedStaticData) as IDataObject,
		settled: async () => {
			while (running.size > 0) await Promise.all([...running]);
			if (failures.length > 0) throw failures[0];
		},
		close: async () => {
			await new Promise<void>((resolve) => server.close(() => resolve()));
			server.closeAllConnections();
		},
	};
}

async function readRaw(request: IncomingMessage): Promise<Buffer | undefined> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of request as AsyncIterable<Buffer>) {
		size += chunk.length;
		if (size > PAYLOAD_SIZE_MAX) return undefined;
		chunks.push(chunk);
	}
	return Buffer.concat(chunks);
}

/** The content types n8n parses for webhook nodes of version 2 and later. */
function isParsableContentType(contentType: string | undefined): boolean {
	if (!contentType) return false;
	return (
		contentType.startsWith('application/json') ||
		contentType.startsWith('text/plain') ||
		contentType.startsWith('application/x-www-form-urlencoded') ||
		contentType.endsWith('/xml') ||
		contentType.endsWith('+xml')
	);
}

/** n8n's `parseBody` (packages/cli/src/middlewares/body-parser.ts), then `{}` when nothing was parsed. */
function parseBody(request: WebhookRequest, raw: Buffer): unknown {
	if (raw.length === 0) return {};
	const text = raw.toString(request.encoding);
	switch (request.contentType) {
		case 'application/json':
			return JSON.parse(text) as unknown;
		case 'application/x-www-form-urlencoded':
			return parseQuery(text);
		case 'text/plain':
			return text;
		default:
			return {};
	}
}

function sendJson(response: ServerResponse, statusCode: number, body: unknown): void {
	response.writeHead(statusCode, { 'content-type': 'application/json; charset=utf-8' });
	response.end(JSON.stringify(body));
}

/** Posts a body to a URL the way a gateway calls back: JSON unless told otherwise. */
export async function postCallback(
	url: string,
	body: unknown,
	headers: Record<string, string> = {},
): Promise<{ status: number; body: IDataObject }> {
	const response = await fetch(url, {
		method: 'POST',
		headers: { 'content-type': 'application/json', ...headers },
		body: typeof body === 'string' ? body : JSON.stringify(body),
	});
	const text = await response.text();
	return { status: response.status, body: text ? (JSON.parse(text) as IDataObject) : {} };
}

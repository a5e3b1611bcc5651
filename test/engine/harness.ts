import { Container } from '@n8n/di';
import { ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import type {
	IAuthenticateGeneric,
	ICredentialDataDecryptedObject,
	ICredentialType,
	IDataObject,
	IExecuteData,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeType,
	INodeTypes,
	IRun,
	ITaskData,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	createDeferredPromise,
	createRunExecutionData,
	ICredentialsHelper,
	NodeConnectionTypes,
	Workflow,
} from 'n8n-workflow';

import { ModelGatewayApi } from '../../credentials/ModelGatewayApi.credentials';
import { ModelGatewayAssetReviewApi } from '../../credentials/ModelGatewayAssetReviewApi.credentials';
import { packageNodeTypes } from './packageNodes';
import type { TestItem } from './testNodes';
import { AgeTasks, ModelProbe, TestItemsSource, TransportProbe } from './testNodes';

/**
 * Runs workflows through n8n's real engine in-process: n8n-core's WorkflowExecute over an
 * n8n-workflow Workflow, with the package's own node and credential classes. Credentials are
 * applied the way n8n applies generic authentication: each header value is an n8n
 * expression resolved with `$credentials`.
 */

export const PACKAGE_PREFIX = 'n8n-nodes-model-gateway';

export { shutDownEngineServices } from './engineServices';

const credentialTypes: Record<string, ICredentialType> = Object.fromEntries(
	[new ModelGatewayApi(), new ModelGatewayAssetReviewApi()].map((type) => [type.name, type]),
);

const nodeTypesByName: Record<string, INodeType> = {
	...Object.fromEntries(
		Object.values(packageNodeTypes).map((node) => [
			`${PACKAGE_PREFIX}.${node.description.name}`,
			node,
		]),
	),
	'test.testItems': new TestItemsSource(),
	'test.ageTasks': new AgeTasks(),
	'test.transportProbe': new TransportProbe(),
	'test.modelProbe': new ModelProbe(),
};

class PackageNodeTypes implements INodeTypes {
	getByName(nodeType: string): INodeType | IVersionedNodeType {
		return this.getByNameAndVersion(nodeType);
	}

	getByNameAndVersion(nodeType: string): INodeType {
		const type = nodeTypesByName[nodeType];
		if (!type) throw new Error(`Unknown node type in test workflow: ${nodeType}`);
		return type;
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

/** Applies a credential type's generic `authenticate` block, as n8n's CredentialsHelper does. */
/** Credentials as the engine tests give them, applied through each type's generic `authenticate`. */
export class GenericAuthCredentialsHelper extends ICredentialsHelper {
	constructor(private readonly credentialsByType: Record<string, ICredentialDataDecryptedObject>) {
		super();
	}

	getParentTypes(): string[] {
		return [];
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions,
		workflow: Workflow,
		node: INode,
	): Promise<IHttpRequestOptions> {
		const authenticate = credentialTypes[typeName]?.authenticate as
			| IAuthenticateGeneric
			| undefined;
		if (!authenticate || typeof authenticate !== 'object') return requestOptions;
		const resolve = (value: unknown) =>
			typeof value === 'string' && value.startsWith('=')
				? workflow.expression.getSimpleParameterValue(
						node,
						value,
						'internal',
						{ $credentials: credentials },
						undefined,
						'',
					)
				: value;
		const headers: IDataObject = { ...(requestOptions.headers ?? {}) };
		for (const [name, value] of Object.entries(authenticate.properties.headers ?? {})) {
			headers[name] = resolve(value) as string;
		}
		return { ...requestOptions, headers };
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<never> {
		throw new Error('getCredentials is not used by the engine tests');
	}

	async getDecrypted(
		_additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<ICredentialDataDecryptedObject> {
		const credentials = this.credentialsByType[type];
		if (!credentials) throw new Error(`No test credentials of type ${type}`);
		return credentials;
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(): [] {
		return [];
	}
}

export interface WorkflowNodeSpec {
	name?: string;
	/** Short node name (`modelGatewayChat`) for package nodes, or a full type name. */
	type: string;
	parameters: IDataObject;
	continueOnFail?: boolean;
	credentials?: boolean;
	/** A sub-node connected to this node's AI Language Model input (e.g. the Chat Model). */
	languageModel?: WorkflowNodeSpec;
	/** This output of the node is wired straight back into its own input (a loop). */
	loopBackOutput?: number;
}

export interface RunOptions {
	/** Items fed into the first node. */
	input?: TestItem[];
	credentials: Record<string, ICredentialDataDecryptedObject>;
	mode?: WorkflowExecuteMode;
	/**
	 * Runs as a streaming workflow (n8n's "streaming" response mode): every chunk a node sends
	 * with `sendChunk` is pushed here.
	 */
	streamedChunks?: StreamedChunk[];
	/**
	 * This n8n's webhook base URL (n8n's WEBHOOK_URL, which nodes read as getInstanceBaseUrl()):
	 * a webhook harness's `${baseUrl}/`, so its trigger counts as this n8n's own.
	 */
	instanceBaseUrl?: string;
}

/** A chunk as n8n's engine hands it to the `sendChunk` hook. */
export interface StreamedChunk {
	type: string;
	content?: string;
	metadata: { nodeName: string; itemIndex: number };
}

export interface RunResult {
	run: IRun;
	/** The first output of a node's last run. */
	output(nodeName: string): INodeExecutionData[];
	/** The error a node failed with, if it did. */
	error(nodeName: string): ITaskData['error'];
}

function toNode(spec: WorkflowNodeSpec, index: number): INode {
	const fullType = spec.type.includes('.') ? spec.type : `${PACKAGE_PREFIX}.${spec.type}`;
	const isPackageNode = fullType.startsWith(`${PACKAGE_PREFIX}.`);
	const credentials: INode['credentials'] = {};
	if ((isPackageNode || fullType === 'test.transportProbe') && spec.credentials !== false) {
		for (const credential of nodeTypesByName[fullType]?.description.credentials ?? []) {
			credentials[credential.name] = { id: `test-${credential.name}`, name: credential.name };
		}
	}
	return {
		id: `node-${index}`,
		name: spec.name ?? `Node ${index}`,
		type: fullType,
		typeVersion: 1,
		position: [index * 200, 0],
		parameters: spec.parameters as INode['parameters'],
		credentials,
		...(spec.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
	};
}

/** Runs a linear chain of nodes (input items → first → second → ...) and returns their data. */
export async function runChain(specs: WorkflowNodeSpec[], options: RunOptions): Promise<RunResult> {
	const source: WorkflowNodeSpec = {
		name: 'Input',
		type: 'test.testItems',
		parameters: { items: JSON.stringify(serializeItems(options.input ?? [{ json: {} }])) },
	};
	const chain = [source, ...specs].map(toNode);
	const connections: Workflow['connectionsBySourceNode'] = {};
	for (let index = 0; index < chain.length - 1; index++) {
		connections[chain[index].name] = {
			main: [[{ node: chain[index + 1].name, type: 'main', index: 0 }]],
		};
	}
	specs.forEach((spec, index) => {
		if (spec.loopBackOutput === undefined) return;
		const node = chain[index + 1].name;
		const main = connections[node]?.main ?? [];
		for (let output = 0; output <= spec.loopBackOutput; output++) main[output] ??= [];
		main[spec.loopBackOutput] = [{ node, type: 'main', index: 0 }];
		connections[node] = { main };
	});
	// Sub-nodes run only when the node they serve asks for them, as in n8n.
	const subNodes = specs.flatMap((spec, index) => {
		if (!spec.languageModel) return [];
		const parent = chain[index + 1].name;
		const node = toNode({ name: `${parent} Model`, ...spec.languageModel }, chain.length + index);
		connections[node.name] = {
			[NodeConnectionTypes.AiLanguageModel]: [
				[{ node: parent, type: NodeConnectionTypes.AiLanguageModel, index: 0 }],
			],
		};
		return [node];
	});
	const nodes = [...chain, ...subNodes];
	const workflow = new Workflow({
		id: 'engine-test',
		name: 'engine test',
		nodes,
		connections,
		active: false,
		nodeTypes: new PackageNodeTypes(),
		settings: { executionOrder: 'v1' },
	});

	const hooks = new ExecutionLifecycleHooks(options.mode ?? 'manual', 'engine-test-execution', {
		id: 'engine-test',
		name: 'engine test',
		active: false,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
		nodes,
		connections,
		settings: {},
		activeVersionId: null,
	} as unknown as ConstructorParameters<typeof ExecutionLifecycleHooks>[2]);
	const finished = createDeferredPromise<IRun>();
	hooks.addHandler('workflowExecuteAfter', (run) => finished.resolve(run));
	const streamedChunks = options.streamedChunks;
	if (streamedChunks) {
		hooks.addHandler('sendChunk', (chunk) => {
			streamedChunks.push(chunk as StreamedChunk);
		});
	}

	// Only what the engine reads while running these nodes; the rest belongs to n8n's server.
	const additionalData = {
		credentialsHelper: new GenericAuthCredentialsHelper(options.credentials),
		hooks,
		streamingEnabled: streamedChunks !== undefined,
		executeWorkflow: async () => {
			throw new Error('Sub-workflows are not part of the engine tests');
		},
		restApiUrl: 'http://127.0.0.1/rest',
		instanceBaseUrl: options.instanceBaseUrl ?? 'http://127.0.0.1/',
		formWaitingBaseUrl: 'http://127.0.0.1/form-waiting',
		webhookBaseUrl: 'http://127.0.0.1/webhook',
		webhookWaitingBaseUrl: 'http://127.0.0.1/webhook-waiting',
		webhookTestBaseUrl: 'http://127.0.0.1/webhook-test',
		currentNodeParameters: undefined,
		executionTimeoutTimestamp: undefined,
		userId: 'engine-test-user',
		variables: {},
		logAiEvent: () => {},
		startRunnerTask: async () => {
			throw new Error('Code runners are not part of the engine tests');
		},
	} as unknown as IWorkflowExecuteAdditionalData;

	const startNode = workflow.getNode('Input') as INode;
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [
				{ node: startNode, data: { main: [[{ json: {} }]] }, source: null } as IExecuteData,
			],
		},
	});
	const execute = new WorkflowExecute(additionalData, options.mode ?? 'manual', runExecutionData);
	await execute.processRunExecutionData(workflow);
	const run = await finished.promise;

	const lastRun = (nodeName: string): ITaskData | undefined => {
		const runs = run.data.resultData.runData[nodeName];
		return runs?.[runs.length - 1];
	};
	return {
		run,
		output: (nodeName) => lastRun(nodeName)?.data?.main?.[0] ?? [],
		error: (nodeName) => lastRun(nodeName)?.error,
	};
}

/** Runs one package node on the given input items. */
export async function runNode(
	spec: WorkflowNodeSpec,
	options: RunOptions,
): Promise<RunResult & { items: INodeExecutionData[] }> {
	const named = { ...spec, name: spec.name ?? 'Node Under Test' };
	const result = await runChain([named], options);
	return { ...result, items: result.output(named.name as string) };
}

function serializeItems(items: TestItem[]) {
	return items.map((item) => ({
		json: item.json,
		binary: Object.fromEntries(
			Object.entries(item.binary ?? {}).map(([key, file]) => [
				key,
				{ base64: file.data.toString('base64'), mimeType: file.mimeType, fileName: file.fileName },
			]),
		),
	}));
}

/** Reads a binary property of an output item back into bytes, through n8n's binary service. */
export async function binaryBytes(item: INodeExecutionData, property: string): Promise<Buffer> {
	const binary = item.binary?.[property];
	if (!binary) throw new Error(`Item has no binary property "${property}"`);
	if (binary.id) {
		const { BinaryDataService } = await import('n8n-core');
		return await Container.get(BinaryDataService).getAsBuffer(binary);
	}
	return Buffer.from(binary.data, 'base64');
}

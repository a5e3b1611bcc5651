/** Workflows of one webhook node each, for the callback benchmarks. */
import type { WorkflowJson, WorkflowNode } from '../test/e2e/harness';

export function singleNodeWorkflow(id: string, node: WorkflowNode): WorkflowJson {
	return {
		id,
		name: `bench: ${id}`,
		nodes: [node],
		connections: {},
		settings: { executionOrder: 'v1' },
	} as WorkflowJson;
}

/** n8n's own Webhook node: POST, a fixed path, answering On Received, nothing after it. */
export function webhookNodeWorkflow(
	workflowId: string,
	nodeId: string,
	webhookId: string,
	path: string,
): WorkflowJson {
	return singleNodeWorkflow(workflowId, {
		id: nodeId,
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId,
		parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
	});
}

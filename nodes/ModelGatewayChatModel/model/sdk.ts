import type * as AiNodeSdk from '@n8n/ai-node-sdk';
import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** The n8n versions this node's tests ran on (README, "Compatibility"). */
export const TESTED_N8N_VERSIONS = '2.41.1';

export type Sdk = typeof AiNodeSdk;

/**
 * n8n's AI Node SDK, which n8n 2.x provides to community packages at run time. Loaded only
 * when the node runs, never when n8n loads the package: n8n 1.x has no SDK and must still load
 * every other node of this package.
 */
export async function loadSdk(node: INode): Promise<Sdk> {
	try {
		return await import('@n8n/ai-node-sdk');
	} catch (error) {
		throw new NodeOperationError(node, 'Model Gateway Chat Model needs n8n 2.x', {
			description:
				`This n8n does not provide n8n's AI Node SDK (@n8n/ai-node-sdk), which the node uses to hand ` +
				`its model to the AI Agent and chains. Update n8n to 2.x (tested on ${TESTED_N8N_VERSIONS}), ` +
				`or call the gateway with the Model Gateway Chat node. (${(error as Error).message})`,
		});
	}
}

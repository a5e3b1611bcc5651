/**
 * What the editor check opens: every node of the package, optionally in several parameter
 * variants (for example the Video node once per family). Add a node or a variant here.
 */
import type { JsonObject } from '../harness';

export interface NodeVariant {
	/** Used in the screenshot name. */
	label: string;
	/** Parameters merged over the node's `parameters`. */
	parameters?: JsonObject;
	/** Parameter names whose input must be on the panel. */
	expectVisible?: string[];
	/** Parameter names whose input must NOT be on the panel (hidden for this variant). */
	expectHidden?: string[];
}

export interface EditorCheckNode {
	/** The node's `description.name` (the type is `n8n-nodes-model-gateway.<name>`). */
	name: string;
	typeVersion: number;
	/** Which credential type the node uses, so the panel shows a selected credential. */
	credential: 'gateway' | 'assetReview';
	parameters: JsonObject;
	/** At least one; the node is opened once per variant. */
	variants: NodeVariant[];
}

export const EDITOR_CHECK_NODES: EditorCheckNode[] = [
	{
		name: 'modelGatewayChat',
		typeVersion: 1,
		credential: 'gateway',
		parameters: {
			model: 'gpt-4o-mini',
			messages: { values: [{ role: 'user', content: 'Hello from the editor check' }] },
		},
		variants: [{ label: 'default', expectVisible: ['model', 'messages', 'options'] }],
	},
	// The Video node, for example (one variant per family):
	// {
	// 	name: 'modelGatewayVideo', typeVersion: 1, credential: 'gateway', parameters: { operation: 'create' },
	// 	variants: ['familyA', ...].map((family) => ({ label: family, parameters: { family },
	// 		expectVisible: [...], expectHidden: [...] })),
	// },
];

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
	/**
	 * Parameter labels (display names) that must be on the panel, each as a line of its own.
	 * Labels, not names: collections and fixed collections carry no per-name test id in the editor.
	 */
	expectVisible?: string[];
	/** Parameter labels that must NOT be on the panel (hidden for this variant). */
	expectHidden?: string[];
}

export interface EditorCheckNode {
	/** The node's `description.name` (the type is `n8n-nodes-model-gateway.<name>`). */
	name: string;
	typeVersion: number;
	/** The node's name on the canvas (its default name, as a user would see it). */
	title: string;
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
		title: 'Model Gateway Chat',
		credential: 'gateway',
		parameters: {
			model: 'gpt-4o-mini',
			messages: { values: [{ role: 'user', content: 'Hello from the editor check' }] },
		},
		variants: [{ label: 'default', expectVisible: ['Model', 'Messages', 'Role', 'Content', 'Options'] }],
	},
	// The Video node, for example (one variant per family):
	// {
	// 	name: 'modelGatewayVideo', typeVersion: 1, credential: 'gateway', parameters: { operation: 'create' },
	// 	variants: ['familyA', ...].map((family) => ({ label: family, parameters: { family },
	// 		expectVisible: [...], expectHidden: [...] })),
	// },
];

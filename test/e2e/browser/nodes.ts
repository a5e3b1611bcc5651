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
	/** Text (clicked first, e.g. a collapsed "Webhook URLs" section) before the panel is read. */
	reveal?: string;
	/** Text that must appear somewhere on the panel (e.g. a resolved webhook URL part). */
	expectText?: string[];
	/** Text that must not appear anywhere on the panel (e.g. an unresolved expression). */
	forbidText?: string[];
	/** On the README's n8n line, this panel's screenshot is also saved as this README image. */
	readmeScreenshot?: string;
}

export interface EditorCheckNode {
	/** The node's `description.name` (the type is `n8n-nodes-model-gateway.<name>`). */
	name: string;
	typeVersion: number;
	/** The node's name on the canvas (its default name, as a user would see it). */
	title: string;
	/** Which credential type the node uses, so the panel shows a selected credential. */
	credential: 'gateway' | 'assetReview';
	/** A trigger starts the check workflow itself (no Manual Trigger in front of it). */
	trigger?: boolean;
	/** A sub-node (an AI Agent's model) stands alone: it has no main input to connect. */
	subNode?: boolean;
	parameters: JsonObject;
	/** At least one; the node is opened once per variant. */
	variants: NodeVariant[];
	/** On the README's n8n line, the node panel's search for it is also saved as this image. */
	readmeSearchScreenshot?: string;
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
		variants: [
			{
				label: 'default',
				expectVisible: ['Model', 'Messages', 'Role', 'Content', 'Options'],
				readmeScreenshot: 'n8n-2-chat.png',
			},
		],
		readmeSearchScreenshot: 'n8n-2-node-search.png',
	},
	{
		name: 'modelGatewayChatModel',
		typeVersion: 1,
		title: 'Model Gateway Chat Model',
		credential: 'gateway',
		subNode: true,
		parameters: { model: 'gpt-4o-mini' },
		variants: [
			{
				label: 'chat completions',
				expectVisible: ['Model', 'API', 'Options'],
			},
			{
				label: 'responses',
				parameters: {
					api: 'responses',
					options: { reasoningEffort: 'low', maxTokens: 500 },
				},
				expectVisible: ['Model', 'API', 'Reasoning Effort', 'Maximum Number of Tokens'],
			},
		],
	},
	{
		name: 'modelGatewayResponses',
		typeVersion: 1,
		title: 'Model Gateway Responses',
		credential: 'gateway',
		parameters: { model: 'gpt-4.1-mini', inputMode: 'text', input: 'Hello from the editor check' },
		variants: [
			{ label: 'default', expectVisible: ['Model', 'Input Type', 'Simplify Output', 'Options'] },
		],
	},
	{
		name: 'modelGatewayImageEdit',
		typeVersion: 1,
		title: 'Model Gateway Image Edit',
		credential: 'gateway',
		parameters: { model: 'qwen-image-edit', prompt: 'Make the sky purple' },
		variants: [{ label: 'default', expectVisible: ['Model', 'Prompt', 'Images', 'Options'] }],
	},
	{
		name: 'modelGatewayAssetReview',
		typeVersion: 1,
		title: 'Model Gateway Asset Review',
		credential: 'assetReview',
		parameters: {},
		variants: [
			{
				label: 'default',
				expectVisible: ['Asset URLs From', 'Asset Type', 'Output One Item per Asset'],
			},
		],
	},
	{
		name: 'modelGatewayVideo',
		typeVersion: 1,
		title: 'Model Gateway Video',
		credential: 'gateway',
		parameters: { operation: 'create', model: 'video-model-1' },
		// One variant per family: each shows its own fields and none of the others'.
		variants: [
			{
				label: 'taskS',
				parameters: { family: 'taskS' },
				expectVisible: ['Content', 'Video Options'],
				expectHidden: ['Endpoint', 'Instances'],
			},
			{
				label: 'familyA',
				parameters: { family: 'familyA' },
				expectVisible: ['Endpoint', 'Prompt', 'Video Options'],
				expectHidden: ['Content', 'Instances'],
			},
			{
				label: 'generic',
				parameters: {
					family: 'generic',
					// Filled in as the README's example, so its picture shows a configured node.
					genericPrompt: 'A paper boat drifting down a rainy street',
					genericOptions: { duration: 10, size: '1080p' },
				},
				expectVisible: ['Prompt', 'Video Options'],
				expectHidden: ['Endpoint', 'Content', 'Instances'],
				readmeScreenshot: 'n8n-2-video-parameters.png',
			},
			{
				label: 'familyB',
				parameters: { family: 'familyB' },
				expectVisible: ['Prompt', 'Video Options'],
				expectHidden: ['Endpoint', 'Content', 'Instances'],
			},
			{
				label: 'familyC',
				parameters: { family: 'familyC' },
				expectVisible: ['Prompt', 'Video Options'],
				expectHidden: ['Endpoint', 'Content', 'Instances'],
			},
			{
				label: 'longRunning',
				parameters: { family: 'longRunning' },
				expectVisible: ['Instances', 'Parameters'],
				expectHidden: ['Endpoint', 'Content', 'Video Options'],
			},
		],
	},
	{
		name: 'modelGatewayWaitForTask',
		typeVersion: 1,
		title: 'Model Gateway Wait for Task',
		credential: 'gateway',
		parameters: {},
		variants: [
			{
				label: 'waitHere',
				parameters: { mode: 'waitHere' },
				expectVisible: ['Mode', 'Family', 'Task ID', 'Check Interval (Seconds)', 'Options'],
			},
			{
				label: 'checkOnce',
				parameters: { mode: 'checkOnce' },
				expectVisible: ['Mode', 'Task ID', 'Max Wait per Task (Minutes)'],
			},
		],
	},
	{
		name: 'modelGatewayTaskTrigger',
		typeVersion: 3,
		title: 'Model Gateway Task Callback Trigger',
		credential: 'gateway',
		trigger: true,
		parameters: {},
		variants: [
			{
				label: 'default',
				// Version 3's default: the secret made from the credential, nothing to type (no
				// typed secret on the panel).
				expectVisible: ['Secret', 'Family', 'Events'],
				expectHidden: ['Typed Secret'],
				// The URL users copy ends in /callback (the secret travels as ?secret=, added by the
				// Video node): <webhook id>/callback (the webhook id the editor check gives the trigger).
				reveal: 'Webhook URLs',
				expectText: ['0b7e5c1a-7c55-4d1e-9e51-ed1702c4e003/callback'],
			},
		],
	},
];

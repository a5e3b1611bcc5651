import type { INode } from 'n8n-workflow';

import { DEFAULT_SECRET, PARAMETERS } from './description';

/**
 * Typed secrets that n8n shows: the node's id (the typed secret's default, and the secret of
 * every version 1 and 2 trigger left as it came) and the workflow's id (`={{ $workflow.id }}`,
 * as the examples shipped it before 0.6) appear in the editor's URL and in every exported copy
 * of the workflow, so whoever saw either can start the workflow. Such a trigger still
 * activates (refusing it would stop workflows that run today); n8n's log says what to replace.
 */

/** Expressions that read the node's or the workflow's id, in the forms n8n accepts. */
const NODE_ID_REFERENCE = /\$nodeId\b|\$node\b[^}]*?(?:\.\s*id\b|\[\s*['"]id['"]\s*\])/;
const WORKFLOW_ID_REFERENCE = /\$workflow\s*(?:\.\s*id\b|\[\s*['"]id['"]\s*\])/;

/** Which shown id the typed secret is (or reads), or undefined when it is none of them. */
export function visibleSecretSource(
	node: INode,
	workflowId: string | undefined,
	resolvedSecret: string,
): 'node' | 'workflow' | undefined {
	const stored = String(node.parameters[PARAMETERS.secret] ?? DEFAULT_SECRET);
	const expression = stored.startsWith('=');
	const secret = resolvedSecret.trim();
	if (secret === node.id || (expression && NODE_ID_REFERENCE.test(stored))) return 'node';
	if (secret === workflowId || (expression && WORKFLOW_ID_REFERENCE.test(stored)))
		return 'workflow';
	return undefined;
}

const SHOWN_AS = {
	node: "the node's ID (the default of versions 1 and 2)",
	workflow: "the workflow's ID ({{ $workflow.id }}, as the examples shipped it before 0.6)",
};

/** The warning n8n's log gets at activation: what the secret is, and what to replace it with. */
export function visibleSecretWarning(node: INode, source: 'node' | 'workflow'): string {
	return `Model Gateway Task Callback Trigger "${node.name}": its Secret is ${SHOWN_AS[source]}, which n8n shows in the editor's URL and in exported workflows, so anyone who has seen either can start this workflow. Replace it: set Secret to Made From the Credential (with the Model Gateway credential; the Video node's option Add Callback Secret adds it to the Callback URL), or type 24 or more random letters, digits, "-" and "_"; then activate (publish) the workflow again and update the Callback URL.`;
}

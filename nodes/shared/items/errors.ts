import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * Errors a node builds itself. Input errors name the item ("Item 2: ...") and say that nothing
 * was sent. Errors built from the gateway's words are made in gatewayError.ts, which redacts.
 */

/** "Item 2: ", the start of every message about one input item. */
export function itemPrefix(itemIndex: number): string {
	return `Item ${itemIndex}: `;
}

export const NOTHING_SENT = 'Nothing was sent to the gateway.';

/** Bad input for one item, found before anything was sent. */
export function itemInputError(
	node: INode,
	itemIndex: number,
	message: string,
	description?: string,
): NodeOperationError {
	return new NodeOperationError(node, `${itemPrefix(itemIndex)}${message}`, {
		itemIndex,
		description: description ? `${description} ${NOTHING_SENT}` : NOTHING_SENT,
	});
}

import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError, NodeOperationError } from 'n8n-workflow';

/**
 * Errors a node builds itself. Input errors name the item ("Item 2: ...") and say that nothing
 * was sent; gateway errors keep the gateway's own words as the message.
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

/**
 * A failure the gateway reported, with its words as the message. NodeApiError replaces the
 * message of well-known HTTP codes with generic text, so the message is set again.
 */
export function gatewayAnswerError(
	node: INode,
	answer: JsonObject,
	details: { message: string; description?: string; itemIndex?: number; httpCode?: string },
): NodeApiError {
	const error = new NodeApiError(node, answer, details);
	error.message = details.message;
	return error;
}

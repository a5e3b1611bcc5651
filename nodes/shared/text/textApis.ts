import type { IDataObject } from 'n8n-workflow';

import type {
	BusinessFailureCheck,
	GatewayContext,
	GatewayResponse,
	RetryPolicy,
} from '../gateway/transport';
import { gatewayRequest } from '../gateway/transport';
import { chatCompletionFailure, responseFailure } from '../schemas/textAnswers';
import type { StreamAggregator } from '../streams/sse';
import { ChatStreamAggregator, ResponsesStreamAggregator } from '../streams/sse';

/**
 * The two text APIs as every caller sends to them (the Chat and Responses nodes, the Chat
 * Model): where each is, how its stream aggregates, and what a success of it carries. Every
 * text request goes through `sendToTextApi`, so no caller can take an answer without its rule.
 */

export interface TextApi {
	path: string;
	/** Turns a stream's events into the answer a plain request gets, held to the same rule. */
	aggregator(): StreamAggregator<IDataObject>;
	/** What a success carries (textAnswers.ts); a plain answer without it is a failure. */
	answerFailure: BusinessFailureCheck;
}

export const CHAT_COMPLETIONS_API: TextApi = {
	path: '/v1/chat/completions',
	aggregator: () => new ChatStreamAggregator(),
	answerFailure: chatCompletionFailure,
};

export const RESPONSES_API: TextApi = {
	path: '/v1/responses',
	aggregator: () => new ResponsesStreamAggregator(),
	answerFailure: responseFailure,
};

export interface TextRequest {
	body: IDataObject;
	stream: boolean;
	traceId?: string;
	itemIndex: number;
	/** Without it, the item's "Timeout (Seconds)" option (see the transport). */
	timeoutMs?: number;
}

/**
 * Sends one text request (a create: never repeated once the gateway may have seen it). A
 * plain answer comes back only when it is a success of the API, else the transport throws
 * the gateway's failure; a streamed one is read with `api.aggregator()`, which holds it to
 * the same rule.
 */
export async function sendToTextApi(
	context: GatewayContext,
	api: TextApi,
	request: TextRequest,
	retryPolicy?: RetryPolicy,
): Promise<GatewayResponse<unknown>> {
	return await gatewayRequest<unknown>(
		context,
		{
			method: 'POST',
			path: api.path,
			kind: 'create',
			body: request.body,
			traceId: request.traceId,
			itemIndex: request.itemIndex,
			timeoutMs: request.timeoutMs,
			stream: request.stream,
			businessFailure: api.answerFailure,
		},
		retryPolicy,
	);
}

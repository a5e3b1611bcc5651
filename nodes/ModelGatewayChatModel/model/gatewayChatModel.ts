import type {
	ChatModel,
	ChatModelConfig,
	GenerateResult,
	Message,
	StreamChunk,
	Tool,
} from '@n8n/ai-node-sdk';
import type { IDataObject, ISupplyDataFunctions } from 'n8n-workflow';

import { gatewayApiError } from '../../shared/gateway/gatewayError';
import type { GatewayResponse } from '../../shared/gateway/transport';
import { validateRequest } from '../../shared/schemas/validate';
import {
	eventStreamTexts,
	isByteStream,
	isEventStream,
	streamFailureError,
	wholeAnswerOutcome,
	type StreamOutcome,
} from '../../shared/streams/sse';
import { sendToTextApi } from '../../shared/text/textApis';
import { chatCompletionsApi } from './chatCompletions';
import type { ToolCallRequest } from './conversation';
import { argumentsProblem, functionDefinitions } from './conversation';
import type { ModelApi } from './modelApi';
import { responsesApi } from './responses';
import type { Sdk } from './sdk';
import type { GatewayApi, ModelSettings } from './settings';

/**
 * The AI Agent's model: every call goes through the package's transport (credential, base URL,
 * X-Trace-ID, timeout, the execution's cancel signal, 429 waited out, nothing repeated that
 * the gateway may have processed, the key redacted, the gateway's own error words) and every
 * stream through its one SSE parser; every answer, plain or streamed, is held to its API's
 * success rule (textApis.ts), so a gateway error inside HTTP 200 stops the agent.
 */

const MODEL_APIS: Record<GatewayApi, ModelApi> = {
	chatCompletions: chatCompletionsApi,
	responses: responsesApi,
};

/** Where a model's calls come from: the node run that supplied it. */
export interface ModelRun {
	context: ISupplyDataFunctions;
	settings: ModelSettings;
	sdk: Sdk;
}

type Answer = GatewayResponse<unknown>;

async function send(
	run: ModelRun,
	messages: Message[],
	tools: Tool[],
	stream: boolean,
): Promise<Answer> {
	const { context, settings, sdk } = run;
	const api = MODEL_APIS[settings.api];
	const definitions = functionDefinitions(tools, (tool) => sdk.getParametersJsonSchema(tool));
	const body = validateRequest(
		api.schema,
		api.body(settings, messages, definitions, stream),
		context.getNode(),
		settings.itemIndex,
	) as IDataObject;
	return await sendToTextApi(
		context,
		api,
		{
			body,
			stream,
			traceId: settings.traceId,
			itemIndex: settings.itemIndex,
			timeoutMs: settings.timeoutMs,
		},
		settings.retryPolicy,
	);
}

/** What the agent's logs show beside the answer: the request's trace id and the model. */
function metadataOf(run: ModelRun, response: Answer, answer: IDataObject): IDataObject {
	return {
		traceId: response.traceId ?? null,
		model: typeof answer.model === 'string' ? answer.model : run.settings.model,
		api: run.settings.api,
	};
}

/** A tool call the agent could not run: said plainly instead of handed on broken. */
function refuseBrokenToolCalls(run: ModelRun, calls: ToolCallRequest[], response: Answer): void {
	for (const call of calls) {
		const problem = argumentsProblem(call);
		if (problem === undefined) continue;
		throw gatewayApiError(
			run.context.getNode(),
			{
				message: `The model called the tool "${call.name}" with arguments that are not a JSON object`,
				code: 'INVALID_TOOL_CALL',
				description: `Arguments: ${call.arguments.slice(0, 300)} (${problem}).${
					response.traceId ? ` X-Trace-ID ${response.traceId}.` : ''
				}`,
				itemIndex: run.settings.itemIndex,
			},
			response.redactor,
		);
	}
}

function finishedAnswer(run: ModelRun, response: Answer, answer: IDataObject): GenerateResult {
	const api = MODEL_APIS[run.settings.api];
	refuseBrokenToolCalls(run, api.toolCalls(answer), response);
	return api.result(answer, metadataOf(run, response, answer));
}

export async function generate(
	run: ModelRun,
	messages: Message[],
	tools: Tool[],
): Promise<GenerateResult> {
	const response = await send(run, messages, tools, false);
	// The transport only hands on a success of the API (textApis.ts).
	return finishedAnswer(run, response, response.body as IDataObject);
}

/** Text as it arrives; then the finished answer's tool calls (whole) and its usage. */
export async function* stream(
	run: ModelRun,
	messages: Message[],
	tools: Tool[],
): AsyncGenerator<StreamChunk> {
	const response = await send(run, messages, tools, true);
	const aggregator = MODEL_APIS[run.settings.api].aggregator();
	const events = isByteStream(response.body) && isEventStream(response.headers);
	let outcome: StreamOutcome<IDataObject>;
	if (events) {
		const texts = eventStreamTexts(response.body as AsyncIterable<Uint8Array | string>, aggregator);
		for (;;) {
			const next = await texts.next();
			if (next.done === true) {
				outcome = next.value;
				break;
			}
			yield { type: 'text-delta', delta: next.value };
		}
	} else {
		// A stream request answered with one plain JSON object (a gateway may do so).
		outcome = await wholeAnswerOutcome(response.body, aggregator);
	}
	if ('failure' in outcome) {
		throw streamFailureError(
			run.context.getNode(),
			outcome.failure,
			run.settings.itemIndex,
			response.redactor,
			response.traceId,
		);
	}
	const result = finishedAnswer(run, response, outcome.result);
	for (const part of result.message.content) {
		if (part.type === 'text' && !events) yield { type: 'text-delta', delta: part.text };
		if (part.type === 'tool-call') {
			// Whole, once the answer is complete: fragments are reassembled by the aggregator.
			yield {
				type: 'tool-call-delta',
				id: part.toolCallId,
				name: part.toolName,
				argumentsDelta: part.input,
			};
		}
	}
	yield { type: 'finish', finishReason: result.finishReason ?? 'stop', usage: result.usage };
}

/**
 * The SDK's chat model over `run`, made from the SDK's own base class, which exists only once
 * the SDK is loaded (see sdk.ts).
 */
export function createGatewayChatModel(run: ModelRun): ChatModel {
	class GatewayChatModel extends run.sdk.BaseChatModel<ChatModelConfig> {
		async generate(messages: Message[]): Promise<GenerateResult> {
			return await generate(run, messages, this.tools);
		}

		async *stream(messages: Message[]): AsyncIterable<StreamChunk> {
			yield* stream(run, messages, this.tools);
		}
	}
	return new GatewayChatModel('model-gateway', run.settings.model);
}

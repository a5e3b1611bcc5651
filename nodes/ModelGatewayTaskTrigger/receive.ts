import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { callbackSecretOf } from '../shared/gateway/transport';
import { isDone } from '../shared/tasks';
import { DEFAULT_MAX_BODY_KB, readCallbackBody } from './body';
import { confirmWithGateway, unconfirmableReason } from './confirm';
import type { EventsChoice } from './description';
import { DEFAULT_SECRET, PARAMETERS } from './description';
import type { EventKey } from './eventMemory';
import { DEFAULT_MEMORY_CAPACITY, callMemory, keepMemory } from './eventMemory';
import type { CallbackEvent, FamilyChoice } from './recognize';
import { AUTO_DETECT, recognizeEvent } from './recognize';
import type { SecretLocation } from './secret';
import { SECRET_HEADER, SECRET_QUERY_PARAMETER, checkSecret, lastPathSegment } from './secret';

/** Request headers worth keeping with the event (the rest is transport noise). */
const KEPT_HEADERS = [
	'content-type',
	'content-length',
	'user-agent',
	'x-trace-id',
	'x-request-id',
	'x-forwarded-for',
	'x-real-ip',
];

/**
 * One callback, start to finish: secret → body → recognition → (confirmation) → event
 * filter → duplicate and order check → one execution or a plain answer. Every refusal is a
 * 4xx (or 502 when the gateway could not confirm) with a short reason, logged, and starts
 * nothing; every drop is a 200 that starts nothing.
 */
export async function receiveCallback(context: IWebhookFunctions): Promise<IWebhookResponseData> {
	const request = context.getRequestObject();
	const headers = context.getHeaderData();
	const location = context.getNodeParameter(PARAMETERS.secretLocation, 'path') as SecretLocation;
	const secret = await checkSecret(
		location,
		async () =>
			location === 'credential' ? await credentialSecret(context) : configuredSecret(context),
		{
			pathSecret: lastPathSegment(request.originalUrl ?? request.url),
			querySecret: (context.getQueryData() as IDataObject)[SECRET_QUERY_PARAMETER],
			headerSecret: headers[SECRET_HEADER],
		},
	);
	if (!secret.ok) return refuse(context, secret.statusCode, secret.reason);

	const options = context.getNodeParameter(PARAMETERS.options, {}) as {
		maxBodyKb?: number;
		memoryCapacity?: number;
	};
	const { rawBody } = request as unknown as { rawBody?: Buffer };
	const reading = await readCallbackBody(
		{
			parsedBody: context.getBodyData() as unknown,
			rawBody,
			// Version 2: n8n reads only the content types it parses (and evaluates no expression
			// per call to decide); the rest is read here.
			unread: rawBody === undefined && !request.readableEnded ? request : undefined,
			contentLength: headers['content-length'],
			contentType: headers['content-type'],
		},
		options.maxBodyKb ?? DEFAULT_MAX_BODY_KB,
	);
	if (!reading.ok) return refuse(context, reading.statusCode, reading.reason);

	const traceHeader = headers['x-trace-id'];
	const claimed = recognizeEvent(
		reading.body,
		context.getNodeParameter(PARAMETERS.family, AUTO_DETECT) as FamilyChoice,
		{ traceId: typeof traceHeader === 'string' ? traceHeader : null },
	);
	if (!claimed) {
		return refuse(
			context,
			422,
			'The callback body is not a task record or asset review result this trigger knows',
		);
	}

	const events = context.getNodeParameter(PARAMETERS.events, 'final') as EventsChoice;
	// Production calls are judged in this process's memory (exact, and kept across restarts
	// through the static data n8n saves); test calls in static data, which n8n does not keep.
	const staticData = context.getWorkflowStaticData('node');
	const memory = callMemory(
		staticData,
		context.getMode() === 'manual'
			? undefined
			: `${context.getWorkflow().id ?? ''}/${context.getNode().id}`,
	);
	const capacity = options.memoryCapacity ?? DEFAULT_MEMORY_CAPACITY;
	const dropped = (of: CallbackEvent, reason: string): IWebhookResponseData => ({
		webhookResponse: { ...summary(of), started: false, dropped: reason },
	});

	let event: CallbackEvent = claimed;
	let confirmed = false;
	const wantsConfirmation = context.getNodeParameter(PARAMETERS.confirm, false) === true;
	const unconfirmable = wantsConfirmation ? unconfirmableReason(claimed) : undefined;
	if (wantsConfirmation && unconfirmable === undefined && claimed.family !== 'assetReview') {
		// A claim that could not start anything anyway costs no gateway query.
		const early = memory.judge(memoryKey(claimed), capacity, false);
		if (early !== 'new') return dropped(claimed, early);
		if (events === 'final' && !claimed.done) return dropped(claimed, 'notFinal');
		const confirmation = await confirmWithGateway(
			context,
			claimed,
			String(context.getNodeParameter(PARAMETERS.familyAEndpoint, 'omni-video')),
		);
		if (!confirmation.ok) return refuse(context, confirmation.statusCode, confirmation.reason);
		event = confirmation.task;
		confirmed = true;
	}

	// An event this trigger does not emit (an unfinished one, with final events only) is judged
	// but not remembered: the memory, saved whole by every call that starts an execution, then
	// holds what a restart must not forget and no queued or running step of every task.
	const emits = events === 'all' || isDone(event.status);
	const verdict = memory.judge(memoryKey(event), capacity, emits);
	if (verdict !== 'new') return dropped(event, verdict);
	if (!emits) return dropped(event, 'notFinal');
	// Only a call that starts an execution has something a restart must not forget.
	keepMemory(staticData, memory);

	const json: IDataObject = {
		...(event as unknown as IDataObject),
		confirmed,
		...(unconfirmable !== undefined ? { unconfirmedReason: unconfirmable } : {}),
		body: reading.body as IDataObject,
		// What the callback URL carried (a row key, say), so a task finds its record without
		// the execution that created it; the secret stays out of the output.
		query: callbackQuery(context.getQueryData() as IDataObject),
		headers: keptHeaders(headers),
		receivedAt: new Date().toISOString(),
	};
	// Answered here, like every other callback: on its own, n8n would answer a started one
	// with the text "firstEntryJson" (its onReceived default), not with the summary.
	answer(context, 200, { ...summary(event), started: true });
	return { noWebhookResponse: true, workflowData: [[{ json }]] };
}

/** The callback URL's query parameters, without the secret's. */
function callbackQuery(query: IDataObject): IDataObject {
	return Object.fromEntries(
		Object.entries(query).filter(([name]) => name !== SECRET_QUERY_PARAMETER),
	);
}

/**
 * The secret the trigger is set to. The default (the node's id, an expression) is read without
 * n8n's expression sandbox, which in n8n 1.123 costs an isolate evaluation per callback.
 */
function configuredSecret(context: IWebhookFunctions): string {
	const node = context.getNode();
	const stored = node.parameters[PARAMETERS.secret];
	if (stored === undefined || stored === DEFAULT_SECRET) return node.id;
	return String(context.getNodeParameter(PARAMETERS.secret, ''));
}

/**
 * The secret made from the trigger's credential; '' (refusing every call) when it has none: no
 * credential, or an empty API key, whose secret anyone could compute.
 */
async function credentialSecret(context: IWebhookFunctions): Promise<string> {
	try {
		return await callbackSecretOf(context);
	} catch (error) {
		context.logger.warn(
			`Model Gateway callback: no secret could be made from the trigger's credential (${(error as Error).message})`,
		);
		return '';
	}
}

function summary(event: CallbackEvent): IDataObject {
	return { received: true, family: event.family, taskId: event.taskId, status: event.status };
}

function memoryKey(event: CallbackEvent): EventKey {
	return {
		family: event.family,
		taskId: event.taskId,
		status: event.status,
		rawStatus: event.rawStatus,
	};
}

function keptHeaders(headers: Record<string, string | string[] | undefined>): IDataObject {
	const kept: IDataObject = {};
	for (const name of KEPT_HEADERS) {
		const value = headers[name];
		if (value !== undefined) kept[name] = Array.isArray(value) ? value.join(', ') : value;
	}
	return kept;
}

/** Answers a refused callback directly and starts nothing. */
function refuse(
	context: IWebhookFunctions,
	statusCode: number,
	reason: string,
): IWebhookResponseData {
	context.logger.warn(`Model Gateway callback refused (${statusCode}): ${reason}`, {
		node: context.getNode().name,
		workflowId: context.getWorkflow().id,
	});
	answer(context, statusCode, { received: false, reason });
	return { noWebhookResponse: true };
}

function answer(context: IWebhookFunctions, statusCode: number, body: IDataObject): void {
	const response = context.getResponseObject();
	response.writeHead(statusCode, { 'content-type': 'application/json; charset=utf-8' });
	response.end(JSON.stringify(body));
}

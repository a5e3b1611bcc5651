import type { IWebhookFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import { TASK_FAMILIES, type NormalizedTask } from '../shared/tasks';
import type { CallbackEvent } from './recognize';
import { queryTask } from '../shared/tasks/query';

/**
 * "Confirm with the Gateway": the callback body is only a claim, since anyone who knows the
 * URL can post one. Before emitting, fetch the task record once with the user's credential
 * and emit that instead. One query per callback, never a loop. Task family S tasks are never
 * queried: the gateway allows a query only when no callback has arrived, so they (and asset
 * reviews, which cannot be queried) are emitted as received with the reason.
 */

/** Gateways give callbacks little time; the confirmation must fit in it. */
export const CONFIRM_TIMEOUT_MS = 10_000;
// One query, no retries and no rate-limit waits: the gateway resends a callback we fail.
const NO_RETRIES = { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0, maxRateLimitWaits: 0 };

/** Why an event cannot be confirmed with a query; undefined when it can. */
export function unconfirmableReason(event: CallbackEvent): string | undefined {
	if (event.family === 'assetReview') return 'Asset review results cannot be queried';
	const family = TASK_FAMILIES[event.family];
	if (family.pollPolicy.queryOnlyWithoutCallback) {
		return `${family.displayName} tasks may be queried only while no callback has arrived, so this one was not queried`;
	}
	return undefined;
}

export type Confirmation =
	| { ok: true; task: NormalizedTask }
	| { ok: false; statusCode: 403 | 502; reason: string };

/**
 * Copies of one claim (gateways repeat final callbacks, often at the same moment) share one
 * query while the family's shortest allowed gap between two queries lasts, so a burst of
 * duplicates never queries a task twice (Task family S: at most once a minute).
 */
const MAX_SHARED_CONFIRMATIONS = 1000;
const sharedConfirmations = new Map<string, { at: number; confirmation: Promise<Confirmation> }>();

export async function confirmWithGateway(
	context: IWebhookFunctions,
	claimed: NormalizedTask,
	familyAEndpoint: string,
): Promise<Confirmation> {
	const now = Date.now();
	const key = `${context.getWorkflow().id ?? ''}/${context.getNode().id}/${claimed.family}:${claimed.taskId}:${claimed.status}`;
	const sharedFor = TASK_FAMILIES[claimed.family].pollPolicy.minIntervalMs;
	const shared = sharedConfirmations.get(key);
	if (shared && now - shared.at < sharedFor) return await shared.confirmation;
	const confirmation = queryOnce(context, claimed, familyAEndpoint);
	sharedConfirmations.set(key, { at: now, confirmation });
	for (const [oldKey, entry] of sharedConfirmations) {
		if (sharedConfirmations.size <= MAX_SHARED_CONFIRMATIONS && now - entry.at < 3_600_000) break;
		sharedConfirmations.delete(oldKey);
	}
	return await confirmation;
}

async function queryOnce(
	context: IWebhookFunctions,
	claimed: NormalizedTask,
	familyAEndpoint: string,
): Promise<Confirmation> {
	try {
		const { task } = await queryTask(
			context,
			{
				family: claimed.family,
				taskId: claimed.taskId,
				model: claimed.model,
				endpoint: claimed.endpoint ?? familyAEndpoint,
				createdAt: claimed.createdAt,
			},
			{
				traceId: claimed.traceId ?? undefined,
				timeoutMs: CONFIRM_TIMEOUT_MS,
				retryPolicy: NO_RETRIES,
			},
		);
		if (task.taskId !== '' && task.taskId !== claimed.taskId && !sameTask(task, claimed)) {
			return {
				ok: false,
				statusCode: 403,
				reason: `The gateway's record is for task ${task.taskId}, not ${claimed.taskId}`,
			};
		}
		return { ok: true, task: { ...task, taskId: claimed.taskId } };
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		const httpCode = error instanceof NodeApiError ? Number(error.httpCode) : NaN;
		// The gateway does not know the task (404, or Family A's 1203 "task not found"):
		// the callback is forged or meant for another account.
		if (httpCode === 404 || /not found/i.test(message)) {
			return {
				ok: false,
				statusCode: 403,
				reason: `The gateway does not know task ${claimed.taskId}: ${message}`,
			};
		}
		return {
			ok: false,
			statusCode: 502,
			reason: `The task could not be confirmed with the gateway: ${message}`,
		};
	}
}

/** Long-running ids are returned in full (`models/m/operations/x`) or short. */
function sameTask(a: NormalizedTask, b: NormalizedTask): boolean {
	return a.taskId.endsWith(`/${b.taskId}`) || b.taskId.endsWith(`/${a.taskId}`);
}

import type { IWebhookFunctions } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { NormalizedTask } from '../shared/tasks';
import { queryTask } from '../shared/tasks/query';

/**
 * "Confirm with the Gateway": the callback body is only a claim, since anyone who knows the
 * URL can post one. Before emitting, fetch the task record once with the user's credential
 * and emit that instead. One query per callback, never a loop: for Task family S this is
 * within the spirit of the polling rule (query only when no callback came, at most once a
 * minute), because the query answers a callback the gateway just sent.
 */

/** Gateways give callbacks little time; the confirmation must fit in it. */
export const CONFIRM_TIMEOUT_MS = 10_000;
// One query, no retries and no rate-limit waits: the gateway resends a callback we fail.
const NO_RETRIES = { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0, maxRateLimitWaits: 0 };

export type Confirmation =
	| { ok: true; task: NormalizedTask }
	| { ok: false; statusCode: 403 | 502; reason: string };

export async function confirmWithGateway(
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

import {
	DEFAULT_RETRY_POLICY,
	gatewayRequest,
	type GatewayContext,
	type RetryPolicy,
} from '../transport';
import { taskFamily } from './index';
import type { ParsedTask, TaskReference } from './task';

/**
 * One query of one task, as every reader of tasks makes it (Get Status, Wait for Task, the
 * callback trigger's confirmation): the family builds the request and reads its business
 * failures, the transport sends it, the family parses the record.
 */
export async function queryTask(
	context: GatewayContext,
	reference: TaskReference,
	options: {
		traceId?: string;
		itemIndex?: number;
		timeoutMs?: number;
		retryPolicy?: RetryPolicy;
	} = {},
): Promise<ParsedTask> {
	const family = taskFamily(reference.family);
	const query = family.buildQueryRequest(reference);
	const response = await gatewayRequest<unknown>(
		context,
		{
			method: query.method,
			path: query.path,
			kind: 'read',
			businessFailure: family.businessFailure,
			traceId: options.traceId,
			itemIndex: options.itemIndex,
			timeoutMs: options.timeoutMs,
		},
		options.retryPolicy ?? DEFAULT_RETRY_POLICY,
	);
	const parsed = family.parseTaskRecord(response.body, {
		model: reference.model ?? null,
		endpoint: reference.endpoint ?? null,
		traceId: response.traceId ?? null,
		createdAt: reference.createdAt ?? null,
	});
	if (parsed.task.taskId === '') parsed.task.taskId = reference.taskId;
	return parsed;
}

import type { IExecuteFunctions } from 'n8n-workflow';

import {
	DEFAULT_RETRY_POLICY,
	gatewayRequest,
	type GatewayContext,
	type RetryPolicy,
} from '../transport';
import { mediaStoringReader } from '../binary';
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
	// Inline media go to binary storage while the answer arrives (named for real in taskItem);
	// only where the node can store binary data (not in a webhook's confirmation).
	const media =
		family.inlineMediaKeys && 'getExecutionCancelSignal' in context
			? mediaStoringReader(context as IExecuteFunctions, family.inlineMediaKeys, (index) => ({
					fileName: `video_${index}.mp4`,
					mimeType: 'video/mp4',
				}))
			: undefined;
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
			readJson: media?.readJson,
		},
		options.retryPolicy ?? DEFAULT_RETRY_POLICY,
	);
	const parsed = family.parseTaskRecord(response.body, {
		model: reference.model ?? null,
		endpoint: reference.endpoint ?? null,
		traceId: response.traceId ?? null,
		createdAt: reference.createdAt ?? null,
		storedMedia: media?.storedMedia(),
	});
	if (parsed.task.taskId === '') parsed.task.taskId = reference.taskId;
	// A failed task's message may echo the credential: no output carries it.
	return { ...parsed, task: response.redactor.value(parsed.task) };
}

import type { IExecuteFunctions } from 'n8n-workflow';

import {
	DEFAULT_RETRY_POLICY,
	gatewayRequest,
	type GatewayContext,
	type RetryPolicy,
} from '../gateway/transport';
import { mediaStoringReader } from '../media/binary';
import { RULE_SAFETY_MARGIN_MS } from '../polling/timing';
import { taskFamily } from './index';
import type { ParsedTask, TaskReference } from './task';

/**
 * When each task whose family's rule the gateway enforces (Task family S: at most one query a
 * minute) was last queried in this process, by any reader (Get Status, Wait for Task): one
 * record, so two readers never query one task closer together than the rule allows. Bounded;
 * the oldest entries are forgotten first (by then their minute is long over).
 */
const lastQueries = new Map<string, number>();
const MAX_REMEMBERED_QUERIES = 10_000;

const queryKey = (reference: Pick<TaskReference, 'family' | 'taskId'>) =>
	`${reference.family}:${reference.taskId}`;

/** The earliest time the rule allows the next query of this task, from this process's record. */
export function nextQueryAllowedAt(
	reference: Pick<TaskReference, 'family' | 'taskId'>,
): number | undefined {
	const policy = taskFamily(reference.family).pollPolicy;
	const last = lastQueries.get(queryKey(reference));
	if (!policy.enforcedByGateway || last === undefined) return undefined;
	return last + policy.minIntervalMs + RULE_SAFETY_MARGIN_MS;
}

function recordQuery(reference: Pick<TaskReference, 'family' | 'taskId'>, at: number): void {
	const key = queryKey(reference);
	lastQueries.delete(key);
	lastQueries.set(key, at);
	if (lastQueries.size > MAX_REMEMBERED_QUERIES) {
		const oldest = lastQueries.keys().next().value;
		if (oldest !== undefined) lastQueries.delete(oldest);
	}
}

/**
 * A family whose rule the gateway enforces (Task family S: at most one query a minute) counts
 * every query, a refused one too: a 5xx or a dropped connection is not repeated within the
 * check, the reader's next check (a minute on at the earliest) asks again.
 */
const ONE_QUERY_PER_CHECK: RetryPolicy = { ...DEFAULT_RETRY_POLICY, maxRetries: 0 };

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
	if (family.pollPolicy.enforcedByGateway) {
		const now = Date.now();
		const allowedAt = nextQueryAllowedAt(reference);
		// Readers look first (see nextQueryAllowedAt); this is the last line, never the plan.
		if (allowedAt !== undefined && now < allowedAt) {
			throw new Error(
				`Task ${reference.taskId} was queried less than ${family.pollPolicy.minIntervalMs / 1000} s ago; it may be queried from ${new Date(allowedAt).toISOString()}`,
			);
		}
		recordQuery(reference, now);
	}
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
			businessFailure: family.answerFailure.query,
			traceId: options.traceId,
			itemIndex: options.itemIndex,
			timeoutMs: options.timeoutMs,
			readJson: media?.readJson,
		},
		options.retryPolicy ??
			(family.pollPolicy.enforcedByGateway ? ONE_QUERY_PER_CHECK : DEFAULT_RETRY_POLICY),
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

import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { asNodeError, errorItem } from '../../shared/items/items';
import { baseIntervalMs, failureBackoffMs, nextDueAt } from '../../shared/polling/timing';
import {
	runDueOnce,
	runUntilSettled,
	type CheckOutcome,
	type ScheduleProgress,
} from '../../shared/polling/scheduler';
import { queryTask } from '../../shared/tasks/query';
import {
	classifyQueryFailure,
	setupFaultError,
	SetupFaultWatch,
	uncheckedReason,
} from '../../shared/tasks/queryFailure';
import type { NormalizedTask } from '../../shared/tasks';
import { BATCH_REPORT_OPTION, CHECK_ONCE, waitForTaskProperties } from '../description';
import {
	earliestCheckAt,
	entriesOf,
	isFinishedTaskItem,
	namedTask,
	type WaitEntry,
} from '../entries';
import { paceLoopedPass } from '../loopPace';
import {
	addDownloadedVideos,
	stillRunningItem,
	taskOutputItem,
	type OutputSettings,
} from '../outputs';
import {
	BATCH_TOTALS,
	batchReport,
	carriedTotals,
	countTask,
	emptyTotals,
	mergeTotals,
} from '../report';

export const description = waitForTaskProperties;

/** After the transport's own retries, a poll that still hits the rate limit pauses the batch this long. */
const RATE_LIMIT_PAUSE_MS = 60_000;
/** The editor hears about progress at most this often. */
const PROGRESS_EVERY_MS = 5_000;

interface Routes {
	succeeded: Array<{ order: number; item: INodeExecutionData }>;
	failed: Array<{ order: number; item: INodeExecutionData }>;
	timedOut: Array<{ order: number; item: INodeExecutionData }>;
}

/** What a finished task item handed to this node says about its videos. */
function finishedTask(json: IDataObject): Pick<NormalizedTask, 'status' | 'taskId' | 'videoUrls'> {
	const urls = Array.isArray(json.videoUrls) ? json.videoUrls : [];
	return {
		status: json.status === 'succeeded' ? 'succeeded' : 'failed',
		taskId: typeof json.taskId === 'string' ? json.taskId : '',
		videoUrls: urls.filter((url): url is string => typeof url === 'string' && url !== ''),
	};
}

function videoOnlyByQuery(item: INodeExecutionData, settings: OutputSettings): boolean {
	return (
		settings.downloadResult &&
		item.json.status === 'succeeded' &&
		!item.binary &&
		finishedTask(item.json).videoUrls.length === 0
	);
}

function ordered(list: Array<{ order: number; item: INodeExecutionData }>): INodeExecutionData[] {
	return list.sort((a, b) => a.order - b.order).map((entry) => entry.item);
}

export async function execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const mode = this.getNodeParameter('mode', 0) as string;
	const intervalMs = baseIntervalMs(this.getNodeParameter('intervalSeconds', 0, 10) as number);
	const maxWaitMs = (this.getNodeParameter('maxWaitMinutes', 0, 60) as number) * 60_000;
	const options = this.getNodeParameter('options', 0, {}) as IDataObject;
	const traceId = typeof options.traceId === 'string' ? options.traceId : undefined;
	const outputSettings: OutputSettings = {
		downloadResult: options.downloadResult === true,
		binaryPropertyName:
			typeof options.binaryPropertyName === 'string' && options.binaryPropertyName.trim() !== ''
				? options.binaryPropertyName.trim()
				: 'data',
	};
	const concurrency = typeof options.concurrency === 'number' ? options.concurrency : 4;
	const signal = this.getExecutionCancelSignal();

	const routes: Routes = { succeeded: [], failed: [], timedOut: [] };
	const entries: WaitEntry[] = [];
	const started = Date.now();
	// The batch report's totals: this pass's, plus those earlier passes of a loop carried here.
	const reportWanted = options[BATCH_REPORT_OPTION] === true;
	const totals = emptyTotals(started);
	const secondsSinceCreation = (entry: WaitEntry, at: number) =>
		Math.max(0, Math.round((at - entry.createdAtMs) / 1000));

	// Every reference is checked before the first query: a bad row fails before anything is asked.
	for (const [itemIndex, item] of items.entries()) {
		const order = itemIndex * 1_000_000;
		const carried = reportWanted ? carriedTotals(item.json[BATCH_TOTALS]) : undefined;
		if (carried) mergeTotals(totals, carried);
		// A finished task passes through unasked, unless its video is wanted and only a query can
		// bring it (videos sent inline in the task's answer, not kept in the item).
		if (isFinishedTaskItem(item.json) && !videoOnlyByQuery(item, outputSettings)) {
			const outcome = item.json.status === 'succeeded' ? 'succeeded' : 'failed';
			countTask(totals, item.json as unknown as NormalizedTask, outcome);
			const route = outcome === 'succeeded' ? routes.succeeded : routes.failed;
			const finished: INodeExecutionData = {
				json: { ...item.json, waitedSeconds: 0, polls: 0 },
				...(item.binary ? { binary: item.binary } : {}),
				pairedItem: { item: itemIndex },
			};
			// Its video is fetched from the task's own links: the task itself is not queried again.
			if (outputSettings.downloadResult && !finished.binary) {
				await addDownloadedVideos(
					this,
					finished,
					finishedTask(item.json),
					itemIndex,
					outputSettings,
				);
			}
			route.push({ order, item: finished });
			continue;
		}
		try {
			entries.push(...entriesOf(this, item, itemIndex, started, maxWaitMs));
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this, error, itemIndex);
			const refused = errorItem(error, itemIndex);
			// With the task it names, so its row can be found and failed alone (issue 54).
			refused.json = { ...namedTask(this, itemIndex), ...refused.json };
			routes.failed.push({ order, item: refused });
		}
	}
	const orderOf = new Map(
		entries.map((entry, position) => [entry, entry.inputIndex * 1_000_000 + position]),
	);

	const settled = new Set<WaitEntry>();
	totals.passes++;
	// A task with a check that got its record (more checks than failed ones in a row) shows
	// that the gateway answered this wait before.
	const setupFaults = new SetupFaultWatch(
		entries.length,
		entries.some((entry) => entry.polls > entry.failuresInRow),
	);

	const settle = async (entry: WaitEntry, route: keyof Routes) => {
		settled.add(entry);
		countTask(totals, entry.task, route, secondsSinceCreation(entry, Date.now()));
		routes[route].push({
			order: orderOf.get(entry) ?? 0,
			item: await taskOutputItem(this, entry, Date.now(), outputSettings),
		});
	};

	const check = async (entry: WaitEntry): Promise<CheckOutcome> => {
		const queriedAt = Date.now();
		entry.lastCheckedAt = queriedAt;
		entry.polls++;
		totals.queries++;
		// Taken when the query has been sent, through earliestCheckAt: for Task family S this
		// process records the query at its own reading of the clock, a millisecond or more after
		// `queriedAt`, and the next pass waits for that record too.
		const nextRegularCheck = () =>
			Math.max(
				nextDueAt(entry.rule, intervalMs, entry.createdAtMs, queriedAt),
				earliestCheckAt(entry, queriedAt),
			);
		try {
			const parsed = await queryTask(this, entry.reference, {
				traceId,
				itemIndex: entry.inputIndex,
			});
			setupFaults.otherOutcome();
			entry.latest = parsed;
			entry.task = parsed.task;
			entry.failuresInRow = 0;
			entry.lastCheckError = undefined;
			if (parsed.task.done) {
				await settle(entry, parsed.task.status === 'succeeded' ? 'succeeded' : 'failed');
				return { type: 'settled' };
			}
			return { type: 'pending', nextDueAt: nextRegularCheck() };
		} catch (error) {
			if (signal?.aborted) throw asNodeError(this, error, entry.inputIndex);
			const failure = classifyQueryFailure(error);
			if (failure.kind === 'notFromGateway') {
				const setupFault = setupFaults.refused(failure.answer);
				// Every query of the run refused alike: the Base URL, not the tasks. Under Continue
				// On Fail the tasks wait on instead (nothing is marked failed either way).
				if (setupFault && !this.continueOnFail()) {
					throw setupFaultError(this.getNode(), setupFault, setupFaults.queryCount);
				}
			} else {
				setupFaults.otherOutcome();
			}
			if (failure.kind === 'rateLimited') {
				const resumeAt = Date.now() + RATE_LIMIT_PAUSE_MS;
				return { type: 'rateLimited', resumeAt, nextDueAt: Math.max(resumeAt, nextRegularCheck()) };
			}
			// A refused credential or URL concerns every task alike: the node stops. Under Continue
			// On Fail the task waits on instead, as after a 5xx: a rotated API key must not mark
			// every paid task failed, and once the credential is fixed the next pass finds them.
			if (failure.kind === 'setup' && !this.continueOnFail()) {
				throw asNodeError(this, error, entry.inputIndex);
			}
			if (
				failure.kind === 'transient' ||
				failure.kind === 'notFromGateway' ||
				failure.kind === 'setup'
			) {
				entry.failuresInRow++;
				entry.lastCheckError = uncheckedReason(error, failure);
				const backoff = failureBackoffMs(intervalMs, entry.failuresInRow);
				const fix =
					failure.kind === 'setup'
						? '; the credential or its Base URL was refused, so the task is kept waiting (Continue On Fail) until they are fixed'
						: '';
				this.logger.warn(
					`Model Gateway Wait for Task: checking task ${entry.reference.taskId} failed (${entry.lastCheckError})${fix}; checking again in ${Math.round(backoff / 1000)} s`,
				);
				return { type: 'pending', nextDueAt: Math.max(nextRegularCheck(), queriedAt + backoff) };
			}
			// The gateway refused the query in its own words (unknown task, bad reference): this
			// task's failure, on Failed, so one bad row never stops the tasks beside it or a later
			// run. Failed, as it is routed: the task cannot be followed any further. Its error says
			// why; failed checks before it no longer matter.
			entry.failuresInRow = 0;
			entry.lastCheckError = undefined;
			entry.task = {
				...entry.task,
				status: 'failed',
				done: true,
				error: { code: 'query_failed', message: (error as Error).message },
			};
			await settle(entry, 'failed');
			return { type: 'settled' };
		}
	};

	// Each with the moment it timed out: its wait ends there, not when the node finishes.
	const timedOutEntries: Array<{ entry: WaitEntry; at: number }> = [];
	const onTimeout = (entry: WaitEntry) => {
		settled.add(entry);
		timedOutEntries.push({ entry, at: Date.now() });
	};

	let lastProgressAt = 0;
	const total = items.length;
	const onProgress = (progress: ScheduleProgress) => {
		const now = Date.now();
		if (now - lastProgressAt < PROGRESS_EVERY_MS) return;
		lastProgressAt = now;
		const done = routes.succeeded.length + routes.failed.length + timedOutEntries.length;
		const next =
			progress.nextDueAt !== undefined
				? `, next check in ${Math.max(0, Math.round((progress.nextDueAt - now) / 1000))} s`
				: '';
		const message = `Model Gateway Wait for Task: ${done}/${total} done${next}`;
		this.logger.info(message);
		this.sendMessageToUI(message);
	};

	const schedule = { concurrency, signal, check, onTimeout, onProgress };
	const stillRunning: WaitEntry[] = [];
	if (mode === CHECK_ONCE) {
		// A loop's item that came back before anything is due: wait a little here, or stop.
		await paceLoopedPass(this, items, entries, signal);
		await runDueOnce(entries, schedule);
		stillRunning.push(...entries.filter((entry) => !settled.has(entry)));
	} else {
		await runUntilSettled(entries, schedule);
	}
	const now = Date.now();
	for (const { entry, at } of timedOutEntries) {
		countTask(totals, entry.task, 'timedOut', secondsSinceCreation(entry, at));
		routes.timedOut.push({
			order: orderOf.get(entry) ?? 0,
			item: await taskOutputItem(this, entry, at, { ...outputSettings, downloadResult: false }),
		});
	}

	const outputs = [ordered(routes.succeeded), ordered(routes.failed), ordered(routes.timedOut)];
	if (mode === CHECK_ONCE) {
		const pending = stillRunning.length > 0 ? [stillRunningItem(stillRunning, now)] : [];
		if (reportWanted && pending.length > 0) pending[0].json[BATCH_TOTALS] = totals;
		outputs.push(pending);
	}
	if (reportWanted) {
		// The report comes when nothing is left to wait for: at the end of the run, or of the loop.
		outputs.push(
			stillRunning.length > 0
				? []
				: [
						{
							json: batchReport(totals, now),
							pairedItem: items.map((_, item) => ({ item })),
						},
					],
		);
	}
	return outputs;
}

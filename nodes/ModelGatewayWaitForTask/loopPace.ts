import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { nextActionAt, realClock, type SchedulerClock } from '../shared/polling/scheduler';
import { PENDING_TASKS, type WaitEntry } from './entries';
import { OUTPUT_NAMES } from './description';

/**
 * A Still Running item that comes back before any of its tasks is due would make Check Once and
 * Route answer Still Running again at once, and a loop with no wait in it would go round as fast
 * as n8n runs it. A short wait (what n8n's own Wait node keeps in memory, under 65 s) is taken
 * here, in the node; a longer one is a wiring to fix: n8n's Wait node keeps it in the database.
 */
export const IN_NODE_WAIT_LIMIT_MS = 65_000;

const STILL_RUNNING_OUTPUT = OUTPUT_NAMES.indexOf('Still Running');

function isStillRunningItem(item: INodeExecutionData): boolean {
	return Array.isArray(item.json[PENDING_TASKS]);
}

/** True when this node's input comes straight from its own Still Running output. */
function loopsOntoItself(context: IExecuteFunctions): boolean {
	try {
		const source = context.getInputSourceData(0);
		return (
			source?.previousNode === context.getNode().name &&
			(source.previousNodeOutput ?? 0) === STILL_RUNNING_OUTPUT
		);
	} catch {
		// No source (the node started the run, e.g. a partial run from the editor): not a loop.
		return false;
	}
}

/**
 * Before a Check Once and Route pass over this node's own Still Running item, wired straight
 * back, none of whose tasks is due: waits in the node until the first one is, when that is at
 * most IN_NODE_WAIT_LIMIT_MS away; further, stops with an error that says how to wire the loop,
 * before anything is sent. Any other pass goes on at once: one with work to do now, and one whose
 * Still Running item came another way (through a Wait node that waited less than asked, a Split
 * Out, another workflow) is routed as always, its tasks unasked until their time.
 */
export async function paceLoopedPass(
	context: IExecuteFunctions,
	items: INodeExecutionData[],
	entries: WaitEntry[],
	signal: AbortSignal | undefined,
	clock: SchedulerClock = realClock,
): Promise<void> {
	if (!items.some(isStillRunningItem) || !loopsOntoItself(context)) return;
	const next = nextActionAt(entries);
	const now = clock.now();
	if (next === undefined || next <= now) return;
	const waitMs = next - now;
	if (waitMs <= IN_NODE_WAIT_LIMIT_MS) {
		context.logger.debug(
			`Model Gateway Wait for Task: no task is due yet; waiting ${Math.ceil(waitMs / 1000)} s in this node`,
		);
		await clock.sleep(waitMs, signal ?? new AbortController().signal);
		return;
	}
	const seconds = Math.ceil(waitMs / 1000);
	throw new NodeOperationError(
		context.getNode(),
		`Still Running is connected straight back to this node, and no task is due for ${seconds} s (next check at ${new Date(next).toISOString()})`,
		{
			description:
				'Nothing was sent to the gateway. Without a wait in the loop, n8n would run this node again at once, over and over. Put a Wait node between Still Running and this node (Resume: After Time Interval, Wait Amount: {{ $json.nextCheckInSeconds }}, Unit: Seconds): n8n keeps waits of 65 s or more in its database, so the loop holds no worker while the tasks run and survives a restart. Or set Mode to "Wait in This Execution". Waits shorter than 65 s are taken inside this node.',
		},
	);
}

import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * The per-item loop every action node uses, in two phases. First every item's parameters are
 * read and checked (`prepare`), so a bad row stops the node before anything is sent or billed;
 * then the prepared requests are sent (`send`), `concurrency` at a time. The output keeps the
 * input order, every output item is paired with its input item, and a failing item becomes an
 * error item under "Continue On Fail" instead of stopping the node. When a send failure stops
 * the node midway, its error lists what the earlier items created (and were billed for).
 */

export const MAX_CONCURRENCY = 32;

/** The "Items in Flight" option, to be placed in a node's options collection. */
export const concurrencyOption: INodeProperties = {
	displayName: 'Items in Flight',
	name: 'concurrency',
	type: 'number',
	typeOptions: { minValue: 1, maxValue: MAX_CONCURRENCY, numberPrecision: 0 },
	default: 1,
	description:
		'How many items are sent to the gateway at the same time (1 to 32). Output order and item pairing stay exact. With more than 1, items already in flight when one fails are still completed (and billed); without "Continue On Fail" their IDs are listed in the error.',
};

export type ItemOutput = INodeExecutionData | INodeExecutionData[];

/** A single-phase handler, for nodes that only read (nothing to bill, nothing to check first). */
export type ItemHandler = (itemIndex: number) => Promise<ItemOutput>;

export interface ItemPhases<TPrepared> {
	/** Reads and validates one item's parameters into what `send` needs. Sends nothing. */
	prepare(itemIndex: number): Promise<TPrepared> | TPrepared;
	/** Sends one prepared request and shapes the answer into output items. */
	send(prepared: TPrepared, itemIndex: number): Promise<ItemOutput>;
	/**
	 * What an output item names as created (a task ID, a response ID), so the error of a batch
	 * stopped midway can list it; undefined when the item names nothing.
	 */
	createdId?(item: INodeExecutionData): string | undefined;
}

/** One thing an earlier item created before the node stopped, as the error lists it. */
export interface CreatedBeforeFailure {
	itemIndex: number;
	id: string;
}

function clampConcurrency(value: unknown): number {
	const number = Math.floor(Number(value));
	if (!Number.isFinite(number) || number < 1) return 1;
	return Math.min(number, MAX_CONCURRENCY);
}

/** The output item that stands for a failed input item under "Continue On Fail". */
export function errorItem(error: unknown, itemIndex: number): INodeExecutionData {
	const record = error as { message?: unknown; description?: unknown; httpCode?: unknown };
	return {
		json: {
			error: typeof record.message === 'string' ? record.message : String(error),
			...(typeof record.description === 'string' ? { errorDescription: record.description } : {}),
			...(record.httpCode ? { httpCode: String(record.httpCode) } : {}),
		},
		pairedItem: { item: itemIndex },
	};
}

function toPhases(work: ItemHandler | ItemPhases<unknown>): ItemPhases<unknown> {
	if (typeof work !== 'function') return work;
	return { prepare: () => undefined, send: async (_, itemIndex) => await work(itemIndex) };
}

function pairedOutput(produced: ItemOutput, itemIndex: number): INodeExecutionData[] {
	return (Array.isArray(produced) ? produced : [produced]).map((item) => ({
		...item,
		pairedItem: item.pairedItem ?? { item: itemIndex },
	}));
}

/** Runs every input item through `work` and returns the node's single output. */
export async function processItems<TPrepared>(
	context: IExecuteFunctions,
	work: ItemHandler | ItemPhases<TPrepared>,
	options: { concurrency?: number; itemCount?: number } = {},
): Promise<INodeExecutionData[]> {
	const phases = toPhases(work as ItemHandler | ItemPhases<unknown>);
	const itemCount = options.itemCount ?? context.getInputData().length;
	const concurrency = clampConcurrency(options.concurrency ?? 1);
	const results: INodeExecutionData[][] = new Array<INodeExecutionData[]>(itemCount);

	// Phase 1: every item checked before the first request leaves.
	const prepared = new Map<number, unknown>();
	for (let itemIndex = 0; itemIndex < itemCount; itemIndex++) {
		try {
			prepared.set(itemIndex, await phases.prepare(itemIndex));
		} catch (error) {
			if (!context.continueOnFail()) throw asNodeError(context, error, itemIndex);
			results[itemIndex] = [errorItem(error, itemIndex)];
		}
	}

	// Phase 2: the prepared items sent, `concurrency` at a time.
	const queue = [...prepared.keys()];
	let next = 0;
	let firstFailure: { itemIndex: number; error: unknown } | undefined;
	const runOne = async (itemIndex: number) => {
		try {
			results[itemIndex] = pairedOutput(
				await phases.send(prepared.get(itemIndex), itemIndex),
				itemIndex,
			);
		} catch (error) {
			if (context.continueOnFail()) {
				results[itemIndex] = [errorItem(error, itemIndex)];
				return;
			}
			if (!firstFailure || itemIndex < firstFailure.itemIndex) firstFailure = { itemIndex, error };
		}
	};
	const worker = async () => {
		while (next < queue.length && !firstFailure) await runOne(queue[next++]);
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));

	if (firstFailure) {
		const error = asNodeError(context, firstFailure.error, firstFailure.itemIndex);
		throw withCreatedBeforeFailure(error, createdSoFar(results, phases));
	}
	return results.flat();
}

function createdSoFar(
	results: INodeExecutionData[][],
	phases: ItemPhases<unknown>,
): CreatedBeforeFailure[] {
	const { createdId } = phases;
	if (!createdId) return [];
	const created: CreatedBeforeFailure[] = [];
	results.forEach((items, itemIndex) => {
		const ids = new Set(items.map((item) => createdId(item)).filter((id) => id !== undefined));
		for (const id of ids) created.push({ itemIndex, id: id as string });
	});
	return created;
}

/**
 * Adds what earlier items created to the error that stops the node: in its description, for
 * the person reading it, and as `context.createdBeforeFailure`, for a workflow's error branch.
 */
export function withCreatedBeforeFailure(error: Error, created: CreatedBeforeFailure[]): Error {
	if (created.length === 0) return error;
	const record = error as Error & { description?: string | null; context?: IDataObject };
	const list = created.map(({ itemIndex, id }) => `item ${itemIndex}: ${id}`).join('; ');
	const note = `Created (and billed) before the node stopped, not in any output: ${list}. Pick them up by these IDs instead of running the items again.`;
	record.description = record.description ? `${record.description}\n\n${note}` : note;
	record.context = {
		...(record.context ?? {}),
		createdBeforeFailure: created.map(({ itemIndex, id }) => ({ itemIndex, id })),
	};
	return error;
}

/** An error as the node should throw it: n8n errors as they are, anything else wrapped. */
export function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof Error && 'node' in error) return error;
	return new NodeOperationError(context.getNode(), error instanceof Error ? error : String(error), {
		itemIndex,
	});
}

import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/**
 * The per-item loop every action node uses: items run `concurrency` at a time, the output
 * keeps the input order, every output item is paired with its input item, and a failing
 * item becomes an error item under "Continue On Fail" instead of stopping the node.
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
		'How many items are sent to the gateway at the same time (1 to 32). Output order and item pairing stay exact. With more than 1, items already in flight when one fails are still completed (and billed) but their output is dropped unless "Continue On Fail" is on.',
};

export type ItemHandler = (itemIndex: number) => Promise<INodeExecutionData | INodeExecutionData[]>;

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

/** Runs `handler` for every input item and returns the node's single output. */
export async function processItems(
	context: IExecuteFunctions,
	handler: ItemHandler,
	options: { concurrency?: number; itemCount?: number } = {},
): Promise<INodeExecutionData[]> {
	const itemCount = options.itemCount ?? context.getInputData().length;
	const concurrency = clampConcurrency(options.concurrency ?? 1);
	const results: INodeExecutionData[][] = new Array<INodeExecutionData[]>(itemCount);
	let nextItem = 0;
	let firstFailure: { itemIndex: number; error: unknown } | undefined;

	const runOne = async (itemIndex: number) => {
		try {
			const produced = await handler(itemIndex);
			results[itemIndex] = (Array.isArray(produced) ? produced : [produced]).map((item) => ({
				...item,
				pairedItem: item.pairedItem ?? { item: itemIndex },
			}));
		} catch (error) {
			if (context.continueOnFail()) {
				results[itemIndex] = [errorItem(error, itemIndex)];
				return;
			}
			if (!firstFailure || itemIndex < firstFailure.itemIndex) firstFailure = { itemIndex, error };
		}
	};

	const worker = async () => {
		while (nextItem < itemCount && !firstFailure) {
			const itemIndex = nextItem++;
			await runOne(itemIndex);
		}
	};
	await Promise.all(Array.from({ length: Math.min(concurrency, itemCount) }, worker));

	if (firstFailure) throw asNodeError(context, firstFailure.error, firstFailure.itemIndex);
	return results.flat();
}

/** An error as the node should throw it: n8n errors as they are, anything else wrapped. */
export function asNodeError(context: IExecuteFunctions, error: unknown, itemIndex: number): Error {
	if (error instanceof Error && 'node' in error) return error;
	return new NodeOperationError(context.getNode(), error instanceof Error ? error : String(error), {
		itemIndex,
	});
}

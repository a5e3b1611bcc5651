import type { IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { errorItem, MAX_CONCURRENCY, processItems } from '../../nodes/shared/items/items';
import { testNode } from './testNode';

/** The per-item loop every action node uses: checks first, bounded concurrency, error items. */

function executeContext(itemCount: number, continueOnFail = false): IExecuteFunctions {
	return {
		getInputData: () => Array.from({ length: itemCount }, () => ({ json: {} })),
		continueOnFail: () => continueOnFail,
		getNode: () => testNode('Loop'),
	} as unknown as IExecuteFunctions;
}

/** Runs `processItems` and reports the most items in flight at once. */
async function peakConcurrency(concurrency: unknown, itemCount = 40): Promise<number> {
	let inFlight = 0;
	let peak = 0;
	await processItems(
		executeContext(itemCount),
		async (itemIndex) => {
			inFlight++;
			peak = Math.max(peak, inFlight);
			await new Promise((resolve) => setImmediate(resolve));
			inFlight--;
			return { json: { itemIndex } };
		},
		{ concurrency: concurrency as number },
	);
	return peak;
}

describe('processItems', () => {
	it.each([
		[0, 1],
		[Number.NaN, 1],
		['3', 3],
		[2.7, 2],
		[1000, MAX_CONCURRENCY],
	])('concurrency %p runs at most %p items at once', async (asked, expected) => {
		expect(await peakConcurrency(asked)).toBe(expected);
	});

	it('a handler may answer several items, keeping their own pairing', async () => {
		const output = await processItems(executeContext(2), async (itemIndex) => [
			{ json: { itemIndex, part: 1 } },
			{ json: { itemIndex, part: 2 }, pairedItem: [{ item: 0 }, { item: 1 }] },
		]);
		expect(output.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			[{ item: 0 }, { item: 1 }],
			{ item: 1 },
			[{ item: 0 }, { item: 1 }],
		]);
	});

	it('stops at the lowest failing item, naming what earlier items created', async () => {
		const failure = processItems(
			executeContext(4),
			{
				prepare: (itemIndex) => itemIndex,
				send: async (itemIndex: number) => {
					if (itemIndex >= 2) throw new Error(`item ${itemIndex} failed`);
					return { json: { id: `task-${itemIndex}` } };
				},
				createdId: (item) => String(item.json.id),
			},
			{ concurrency: 4 },
		);
		await expect(failure).rejects.toThrow('item 2 failed');
		const error = (await failure.catch((caught: unknown) => caught)) as NodeOperationError;
		expect(error).toBeInstanceOf(NodeOperationError);
		expect(error.context.createdBeforeFailure).toEqual([
			{ itemIndex: 0, id: 'task-0' },
			{ itemIndex: 1, id: 'task-1' },
		]);
	});

	it('under Continue On Fail, a refused and a failed item become error items in place', async () => {
		const output = await processItems(executeContext(3, true), {
			prepare: (itemIndex) => {
				if (itemIndex === 0) throw new Error('bad input');
				return itemIndex;
			},
			send: async (itemIndex: number) => {
				if (itemIndex === 1) throw Object.assign(new Error('gateway down'), { httpCode: 503 });
				return { json: { ok: true } };
			},
		});
		expect(output.map((item) => item.json)).toEqual([
			{ error: 'bad input' },
			{ error: 'gateway down', httpCode: '503' },
			{ ok: true },
		]);
	});
});

describe('errorItem', () => {
	it('takes the message and description of an error, or the text of anything thrown', () => {
		expect(errorItem(Object.assign(new Error('m'), { description: 'd', httpCode: 0 }), 4)).toEqual({
			json: { error: 'm', errorDescription: 'd' },
			pairedItem: { item: 4 },
		});
		expect(errorItem('plain text', 1).json).toEqual({ error: 'plain text' });
	});
});

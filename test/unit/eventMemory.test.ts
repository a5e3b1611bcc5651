import type { IDataObject } from 'n8n-workflow';

import {
	judgeEvent,
	productionMemory,
	rememberedTaskCount,
} from '../../nodes/ModelGatewayTaskTrigger/eventMemory';

/** The Task Callback Trigger's memory of events: new, duplicate, stale; bounded; restored. */

const event = (
	taskId: string,
	status: 'queued' | 'running' | 'succeeded' | 'unknown',
	rawStatus: string | null = status,
) => ({
	family: 'familyA',
	taskId,
	status,
	rawStatus,
});

describe('judgeEvent', () => {
	it('tells unknown statuses apart by their own word, and looks without recording when asked', () => {
		const data: IDataObject = {};
		expect(judgeEvent(data, event('t1', 'unknown', 'mystery'))).toBe('new');
		expect(judgeEvent(data, event('t1', 'unknown', 'other'))).toBe('new');
		expect(judgeEvent(data, event('t1', 'unknown', 'mystery'))).toBe('duplicate');
		expect(judgeEvent(data, event('t1', 'unknown', null))).toBe('new');
		expect(judgeEvent(data, event('t1', 'succeeded'), undefined, false)).toBe('new');
		expect(judgeEvent(data, event('t1', 'succeeded'))).toBe('new');
		expect(judgeEvent(data, event('t1', 'queued'))).toBe('stale');
		expect(judgeEvent(data, event('t1', 'queued'))).toBe('duplicate');
	});

	it('keeps at most the capacity (at least 1), forgetting the least recently heard-of', () => {
		const data: IDataObject = {};
		for (const id of ['a', 'b', 'c']) judgeEvent(data, event(id, 'running'), 2);
		expect(rememberedTaskCount(data)).toBe(2);
		expect(judgeEvent(data, event('a', 'running'), 2)).toBe('new');
		judgeEvent(data, event('d', 'running'), 0);
		expect(rememberedTaskCount(data)).toBe(1);
	});

	it('starts afresh from static data that holds no usable memory', () => {
		const data: IDataObject = { callbackMemory: { tasks: null } };
		expect(judgeEvent(data, event('t', 'running'))).toBe('new');
		expect(rememberedTaskCount(data)).toBe(1);
	});
});

describe('productionMemory', () => {
	it('is seeded once per trigger from what was saved, then shared by every call', () => {
		const saved: IDataObject = {
			callbackMemory: { tasks: { 'familyA:seen': { r: 2, s: ['succeeded'] } } },
		};
		const memory = productionMemory(saved, 'workflow-1/trigger-seeded');
		expect(
			judgeEvent(memory, {
				family: 'familyA',
				taskId: 'seen',
				status: 'succeeded',
				rawStatus: 'succeed',
			}),
		).toBe('duplicate');
		// A later call with other static data gets the same memory, linked into its data.
		const later: IDataObject = {};
		expect(productionMemory(later, 'workflow-1/trigger-seeded')).toBe(memory);
		expect(rememberedTaskCount(later)).toBe(1);
		// Nothing saved yet: an empty memory.
		expect(
			rememberedTaskCount(
				productionMemory({ callbackMemory: 'corrupt' }, 'workflow-1/trigger-fresh'),
			),
		).toBe(0);
	});
});

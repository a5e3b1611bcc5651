import type { IDataObject, INode } from 'n8n-workflow';
import { Workflow } from 'n8n-workflow';

import type { EventKey } from '../../nodes/ModelGatewayTaskTrigger/eventMemory';
import {
	EventMemory,
	MEMORY_KEY,
	callMemory,
	keepMemory,
} from '../../nodes/ModelGatewayTaskTrigger/eventMemory';

const event = (taskId: string, status: EventKey['status'], rawStatus: string | null = null) => ({
	family: 'taskS',
	taskId,
	status,
	rawStatus,
});

/**
 * Static data as n8n hands it to a webhook call: loaded from its saved JSON, change-tracked;
 * `node` is the trigger's own part (getWorkflowStaticData('node')), `changed` says whether n8n
 * would save after the call.
 */
function loadedStaticData(saved: string | IDataObject): {
	node: IDataObject;
	changed: () => boolean;
} {
	const workflow = new Workflow({
		id: 'eventMemoryTest1',
		nodes: [],
		connections: {},
		active: true,
		nodeTypes: {
			getByName: () => undefined as never,
			getByNameAndVersion: () => undefined as never,
			getKnownTypes: () => ({}),
		},
		staticData: typeof saved === 'string' ? (JSON.parse(saved) as IDataObject) : saved,
	});
	const node = workflow.getStaticData('node', { name: 'Task Callback' } as INode);
	return { node, changed: () => workflow.staticData.__dataChanged === true };
}

const saved = (tasks: string[]) =>
	JSON.stringify({ 'node:Task Callback': { [MEMORY_KEY]: { format: 2, tasks } } });

describe('the trigger’s event memory', () => {
	test('what a save wrote tells duplicates and stale events apart after a restart', () => {
		const before = new EventMemory();
		expect(before.judge(event('a', 'queued'))).toBe('new');
		expect(before.judge(event('a', 'succeeded'))).toBe('new');
		expect(before.judge(event('b', 'unknown', 'paused'))).toBe('new');

		const after = EventMemory.fromSaved(JSON.parse(JSON.stringify(before)));
		expect(after.size).toBe(2);
		expect(after.judge(event('a', 'succeeded'))).toBe('duplicate');
		expect(after.judge(event('a', 'running'))).toBe('stale');
		expect(after.judge(event('b', 'unknown', 'paused'))).toBe('duplicate');
		expect(after.judge(event('b', 'unknown', 'resumed'))).toBe('new');
		expect(after.judge(event('c', 'succeeded'))).toBe('new');
	});

	test('what 0.2.0 saved is read too', () => {
		const memory = EventMemory.fromSaved({
			tasks: {
				'taskS:a': { r: 2, s: ['queued', 'succeeded'] },
				'taskS:b': { r: 1, s: ['running'] },
			},
		});
		expect(memory.judge(event('a', 'succeeded'))).toBe('duplicate');
		expect(memory.judge(event('a', 'running'))).toBe('stale');
		expect(memory.judge(event('b', 'succeeded'))).toBe('new');
	});

	test('a damaged save is read as far as it goes; anything else is an empty memory', () => {
		const memory = EventMemory.fromSaved({
			format: 2,
			tasks: ['["taskS:a","succeeded"]', 'not json', '[]', 42],
		});
		expect(memory.size).toBe(1);
		expect(EventMemory.fromSaved('nonsense').size).toBe(0);
		expect(EventMemory.fromSaved(undefined).size).toBe(0);
	});

	test('bounded: the least recently heard-of task is forgotten first', () => {
		const memory = new EventMemory();
		for (const id of ['a', 'b', 'c']) memory.judge(event(id, 'succeeded'), 3);
		memory.judge(event('a', 'succeeded'), 3); // heard of again: now the most recent
		memory.judge(event('d', 'succeeded'), 3);
		expect(memory.toJSON().tasks.map((task) => (JSON.parse(task) as string[])[0])).toEqual([
			'taskS:c',
			'taskS:a',
			'taskS:d',
		]);
	});

	test('linked into n8n’s change-tracked static data, it is saved as it is at the moment of the save, and n8n’s tracker does not reach into it', () => {
		const loaded: IDataObject = {};
		const call = loadedStaticData(loaded);
		const memory = callMemory(call.node, 'eventMemoryTest1/node-1');
		memory.judge(event('a', 'succeeded'));
		keepMemory(call.node, memory);
		expect(call.changed()).toBe(true);
		memory.judge(event('b', 'succeeded'));
		const savedNow = () =>
			(JSON.parse(JSON.stringify(loaded)) as IDataObject)['node:Task Callback'];
		expect(EventMemory.fromSaved((savedNow() as IDataObject)[MEMORY_KEY]).size).toBe(2);

		// The execution the call starts wraps the same static data object again.
		loadedStaticData(loaded);
		expect(memory.judge(event('c', 'succeeded'))).toBe('new');
		expect(memory.judge(event('a', 'succeeded'))).toBe('duplicate');
		expect(EventMemory.fromSaved((savedNow() as IDataObject)[MEMORY_KEY]).size).toBe(3);
	});

	test('a call that only reads the memory leaves static data unchanged, so n8n saves nothing', () => {
		const call = loadedStaticData(saved(['["taskS:a","succeeded"]']));
		const memory = callMemory(call.node, 'eventMemoryTest1/node-2');
		expect(memory.judge(event('a', 'succeeded'))).toBe('duplicate');
		expect(memory.judge(event('b', 'queued'))).toBe('new');
		expect(call.changed()).toBe(false);
	});

	test('production memory is this process’s own per trigger; test calls read static data', () => {
		const production = callMemory(loadedStaticData('{}').node, 'eventMemoryTest1/node-3');
		production.judge(event('a', 'succeeded'));
		expect(callMemory(loadedStaticData('{}').node, 'eventMemoryTest1/node-3')).toBe(production);
		const testCall = callMemory(
			loadedStaticData(saved(['["taskS:b","succeeded"]'])).node,
			undefined,
		);
		expect(testCall.judge(event('a', 'succeeded'))).toBe('new');
		expect(testCall.judge(event('b', 'succeeded'))).toBe('duplicate');
	});
});

describe('judging events', () => {
	test('unknown statuses are told apart by their own word; a look records nothing; a later stage makes an earlier one stale', () => {
		const memory = new EventMemory();
		expect(memory.judge(event('t1', 'unknown', 'mystery'))).toBe('new');
		expect(memory.judge(event('t1', 'unknown', 'other'))).toBe('new');
		expect(memory.judge(event('t1', 'unknown', 'mystery'))).toBe('duplicate');
		expect(memory.judge(event('t1', 'succeeded'), undefined, false)).toBe('new');
		expect(memory.judge(event('t1', 'succeeded'))).toBe('new');
		expect(memory.judge(event('t1', 'queued'))).toBe('stale');
		expect(memory.judge(event('t1', 'queued'))).toBe('duplicate');
	});

	test('a capacity below 1 still remembers the task just heard of', () => {
		const memory = new EventMemory();
		memory.judge(event('a', 'running'), 0);
		expect(memory.judge(event('a', 'running'), 0)).toBe('duplicate');
	});
});

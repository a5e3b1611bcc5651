import { FAMILY_A_STATUS } from '../../nodes/shared/tasks/familyA';
import { FAMILY_B_STATUS } from '../../nodes/shared/tasks/familyB';
import { FAMILY_C_STATUS } from '../../nodes/shared/tasks/familyC';
import { GENERIC_STATUS } from '../../nodes/shared/tasks/generic';
import { longRunningStatus, splitOperationName } from '../../nodes/shared/tasks/longRunning';
import { TASK_S_STATUS } from '../../nodes/shared/tasks/taskS';
import {
	isDone,
	mapStatus,
	type StatusTable,
	type TaskStatus,
} from '../../nodes/shared/tasks/task';
import { FAMILY_IDS, TASK_FAMILIES } from '../../nodes/shared/tasks';
import { description as createDescription } from '../../nodes/ModelGatewayVideo/actions/create.operation';
import { FAMILY_EDITORS } from '../../nodes/ModelGatewayVideo/families';

/** Every known status value of every family (upstream-notes.md), case-insensitively, and unknown ones. */

const KNOWN: Array<[string, StatusTable, Array<[string, TaskStatus]>]> = [
	[
		'Task family S',
		TASK_S_STATUS,
		[
			['queued', 'queued'],
			['running', 'running'],
			['succeeded', 'succeeded'],
			['failed', 'failed'],
			['cancelled', 'failed'],
			['expired', 'failed'],
		],
	],
	[
		'Family A',
		FAMILY_A_STATUS,
		[
			['submitted', 'queued'],
			['processing', 'running'],
			['succeed', 'succeeded'],
			['failed', 'failed'],
		],
	],
	[
		'Generic video',
		GENERIC_STATUS,
		[
			['queued', 'queued'],
			['in_progress', 'running'],
			['completed', 'succeeded'],
			['failed', 'failed'],
			['Preparing', 'queued'],
			['Queueing', 'queued'],
			['Processing', 'running'],
			['Success', 'succeeded'],
			['Fail', 'failed'],
		],
	],
	[
		'Family B',
		FAMILY_B_STATUS,
		[
			['queued', 'queued'],
			['in_progress', 'running'],
			['completed', 'succeeded'],
			['failed', 'failed'],
			['WAITING', 'queued'],
			['PROCESSING', 'running'],
			['FINISH', 'succeeded'],
			['Success', 'succeeded'],
			['Fail', 'failed'],
		],
	],
	[
		'Family C',
		FAMILY_C_STATUS,
		[
			['created', 'queued'],
			['queueing', 'queued'],
			['processing', 'running'],
			['success', 'succeeded'],
			['completed', 'succeeded'],
			['failed', 'failed'],
		],
	],
];

const mixedCase = (word: string) =>
	word
		.split('')
		.map((char, index) => (index % 2 === 0 ? char.toUpperCase() : char.toLowerCase()))
		.join('');

describe.each(KNOWN)('%s status table', (_family, table, values) => {
	it.each(values)('maps %s to %s in any case', (word, expected) => {
		expect(mapStatus(table, word)).toBe(expected);
		expect(mapStatus(table, word.toUpperCase())).toBe(expected);
		expect(mapStatus(table, word.toLowerCase())).toBe(expected);
		expect(mapStatus(table, mixedCase(word))).toBe(expected);
		expect(mapStatus(table, ` ${word} `)).toBe(expected);
	});

	it('maps anything else to unknown, which is never terminal', () => {
		for (const value of [
			'mystery_state',
			'',
			'SUCCEEDED_LATER',
			42,
			null,
			undefined,
			{},
			['queued'],
			true,
		]) {
			expect(mapStatus(table, value)).toBe('unknown');
		}
		expect(isDone('unknown')).toBe(false);
	});
});

describe('long-running operation status', () => {
	it.each([
		[{ name: 'models/m/operations/1', done: false }, 'running', 'done=false'],
		[{ done: false, metadata: { state: 'mystery_state' } }, 'unknown', 'mystery_state'],
		[
			{ done: true, response: { videos: [{ bytesBase64Encoded: 'AA==' }] } },
			'succeeded',
			'done=true',
		],
		[{ done: true, error: { code: 3, message: 'bad' } }, 'failed', 'done=true'],
		[{ done: true, response: { videos: [] } }, 'failed', 'done=true'],
		[{ done: true }, 'failed', 'done=true'],
		[{ name: 'no done field' }, 'unknown', null],
		['not an object', 'unknown', null],
	])('%j → %s', (operation, status, rawStatus) => {
		expect(longRunningStatus(operation)).toEqual({ status, rawStatus });
	});

	it('splits operation names and keeps bare ids', () => {
		expect(splitOperationName('models/veo-x/operations/op_1')).toEqual({
			model: 'veo-x',
			taskId: 'op_1',
		});
		expect(splitOperationName('op_1')).toEqual({ taskId: 'op_1' });
	});
});

describe('done follows status', () => {
	it.each([
		['queued', false],
		['running', false],
		['succeeded', true],
		['failed', true],
		['unknown', false],
	] as Array<[TaskStatus, boolean]>)('%s → done %s', (status, done) =>
		expect(isDone(status)).toBe(done),
	);
});

describe('the family table', () => {
	it('has the six stable family ids, each with its own poll policy', () => {
		expect(Object.keys(TASK_FAMILIES)).toEqual([
			'taskS',
			'familyA',
			'generic',
			'familyB',
			'familyC',
			'longRunning',
		]);
		// The ids module lists them in the table's order (the compiler checks the set, not the order).
		expect(FAMILY_IDS).toEqual(Object.keys(TASK_FAMILIES));
		for (const [id, family] of Object.entries(TASK_FAMILIES)) expect(family.id).toBe(id);
		expect(TASK_FAMILIES.taskS.pollPolicy).toMatchObject({
			firstPollAfterMs: 600_000,
			minIntervalMs: 60_000,
		});
		expect(TASK_FAMILIES.longRunning.pollPolicy).toMatchObject({
			firstPollAfterMs: 10_000,
			minIntervalMs: 10_000,
		});
	});

	it('shows every create property of a family for that family and the Create operation only', () => {
		expect(Object.keys(FAMILY_EDITORS)).toEqual(Object.keys(TASK_FAMILIES));
		for (const [id, editor] of Object.entries(FAMILY_EDITORS)) {
			expect(editor.createProperties.length).toBeGreaterThan(0);
			const names = editor.createProperties.map((property) => property.name);
			const shown = createDescription.filter((property) => names.includes(property.name));
			expect(shown).toHaveLength(names.length);
			for (const property of shown) {
				expect(property.displayOptions?.show).toMatchObject({
					family: [id],
					operation: ['create'],
				});
			}
		}
		const names = Object.values(FAMILY_EDITORS).flatMap((editor) =>
			editor.createProperties.map((property) => property.name),
		);
		expect(new Set(names).size).toBe(names.length);
	});
});

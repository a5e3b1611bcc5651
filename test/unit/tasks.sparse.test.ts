import type { ParseContext } from '../../nodes/shared/tasks';
import { isoTime, taskError, TASK_FAMILIES } from '../../nodes/shared/tasks';

/**
 * Task bodies in the shapes the upstream notes allow but the simulator does not send: bare
 * callback records, sparse create answers, other error shapes and time formats.
 */

const context: ParseContext = { model: 'm', traceId: 't', createdAt: '2026-01-01T00:00:00.000Z' };

describe('Family A', () => {
	it('a bare record (a callback body without the envelope), failed without a message', () => {
		const { task } = TASK_FAMILIES.familyA.parseTaskRecord(
			{ task_id: 'a1', task_status: 'failed', created_at: 1_767_225_600_000 },
			context,
		);
		expect(task).toMatchObject({
			taskId: 'a1',
			status: 'failed',
			endpoint: 'omni-video',
			error: { code: 'task_failed', message: 'The task failed without a message' },
			createdAt: '2026-01-01T00:00:00.000Z',
			videoUrls: [],
		});
	});

	it('an envelope whose data is not the task record, and a create answer with or without a status', () => {
		const { task } = TASK_FAMILIES.familyA.parseTaskRecord(
			{ task_id: 'a2', task_status: 'succeed', data: { other: 1 } },
			{ ...context, endpoint: 'image2video' },
		);
		expect(task).toMatchObject({ taskId: 'a2', status: 'succeeded', endpoint: 'image2video' });
		expect(
			TASK_FAMILIES.familyA.parseCreateResponse(
				{ code: 0, data: { task_id: 'a3', task_status: 'processing' } },
				context,
			).task,
		).toMatchObject({ taskId: 'a3', status: 'running', rawStatus: 'processing' });
		expect(
			TASK_FAMILIES.familyA.parseCreateResponse({ code: 0, task_id: 'a4' }, context).task,
		).toMatchObject({ taskId: 'a4', status: 'queued', rawStatus: null });
	});
});

describe('Family C', () => {
	it('a create answer with only the upstream task_id, and a status instead of a state', () => {
		expect(
			TASK_FAMILIES.familyC.parseCreateResponse({ task_id: 42, status: 'queueing' }, context).task,
		).toMatchObject({ taskId: '42', status: 'queued', rawStatus: 'queueing' });
		expect(
			TASK_FAMILIES.familyC.parseCreateResponse({ id: 'video_1' }, context).task,
		).toMatchObject({ taskId: 'video_1', status: 'queued', rawStatus: null });
	});
});

describe('tolerant readers', () => {
	it.each([
		[1_767_225_600, '2026-01-01T00:00:00.000Z'],
		['1767225600', '2026-01-01T00:00:00.000Z'],
		[1_767_225_600_000, '2026-01-01T00:00:00.000Z'],
		['2026-01-01T01:00:00+01:00', '2026-01-01T00:00:00.000Z'],
		['yesterday', undefined],
		[0, undefined],
		[null, undefined],
	])('isoTime(%p)', (value, expected) => {
		expect(isoTime(value)).toBe(expected);
	});

	it.each([
		[null, null],
		[false, null],
		['', null],
		['boom', { code: 'task_failed', message: 'boom' }],
		[503, { code: 'task_failed', message: '503' }],
		[
			{ type: 'upstream', msg: 'down' },
			{ code: 'upstream', message: 'down' },
		],
		[{ code: 7 }, { code: '7', message: '{"code":7}' }],
	])('taskError(%p)', (value, expected) => {
		expect(taskError(value)).toEqual(expected);
	});
});

import { packageNodeTypes } from '../engine/packageNodes';
import { recognizeCallback, TASK_FAMILIES } from '../../nodes/shared/tasks';
import type { INodeProperties } from 'n8n-workflow';

import type { FamilyId, ParseContext } from '../../nodes/shared/tasks';
import { ModelGatewayVideo } from '../../nodes/ModelGatewayVideo/ModelGatewayVideo.node';

/** Record parsing and callback recognition, on bodies shaped like upstream-notes.md describes. */

const context: ParseContext = { model: 'm', traceId: 't', createdAt: '2026-01-01T00:00:00.000Z' };

describe('task record parsing', () => {
	it('Task family S: wrapped record with cost and an error on failure', () => {
		const { task } = TASK_FAMILIES.taskS.parseTaskRecord(
			{
				code: 'success',
				message: '',
				data: {
					id: 's1',
					model: 'seed',
					status: 'Expired',
					error: { code: 'QuotaExceeded', message: 'no quota' },
					created_at: 1_700_000_000,
				},
			},
			context,
		);
		expect(task).toMatchObject({
			family: 'taskS',
			taskId: 's1',
			model: 'seed',
			status: 'failed',
			rawStatus: 'Expired',
			done: true,
			error: { code: 'QuotaExceeded', message: 'no quota' },
			createdAt: '2023-11-14T22:13:20.000Z',
			traceId: 't',
		});
	});

	it('Family A: millisecond timestamps, several videos, message on failure', () => {
		const ok = TASK_FAMILIES.familyA.parseTaskRecord(
			{
				code: 0,
				message: '',
				data: {
					task_id: 'a1',
					task_status: 'SUCCEED',
					created_at: 1_700_000_000_000,
					task_result: { videos: [{ url: 'u1' }, { url: 'u2' }], images: null },
				},
			},
			{ ...context, endpoint: 'image2video' },
		).task;
		expect(ok).toMatchObject({
			endpoint: 'image2video',
			status: 'succeeded',
			videoUrl: 'u1',
			videoUrls: ['u1', 'u2'],
			createdAt: '2023-11-14T22:13:20.000Z',
		});
		const failed = TASK_FAMILIES.familyA.parseTaskRecord(
			{ data: { task_id: 'a1', task_status: 'failed', task_status_msg: 'content policy' } },
			context,
		).task;
		expect(failed.error).toEqual({ code: 'task_failed', message: 'content policy' });
	});

	it('generic: a failure without an error object still explains itself; an unknown status keeps the gateway word', () => {
		const failed = TASK_FAMILIES.generic.parseTaskRecord({ id: 'v', status: 'Fail' }, context).task;
		expect(failed).toMatchObject({
			status: 'failed',
			done: true,
			error: { code: 'task_failed', message: 'The task ended with status "Fail"' },
		});
		const odd = TASK_FAMILIES.generic.parseTaskRecord(
			{ id: 'v', status: 'paused', extra: { deep: [1] } },
			context,
		).task;
		expect(odd).toMatchObject({
			status: 'unknown',
			rawStatus: 'paused',
			done: false,
			error: null,
			raw: { extra: { deep: [1] } },
		});
	});

	it('Family B: FINISH with an error is a failure', () => {
		const { task } = TASK_FAMILIES.familyB.parseTaskRecord(
			{
				id: 'b',
				status: 'FINISH',
				error: { code: 'E1', message: 'upstream broke' },
				video_url: 'x',
			},
			context,
		);
		expect(task).toMatchObject({
			status: 'failed',
			rawStatus: 'FINISH',
			error: { code: 'E1', message: 'upstream broke' },
			videoUrl: null,
		});
	});

	it('Family C: the state word and creations[] URLs', () => {
		const { task } = TASK_FAMILIES.familyC.parseTaskRecord(
			{ id: 'c', state: 'Success', creations: [{ url: 'c1' }, { url: 'c2' }] },
			context,
		);
		expect(task).toMatchObject({
			status: 'succeeded',
			rawStatus: 'Success',
			videoUrls: ['c1', 'c2'],
		});
	});

	it('long-running: bytes leave raw and become inline videos; safety-filtered is failed with the reason', () => {
		const parsed = TASK_FAMILIES.longRunning.parseTaskRecord(
			{
				name: 'models/veo/operations/o1',
				done: true,
				response: { videos: [{ mimeType: 'video/mp4', bytesBase64Encoded: 'AAAA' }] },
			},
			context,
		);
		expect(parsed.inlineVideos).toEqual([{ base64: 'AAAA', mimeType: 'video/mp4' }]);
		expect(JSON.stringify(parsed.task.raw)).not.toContain('AAAA');
		expect(parsed.task).toMatchObject({ taskId: 'o1', model: 'veo', status: 'succeeded' });
		const filtered = TASK_FAMILIES.longRunning.parseTaskRecord(
			{
				name: 'models/veo/operations/o2',
				done: true,
				response: { videos: [], raiMediaFilteredReasons: ['unsafe'] },
			},
			context,
		).task;
		expect(filtered).toMatchObject({
			status: 'failed',
			done: true,
			error: { code: 'no_videos', message: expect.stringContaining('unsafe') },
		});
	});

	it.each([
		['no padding', Buffer.from('abc'), 3],
		['one = of padding', Buffer.from('abcde'), 5],
		['two = of padding', Buffer.from('abcd'), 4],
		['wrapped over lines', Buffer.alloc(100, 7), 100],
	])(
		'long-running: raw reports the decoded byte count of an inline video (%s)',
		(_, bytes, count) => {
			const encoded = bytes.toString('base64');
			const base64 = count === 100 ? encoded.replace(/(.{76})/g, '$1\n') : encoded;
			const { task } = TASK_FAMILIES.longRunning.parseTaskRecord(
				{
					name: 'models/veo/operations/o3',
					done: true,
					response: { videos: [{ mimeType: 'video/mp4', bytesBase64Encoded: base64 }] },
				},
				context,
			);
			expect(task.raw).toMatchObject({
				response: {
					videos: [{ bytesBase64Encoded: `[${count} bytes, stored as binary data]` }],
				},
			});
		},
	);

	it('never crashes on bodies of the wrong shape', () => {
		for (const family of Object.values(TASK_FAMILIES)) {
			for (const body of [null, 'text', 42, [], {}, { data: 'x' }]) {
				const { task } = family.parseTaskRecord(body, context);
				expect(task.status).toBe('unknown');
				expect(task.done).toBe(false);
			}
		}
	});
});

describe('callback recognition', () => {
	it('recognizes a bare and a wrapped Task family S record', () => {
		const bare = recognizeCallback({ id: 's1', status: 'succeeded', content: { video_url: 'v' } });
		expect(bare).toMatchObject({
			family: 'taskS',
			taskId: 's1',
			status: 'succeeded',
			videoUrl: 'v',
		});
		const wrapped = recognizeCallback({
			code: 'success',
			message: '',
			data: { id: 's2', status: 'running' },
		});
		expect(wrapped).toMatchObject({ family: 'taskS', taskId: 's2', status: 'running' });
	});

	it('recognizes a Family A callback, bare or in its envelope', () => {
		const body = {
			task_id: 'a1',
			task_status: 'succeed',
			task_status_msg: '',
			task_info: { external_task_id: 'x' },
			task_result: { videos: [{ url: 'u' }] },
		};
		expect(recognizeCallback(body)).toMatchObject({
			family: 'familyA',
			taskId: 'a1',
			status: 'succeeded',
			videoUrl: 'u',
		});
		expect(recognizeCallback({ code: 0, message: '', data: body })).toMatchObject({
			family: 'familyA',
			taskId: 'a1',
		});
	});

	it('recognizes a Family C callback', () => {
		expect(
			recognizeCallback({ id: 'c1', state: 'success', creations: [{ url: 'u' }] }),
		).toMatchObject({ family: 'familyC', status: 'succeeded', videoUrl: 'u' });
	});

	it('recognizes nothing in bodies of no family', () => {
		for (const body of [null, {}, { hello: 1 }, { id: 'x' }, 'text'])
			expect(recognizeCallback(body)).toBeUndefined();
	});
});

describe('business failures inside HTTP 200, as each family reports them', () => {
	it('Family A: a non-zero numeric code, create and query', () => {
		const { create, query } = TASK_FAMILIES.familyA.answerFailure;
		expect(create({ code: 0, message: '', task_id: 'a-1' })).toBeUndefined();
		expect(query({ code: 0, message: '', data: { task_id: 'a-1' } })).toBeUndefined();
		for (const check of [create, query])
			expect(check({ code: 1303, message: 'limit' })).toEqual({ code: '1303', message: 'limit' });
	});

	it('Task family S: a code other than success, when there is a code', () => {
		const { create, query } = TASK_FAMILIES.taskS.answerFailure;
		expect(query({ code: 'success', data: { id: 't-1', status: 'running' } })).toBeUndefined();
		expect(query({ code: 'SUCCESS', data: { status: 'queued' } })).toBeUndefined();
		expect(create({ id: 'task-1' })).toBeUndefined();
		for (const check of [create, query])
			expect(check({ code: 'QuotaExceeded', message: 'quota' })).toEqual({
				code: 'QuotaExceeded',
				message: 'quota',
			});
	});
});

/** Issue 39: what a success of each family's answers carries; anything else is no task. */
describe('what a success of each family answer carries', () => {
	const gatewayError = { error: { message: 'overloaded', type: 'server_error', code: 'busy' } };
	const noTask = (what: string) => ({
		code: 'NO_ANSWER',
		message: `The gateway answered without a task: ${what}`,
	});

	it.each<[FamilyId, 'create' | 'query', unknown, string]>([
		['taskS', 'create', { id: 'cgt-1' }, 'the create answer has no "id"'],
		[
			'taskS',
			'query',
			{ id: 'cgt-1', status: 'failed' },
			'the task record has no "id" or "status"',
		],
		[
			'familyA',
			'create',
			{ code: 0, data: { task_id: 'a-1' } },
			'the create answer has no "task_id"',
		],
		[
			'familyA',
			'query',
			{ code: 0, data: { task_status: 'failed', task_status_msg: 'no' } },
			'the task record has no "task_id" or "task_status"',
		],
		[
			'generic',
			'create',
			{ task_id: 17, status: 'queued' },
			'the create answer has no "id" or "task_id"',
		],
		[
			'familyB',
			'query',
			{ id: 'b-1', status: 'FINISH', error: { message: 'upstream failed' } },
			'the task record has no "id", "task_id", "status" or "state"',
		],
		[
			'familyC',
			'create',
			{ task_id: 'c-1', state: 'created' },
			'the create answer has no "id" or "task_id"',
		],
		[
			'longRunning',
			'create',
			{ name: 'models/m/operations/o-1' },
			'the create answer has no "name"',
		],
		[
			'longRunning',
			'query',
			{ done: true, error: { code: 3, message: 'blocked' } },
			'the task record has no "name" or "done"',
		],
	])(
		'%s %s: a task (its own error included) passes; an error body or nothing fails',
		(family, kind, task, missing) => {
			const check = TASK_FAMILIES[family].answerFailure[kind];
			expect(check(task)).toBeUndefined();
			expect(check(gatewayError)).toEqual({ code: 'busy', message: 'overloaded' });
			expect(check({})).toEqual(noTask(missing));
			expect(check({ id: '', task_id: null, name: ' ' })).toEqual(noTask(missing));
		},
	);
});

describe('the node description', () => {
	it('is usable as an AI tool and tells an agent how to use it', () => {
		const { description } = new ModelGatewayVideo();
		expect(description.usableAsTool).toBe(true);
		expect(description.description).toMatch(/Get Status/);
		expect(description.description).toMatch(/taskId/);
	});

	it('names the operation and the family as the selectors show them in its subtitle', () => {
		const { description } = new ModelGatewayVideo();
		expect(description.subtitle).toContain('"familyA":"Family A"');
		expect(description.subtitle).toContain('"longRunning":"Long-Running Operation"');
	});

	// n8n's linter sorts collections of 5 or more by displayName (localeCompare), but cannot see
	// the ones built with helpers or spreads; this checks what the editor actually gets.
	it('sorts every options collection of 5 or more by display name', () => {
		const unsorted: string[] = [];
		const visit = (properties: INodeProperties[]) => {
			for (const property of properties) {
				const options = (property.options ?? []) as Array<
					Partial<INodeProperties> & { values?: INodeProperties[] }
				>;
				if (property.type === 'collection' && options.length >= 5) {
					const names = options.map((option) => option.displayName ?? '');
					const sorted = [...names].sort((a, b) => a.localeCompare(b));
					if (names.join('|') !== sorted.join('|')) unsorted.push(property.name);
				}
				for (const option of options) {
					if (Array.isArray(option.values)) visit(option.values);
				}
				if (property.type === 'collection') visit(options as INodeProperties[]);
			}
		};
		visit(new ModelGatewayVideo().description.properties);
		expect(unsorted).toEqual([]);
	});

	it('names no gateway path, spec or unshipped node in editor text', () => {
		const text = JSON.stringify(new ModelGatewayVideo().description.properties);
		expect(text).not.toMatch(/\/v1|\/vendor-|the spec/i);
		const shipped = Object.values(packageNodeTypes).map((node) => node.description.displayName);
		const named = [
			...new Set(text.match(/Model Gateway (?:[A-Z][a-z]+ ?)+/g)?.map((name) => name.trim())),
		];
		expect(named.filter((name) => !shipped.some((node) => node.startsWith(name)))).toEqual([]);
		expect(named).toEqual(['Model Gateway Task Callback Trigger']);
	});
});

import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { TASK_S_FIRST_QUERY_AFTER_MS } from '../simulator/tasks';
import { runChain, type RunResult } from './harness';
import { useSimulator } from './simulatorFixture';
import type { TestItem } from './testNodes';
import { videoNode } from './videoNode';

/**
 * A sheet that mixes providers: one Video node in "From Each Item" mode creates every row's task
 * under the row's own family, endpoint and fields; Wait for Task takes the mixed batch as it is.
 */

// Tasks finish at once and count as 10 minutes old at the gateway, so Task family S may be
// queried (the "10 Minutes Later" node ages the items' side the same way).
const gateway = useSimulator({ queuedMs: 0, runningMs: 0, taskAgeMs: TASK_S_FIRST_QUERY_AFTER_MS });

interface Row {
	family: string;
	model: string;
	endpoint?: string;
	request: IDataObject;
}

/** One row of each kind the sheet holds; families named by ID or by their display name. */
const ROW_KINDS: Array<(n: number) => Row> = [
	(n) => ({
		family: 'taskS',
		model: 's-video',
		request: { content: [{ type: 'text', text: `shot ${n}` }], duration: 5 },
	}),
	(n) => ({
		family: 'Family A',
		model: 'a-video',
		request: { prompt: `shot ${n}`, aspect_ratio: '16:9' },
	}),
	(n) => ({
		family: 'familyA',
		model: 'a-video',
		endpoint: 'image2video',
		request: { prompt: `shot ${n}`, image: 'https://example.com/first.png' },
	}),
	(n) => ({ family: 'generic', model: 'g-video', request: { prompt: `shot ${n}`, duration: 10 } }),
	(n) => ({ family: 'family b', model: 'b-video', request: { Prompt: `shot ${n}` } }),
	(n) => ({ family: 'familyC', model: 'c-video', request: { prompt: `shot ${n}`, duration: '5' } }),
	(n) => ({
		family: 'Long-Running Operation',
		model: 'veo-x',
		request: { instances: [{ prompt: `shot ${n}` }], parameters: { durationSeconds: 8 } },
	}),
];

function sheet(count: number): TestItem[] {
	return Array.from({ length: count }, (_, n) => ({
		json: { row: n, ...ROW_KINDS[n % ROW_KINDS.length](n) } as IDataObject,
	}));
}

const createFromItems = (parameters: IDataObject = {}) =>
	videoNode(
		'fromItem',
		'create',
		{
			model: '={{ $json.model }}',
			itemEndpoint: '={{ $json.endpoint }}',
			...parameters,
		},
		{ name: 'Create' },
	);

function outputs(result: RunResult, name: string): INodeExecutionData[][] {
	const runs = result.run.data.resultData.runData[name];
	return (runs?.[runs.length - 1]?.data?.main ?? []).map((output) => output ?? []);
}

describe('Model Gateway Video: family from each item', () => {
	it('creates a 105-row mixed batch under each row’s family, and Wait for Task finishes all of it', async () => {
		const rows = sheet(105);
		const result = await runChain(
			[
				createFromItems(),
				{ type: 'test.ageTasks', name: '10 Minutes Later', parameters: { ageMs: 601_000 } },
				{ type: 'modelGatewayWaitForTask', name: 'Wait', parameters: {} },
			],
			{ credentials: gateway.credentials(), input: rows },
		);
		expect(result.error('Create')).toBeUndefined();
		expect(result.error('Wait')).toBeUndefined();

		const created = result.output('Create');
		expect(created).toHaveLength(105);
		const familyOf = (row: Row) =>
			({
				taskS: 'taskS',
				'Family A': 'familyA',
				familyA: 'familyA',
				generic: 'generic',
				'family b': 'familyB',
				familyC: 'familyC',
				'Long-Running Operation': 'longRunning',
			})[row.family];
		created.forEach((item, index) => {
			const row = rows[index].json as unknown as Row;
			expect(item.json.family).toBe(familyOf(row));
			expect(item.json.model).toBe(row.model);
			expect(item.pairedItem).toEqual({ item: index });
		});

		const sim = gateway.simulator;
		// 15 rows of each kind; Family A's two kinds went to their own endpoints.
		expect(sim.requestsTo('POST', '/v1/task/create')).toHaveLength(15);
		expect(sim.requestsTo('POST', '/vendor-a/v1/videos/omni-video')).toHaveLength(15);
		expect(sim.requestsTo('POST', '/vendor-a/v1/videos/image2video')).toHaveLength(15);
		expect(sim.requestsTo('POST', '/v1/videos')).toHaveLength(15);
		expect(sim.requestsTo('POST', '/vendor-b/v1/video/generations')).toHaveLength(15);
		expect(sim.requestsTo('POST', '/vendor-c/ent/v2/reference2video')).toHaveLength(15);
		expect(sim.requestsTo('POST', '/v1beta/models/veo-x:predictLongRunning')).toHaveLength(15);
		// The row's fields are the body, with the model in the family's own field.
		expect(sim.requestsTo('POST', '/vendor-b/v1/video/generations')[0].body).toEqual({
			ModelName: 'b-video',
			Prompt: 'shot 4',
		});
		expect(sim.requestsTo('POST', '/vendor-a/v1/videos/image2video')[0].body).toEqual({
			model_name: 'a-video',
			prompt: 'shot 2',
			image: 'https://example.com/first.png',
		});

		const [succeeded, failed, timedOut] = outputs(result, 'Wait');
		expect(failed).toHaveLength(0);
		expect(timedOut).toHaveLength(0);
		expect(succeeded).toHaveLength(105);
		const byFamily = new Map<string, number>();
		for (const item of succeeded) {
			const family = String(item.json.family);
			byFamily.set(family, (byFamily.get(family) ?? 0) + 1);
		}
		expect(Object.fromEntries(byFamily)).toEqual({
			taskS: 15,
			familyA: 30,
			generic: 15,
			familyB: 15,
			familyC: 15,
			longRunning: 15,
		});
	});

	it('refuses a bad row by its item and field, and sends no create of the batch', async () => {
		const rows = sheet(14);
		// Row 10 is a generic row (10 % 7 = 3): a duration the generic family does not offer.
		rows[10].json.request = { prompt: 'shot 10', duration: 7 };
		const result = await runChain([createFromItems()], {
			credentials: gateway.credentials(),
			input: rows,
		});
		const error = result.error('Create');
		expect(error?.message).toMatch(/^Item 10: "duration"/);
		expect(gateway.simulator.requests.filter((request) => request.method === 'POST')).toEqual([]);
	});

	it('names the item and the families when a row names an unknown family', async () => {
		const rows = sheet(3);
		rows[2].json.family = 'family Z';
		const result = await runChain([createFromItems()], {
			credentials: gateway.credentials(),
			input: rows,
		});
		expect(result.error('Create')?.message).toMatch(
			/^Item 2: "Family of the Item": "family Z" is not a family; use one of taskS \(Task Family S\), familyA/,
		);
		expect(gateway.simulator.requests).toEqual([]);
	});

	it('refuses an endpoint the row’s family does not have, and fields that are not an object', async () => {
		const badEndpoint = sheet(2);
		badEndpoint[1].json.endpoint = 'text-to-video';
		const first = await runChain([createFromItems()], {
			credentials: gateway.credentials(),
			input: badEndpoint,
		});
		expect(first.error('Create')?.message).toBe(
			'Item 1: "Endpoint": must be one of omni-video, image2video',
		);

		const notAnObject = sheet(1);
		notAnObject[0].json.request = '["a", "list"]';
		const second = await runChain([createFromItems()], {
			credentials: gateway.credentials(),
			input: notAnObject,
		});
		expect(second.error('Create')?.message).toBe(
			'Item 0: "Request Fields of the Item": must be a JSON object, and is ["a","list"]',
		);
		expect(gateway.simulator.requests).toEqual([]);
	});
});

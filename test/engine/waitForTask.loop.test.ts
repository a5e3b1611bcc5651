import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { runChain, runNode, type RunResult, type WorkflowNodeSpec } from './harness';
import { useSimulator } from './simulatorFixture';
import { videoNode } from './videoNode';

/**
 * Check Once and Route with Still Running wired straight back into itself, no Wait node between:
 * a loop users build. It must not spin (run again at once, nothing due, Still Running again):
 * a short wait is taken inside the node, a long one stops the run and says how to wire it.
 */

const gateway = useSimulator();

/**
 * A generic task's first check is due 10 s after creation; aged, it is due at most this soon
 * (the gateway gives `createdAt` in whole seconds: up to a second sooner).
 */
const DUE_IN_MS = 1_500;
const WAIT = 'Wait for Task';

const checkOnceLoop: WorkflowNodeSpec = {
	name: WAIT,
	type: 'modelGatewayWaitForTask',
	parameters: { mode: 'checkOnce', maxWaitMinutes: 60 },
	loopBackOutput: 3,
};

function passes(result: RunResult): Array<INodeExecutionData[][]> {
	return (result.run.data.resultData.runData[WAIT] ?? []).map((run) =>
		(run.data?.main ?? []).map((output) => output ?? []),
	);
}

const genericCreate = videoNode('generic', 'create', {
	model: 'g-video',
	genericPrompt: '={{ $json.prompt }}',
});

describe('Wait for Task: Still Running wired straight back into the same node', () => {
	it('waits inside the node for a check due within 65 s: each task checked once, when due, in two passes', async () => {
		const result = await runChain(
			[
				{ ...genericCreate, name: 'Create' },
				{ type: 'test.ageTasks', name: 'Age', parameters: { ageMs: 10_000 - DUE_IN_MS } },
				checkOnceLoop,
			],
			{
				credentials: gateway.credentials(),
				input: [{ json: { prompt: 'a fox' } }, { json: { prompt: 'a cat' } }],
			},
		);
		expect(result.error(WAIT)).toBeUndefined();
		const runs = passes(result);
		// The first pass (nothing due yet) routes both to Still Running; the second waits for
		// them and checks. A spinning loop runs this node hundreds of times meanwhile.
		expect(runs).toHaveLength(2);
		expect(runs[0][3]).toHaveLength(1);
		expect(runs[0][3][0].json.pendingCount).toBe(2);
		const succeeded = runs.flatMap((outputs) => outputs[0]);
		const created = result.output('Create').map((item) => item.json.taskId);
		expect(succeeded.map((item) => item.json.taskId).sort()).toEqual([...created].sort());
		for (const item of succeeded)
			expect(item.json).toMatchObject({ status: 'succeeded', polls: 1 });
		expect(runs[1][3]).toEqual([]);

		// Never before its due time: 10 s after the (aged) creation.
		const aged = result.output('Age');
		const queries = gateway.simulator.requestsTo('GET', '/v1/videos/');
		expect(queries).toHaveLength(2);
		for (const query of queries) {
			const task = aged.find((item) => query.path.endsWith(String(item.json.taskId)));
			expect(task).toBeDefined();
			expect(query.at).toBeGreaterThanOrEqual(Date.parse(String(task?.json.createdAt)) + 10_000);
		}
	});

	it('stops with an error that says to put a Wait node in the loop when the next check is over 65 s away (Task family S: 10 minutes)', async () => {
		const result = await runChain(
			[
				videoNode(
					'taskS',
					'create',
					{ model: 's', taskSContent: { items: [{ type: 'text', text: 'a fox' }] } },
					{ name: 'Create' },
				),
				checkOnceLoop,
			],
			{ credentials: gateway.credentials() },
		);
		const runs = result.run.data.resultData.runData[WAIT] ?? [];
		expect(runs).toHaveLength(2);
		const error = result.error(WAIT);
		expect(error?.message).toMatch(
			/^Still Running is connected straight back to this node, and no task is due for \d+ s/,
		);
		expect(error?.description).toContain('Put a Wait node between Still Running and this node');
		expect(error?.description).toContain('{{ $json.nextCheckInSeconds }}');
		// Nothing was asked: the task may not be queried before 10 minutes.
		expect(gateway.simulator.requestsTo('GET', '/v1/task/')).toHaveLength(0);
		expect(gateway.simulator.requestsTo('POST', '/v1/task/')).toHaveLength(1);
	});
});

describe('Wait for Task: a Still Running item that did not come straight back', () => {
	async function stillRunningItem(ageMs: number, family = 'generic'): Promise<IDataObject> {
		const parameters: IDataObject =
			family === 'generic'
				? { model: 'g-video', genericPrompt: 'a fox' }
				: { model: 's', taskSContent: { items: [{ type: 'text', text: 'a fox' }] } };
		const created = await runNode(videoNode(family, 'create', parameters), {
			credentials: gateway.credentials(),
		});
		const { raw: _raw, ...task } = created.items[0].json;
		const createdAt = new Date(Date.parse(String(task.createdAt)) - ageMs).toISOString();
		return { pendingCount: 1, pendingTasks: [{ ...task, createdAt, polls: 0 }] };
	}

	it.each([
		['over 65 s away (a Wait that waited too little)', 0, 'taskS', '/v1/task/'],
		['due within 65 s', 10_000 - DUE_IN_MS, 'generic', '/v1/videos/'],
	])(
		'routes it to Still Running again, unasked, when its check is %s',
		async (_when, ageMs, family, queryPath) => {
			const input = await stillRunningItem(ageMs, family);
			const result = await runNode(
				{ type: 'modelGatewayWaitForTask', parameters: { mode: 'checkOnce' } },
				{ credentials: gateway.credentials(), input: [{ json: input }] },
			);
			expect(result.error('Node Under Test')).toBeUndefined();
			const outputs = result.run.data.resultData.runData['Node Under Test'][0].data?.main ?? [];
			expect(outputs[3]?.[0]?.json.pendingCount).toBe(1);
			expect(gateway.simulator.requestsTo('GET', queryPath)).toHaveLength(0);
		},
	);
});

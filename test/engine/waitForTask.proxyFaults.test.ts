import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { TASK_S_FIRST_QUERY_AFTER_MS } from '../simulator/tasks';
import { useFakeDate } from './fakeDate';
import { runNode, type RunResult } from './harness';
import { startProxyGateway, type ProxyAnswer, type ProxyGateway } from './proxyGateway';
import { useSimulator } from './simulatorFixture';
import type { TestItem } from './testNodes';
import { videoNode } from './videoNode';

/**
 * Only the gateway's own word fails a task (issue 54). A proxy in front of the simulator answers
 * status queries itself for a while (an HTML 404 page during a deploy, a 502 with nothing in it)
 * and then passes them on again: no task goes to Failed, each is checked again with back-off and
 * finishes once the proxy recovers. A Base URL every query is refused at alike stops the node with
 * a set-up error that names it. A task the gateway itself says it does not know still fails alone.
 *
 * The loops run Check Once and Route pass after pass on jest's fake Date (timers stay real, so
 * HTTP and n8n's engine run as usual), each pass as long after the last as a Wait node waits
 * (`nextCheckInSeconds`). The simulator and the proxy run in this process, on the same clock.
 */

const MINUTE = 60_000;
// Tasks run 16 minutes: they are still running in the proxy's bad minutes, done after.
const gateway = useSimulator({ queuedMs: 0, runningMs: 16 * MINUTE });
const NODE = 'Node Under Test';

const NGINX_404 =
	'<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
const HTML_404: ProxyAnswer = {
	status: 404,
	headers: { 'content-type': 'text/html' },
	body: NGINX_404,
};
// `retry-after-ms: 0`: the transport repeats a 502 read at once (the fake clock stands still
// during a pass, so a timed wait would never end); the proxy still refuses every repeat.
const EMPTY_502: ProxyAnswer = { status: 502, headers: { 'retry-after-ms': '0' }, body: '' };

let proxy: ProxyGateway;
/** What the proxy answers a request with; undefined passes it on. Set by each test. */
let proxyRule: (method: string, path: string) => ProxyAnswer | undefined = () => undefined;

beforeAll(async () => {
	proxy = await startProxyGateway(gateway.simulator.baseUrl, (_arrival, method, path) =>
		proxyRule(method, path),
	);
});
afterAll(async () => {
	await proxy.close();
});

beforeEach(() => {
	proxy.arrivals.length = 0;
	proxyRule = () => undefined;
});

afterEach(() => {
	jest.useRealTimers();
});

const setClock = (at: number) => jest.setSystemTime(at);

function credentials(path = '/'): ReturnType<typeof gateway.credentials> {
	const direct = gateway.credentials();
	return {
		...direct,
		modelGatewayApi: { ...direct.modelGatewayApi, baseUrl: `${proxy.baseUrl}${path}` },
	};
}

function outputs(result: RunResult): INodeExecutionData[][] {
	const runs = result.run.data.resultData.runData[NODE];
	return (runs?.[runs.length - 1]?.data?.main ?? []).map((output) => output ?? []);
}

const waitForTask = (mode: string, continueOnFail = false, options: IDataObject = {}) => ({
	type: 'modelGatewayWaitForTask',
	parameters: { mode, maxWaitMinutes: 60, options },
	...(continueOnFail ? { continueOnFail: true } : {}),
});

const CREATES: Record<'generic' | 'taskS', IDataObject> = {
	generic: { model: 'g-video', genericPrompt: 'a slow fox' },
	taskS: { model: 's', taskSContent: { items: [{ type: 'text', text: 'a slow fox' }] } },
};

/** Tasks created through the Video node, straight at the simulator, at the current time. */
async function createTasks(family: 'generic' | 'taskS', count: number): Promise<IDataObject[]> {
	const created = await runNode(videoNode(family, 'create', CREATES[family]), {
		credentials: gateway.credentials(),
		input: Array.from({ length: count }, (_, row) => ({ json: { row } })),
	});
	expect(created.error(NODE)).toBeUndefined();
	return created.items.map(({ json }) => {
		const { raw: _raw, ...fields } = json;
		return fields;
	});
}

/** Tasks handed over five minutes after creation: every family's first check is due. */
function agedFiveMinutes(tasks: IDataObject[]): IDataObject[] {
	const createdAt = new Date(Date.now() - 5 * MINUTE).toISOString();
	return tasks.map((task): IDataObject => ({ ...task, createdAt }));
}

/** A status query's arrivals at the proxy (answered by it or passed on), by task. */
function queriesOf(taskId: string) {
	return proxy.arrivals.filter(
		(arrival) => arrival.method === 'GET' && arrival.path.endsWith(`/${taskId}`),
	);
}

interface LoopRecord {
	succeeded: IDataObject[];
	failed: IDataObject[];
	timedOut: IDataObject[];
	/** Each pass's Still Running tasks, with the time of the pass. */
	pending: Array<{ at: number; tasks: IDataObject[] }>;
}

/**
 * Check Once and Route from `from`, each Still Running fed back as a Wait node hands it on
 * (`nextCheckInSeconds` later), until nothing is pending. Every pass must end without error.
 */
async function loop(tasks: IDataObject[], from: number, maxPasses = 60): Promise<LoopRecord> {
	const record: LoopRecord = { succeeded: [], failed: [], timedOut: [], pending: [] };
	let input: TestItem[] = tasks.map((json) => ({ json }));
	setClock(from);
	for (let pass = 0; pass < maxPasses; pass++) {
		const result = await runNode(waitForTask('checkOnce'), { credentials: credentials(), input });
		expect(result.error(NODE)).toBeUndefined();
		const [succeeded, failed, timedOut, stillRunning] = outputs(result);
		record.succeeded.push(...succeeded.map((item) => item.json));
		record.failed.push(...failed.map((item) => item.json));
		record.timedOut.push(...timedOut.map((item) => item.json));
		if (stillRunning.length === 0) return record;
		const item = stillRunning[0].json;
		record.pending.push({ at: Date.now(), tasks: item.pendingTasks as IDataObject[] });
		setClock(Date.now() + Number(item.nextCheckInSeconds) * 1000);
		input = [{ json: item }];
	}
	throw new Error(`Still running after ${maxPasses} passes`);
}

/** Task family S's rule, on every query that reached the proxy (those it refused too). */
function expectTaskSRuleKept(taskId: string, createdAt: number): void {
	const times = queriesOf(taskId).map((arrival) => arrival.at);
	expect(times.length).toBeGreaterThan(0);
	expect(times[0] - createdAt).toBeGreaterThanOrEqual(TASK_S_FIRST_QUERY_AFTER_MS);
	for (let index = 1; index < times.length; index++) {
		expect(times[index] - times[index - 1]).toBeGreaterThanOrEqual(MINUTE);
	}
}

describe.each([
	[
		'an HTML 404 page (a deploy)',
		HTML_404,
		/^Not the gateway's answer \(HTTP 404, text\/html, an HTML page\), from http:\/\/127\.0\.0\.1:\d+\/$/,
	],
	[
		'a 502 with an empty body',
		EMPTY_502,
		/^Not the gateway's answer \(HTTP 502, no content type, an empty body\), from http:\/\/127\.0\.0\.1:\d+\/$/,
	],
])('Wait for Task behind a proxy that answers %s for 12 minutes', (_name, answer, reason) => {
	it('fails no task: each is checked again with back-off and finishes after the proxy recovers, Task family S rules kept', async () => {
		useFakeDate();
		const createdAt = Date.now();
		const generic = await createTasks('generic', 3);
		const taskS = await createTasks('taskS', 2);
		const windowStart = createdAt + 2 * MINUTE;
		const windowEnd = createdAt + 14 * MINUTE;
		proxyRule = (method) =>
			method === 'GET' && Date.now() >= windowStart && Date.now() < windowEnd ? answer : undefined;

		// The first pass (a minute in) is answered: the generic tasks are running, S not yet due.
		const record = await loop([...generic, ...taskS], createdAt + MINUTE);

		expect(record.failed).toEqual([]);
		expect(record.timedOut).toEqual([]);
		const all = [...generic, ...taskS].map((task) => task.taskId);
		expect(record.succeeded.map((task) => task.taskId).sort()).toEqual([...all].sort());
		for (const task of record.succeeded) {
			expect(task).toMatchObject({ status: 'succeeded', done: true, error: null });
			// Its record came: the failed checks before it are no longer reported.
			expect(task.failedChecksInRow).toBeUndefined();
			expect(task.lastCheckError).toBeUndefined();
			expect(Date.parse(String(task.lastCheckedAt))).toBeGreaterThanOrEqual(windowEnd);
		}

		// While the proxy refused, Still Running said why each refused task was not checked.
		const inWindow = record.pending.filter(({ at }) => at >= windowStart && at < windowEnd);
		const refusedTasks = inWindow.flatMap(({ tasks }) =>
			tasks.filter((task) => task.failedChecksInRow !== undefined),
		);
		expect(refusedTasks.length).toBeGreaterThan(0);
		for (const task of refusedTasks) {
			expect(task.lastCheckError).toMatch(reason);
			expect(task.done).toBe(false);
			expect(['queued', 'running']).toContain(task.status);
		}
		expect(
			Math.max(...refusedTasks.map((task) => Number(task.failedChecksInRow))),
		).toBeGreaterThanOrEqual(4);

		// Back-off: 20, 40, 80, 160, 300 s after the refusals in a row, not a check every pass
		// (a pass every 70 s would refuse each generic task 9 or 10 times in those 12 minutes).
		// The transport repeats a generic task's 502 three times within each check (a Task family S
		// task's not at all: the gateway counts every query).
		const attemptsPerCheck = answer.status === 502 ? 4 : 1;
		for (const task of generic) {
			const refused = queriesOf(String(task.taskId)).filter((arrival) => arrival.intercepted);
			expect(refused.length).toBeGreaterThanOrEqual(4 * attemptsPerCheck);
			expect(refused.length).toBeLessThanOrEqual(7 * attemptsPerCheck);
		}
		for (const task of taskS) expectTaskSRuleKept(String(task.taskId), createdAt);
	});
});

/**
 * Date.now running `factor` times faster than real time from now on: Wait in This Execution's
 * sleeps (and the simulator's task ages, the proxy's window) pass in real seconds, not minutes.
 */
function fastDate(factor: number): jest.SpyInstance<number, []> {
	const realNow = Date.now.bind(Date);
	const start = realNow();
	return jest.spyOn(Date, 'now').mockImplementation(() => start + (realNow() - start) * factor);
}

describe('Wait in This Execution behind a proxy that answers an HTML 404 page for 3.5 minutes', () => {
	it('fails no task: each is checked again with back-off and succeeds after the proxy recovers', async () => {
		const clock = fastDate(40);
		try {
			gateway.simulator.setOptions({ runningMs: 6 * MINUTE });
			const started = Date.now();
			const tasks = await createTasks('generic', 3);
			// The first check (10 s in) is answered: the gateway is there before the proxy fails.
			const windowStart = started + 30_000;
			const windowEnd = started + 4 * MINUTE;
			proxyRule = (method) =>
				method === 'GET' && Date.now() >= windowStart && Date.now() < windowEnd
					? HTML_404
					: undefined;
			const result = await runNode(waitForTask('waitHere'), {
				credentials: credentials(),
				input: tasks.map((json) => ({ json })),
			});
			expect(result.error(NODE)).toBeUndefined();
			const [succeeded, failed, timedOut] = outputs(result);
			expect([failed.length, timedOut.length]).toEqual([0, 0]);
			expect(succeeded.map((item) => item.json.taskId)).toEqual(tasks.map((task) => task.taskId));
			for (const task of tasks) {
				const queries = queriesOf(String(task.taskId));
				const refused = queries.filter((arrival) => arrival.intercepted);
				// Refused at about 30 s, +20, +40, +80 s (then 160 s reaches past the window): a
				// check every 10 s would have been refused about 20 times.
				expect(refused.length).toBeGreaterThanOrEqual(3);
				expect(refused.length).toBeLessThanOrEqual(6);
				expect(queries[queries.length - 1].at).toBeGreaterThanOrEqual(windowEnd);
			}
		} finally {
			clock.mockRestore();
		}
		// About 6.5 minutes at 40 times: 10 s of real time, more on a busy machine.
	}, 60_000);
});

describe('Wait for Task at a Base URL every query is refused at alike', () => {
	it.each([['waitHere'], ['checkOnce']])(
		'%s: an HTML 404 for every query stops the node with a set-up error naming the Base URL; nothing is routed to Failed',
		async (mode) => {
			const tasks = agedFiveMinutes(await createTasks('generic', 4));
			// A Base URL with a wrong path: the web server in front answers its 404 page.
			proxyRule = (_method, path) => (path.startsWith('/wrong-path/') ? HTML_404 : undefined);
			// One check at a time, so the run stops after exactly three.
			const result = await runNode(waitForTask(mode, false, { concurrency: 1 }), {
				credentials: credentials('/wrong-path/'),
				input: tasks.map((json) => ({ json })),
			});
			const error = result.error(NODE);
			expect(error?.message).toBe(
				`Every status query was refused at ${proxy.baseUrl}/wrong-path/ by something that is not the gateway (HTTP 404, text/html, an HTML page)`,
			);
			expect(error?.description).toMatch(
				/^3 of 3 queries got that answer, none the gateway's own\. Check the credential's Base URL/,
			);
			expect(error?.description).toContain('No task was marked failed');
			const apiKey = gateway.simulator.apiKey;
			expect(JSON.stringify(error)).not.toContain(apiKey);
			// The node stopped: no output at all, so no task on Failed.
			expect(outputs(result).flat()).toEqual([]);
			// Three queries were enough; the fourth task was not asked.
			const asked = proxy.arrivals.filter((arrival) => arrival.method === 'GET');
			expect(asked).toHaveLength(3);
			expect(asked.every((arrival) => arrival.intercepted)).toBe(true);
		},
	);

	it('under Continue On Fail the tasks wait on instead (Still Running, with why), and none fails', async () => {
		const tasks = agedFiveMinutes(await createTasks('generic', 2));
		proxyRule = (_method, path) => (path.startsWith('/wrong-path/') ? HTML_404 : undefined);
		const result = await runNode(waitForTask('checkOnce', true), {
			credentials: credentials('/wrong-path/'),
			input: tasks.map((json) => ({ json })),
		});
		expect(result.error(NODE)).toBeUndefined();
		const [succeeded, failed, timedOut, stillRunning] = outputs(result);
		expect([succeeded.length, failed.length, timedOut.length]).toEqual([0, 0, 0]);
		const pending = stillRunning[0].json.pendingTasks as IDataObject[];
		expect(pending.map((task) => task.taskId)).toEqual(tasks.map((task) => task.taskId));
		for (const task of pending) {
			expect(task).toMatchObject({ failedChecksInRow: 1, polls: 1 });
			expect(task.lastCheckError).toMatch(/^Not the gateway's answer \(HTTP 404, text\/html/);
		}
	});

	it('refusals that differ (a 404 page, then a 502) are no set-up fault: the tasks wait on', async () => {
		const tasks = agedFiveMinutes(await createTasks('generic', 3));
		// The second task's query gets a 502, the others the 404 page.
		const secondTask = `/${String(tasks[1].taskId)}`;
		proxyRule = (method, path) =>
			method !== 'GET' ? undefined : path.endsWith(secondTask) ? EMPTY_502 : HTML_404;
		const result = await runNode(waitForTask('checkOnce'), {
			credentials: credentials(),
			input: tasks.map((json) => ({ json })),
		});
		expect(result.error(NODE)).toBeUndefined();
		const [succeeded, failed, timedOut, stillRunning] = outputs(result);
		expect([succeeded.length, failed.length, timedOut.length]).toEqual([0, 0, 0]);
		expect(stillRunning[0].json.pendingCount).toBe(3);
	});
});

describe('Wait for Task: the gateway says it does not know a task', () => {
	it('in its own JSON words (HTTP 404): that task alone goes to Failed with them, the others succeed', async () => {
		gateway.expectViolations('unknown-id');
		gateway.simulator.setOptions({ runningMs: 0 });
		const known = await createTasks('taskS', 2);
		for (const task of known)
			gateway.simulator.backdateTask(String(task.taskId), TASK_S_FIRST_QUERY_AFTER_MS);
		const createdAt = new Date(Date.now() - TASK_S_FIRST_QUERY_AFTER_MS - 5_000).toISOString();
		const unknown = { ...known[0], taskId: 'cgt-unknown', id: 'cgt-unknown' };
		// Through the proxy, which passes everything on: the gateway's answer reaches the node.
		const result = await runNode(waitForTask('waitHere'), {
			credentials: credentials(),
			input: [known[0], unknown, known[1]].map((task) => ({ json: { ...task, createdAt } })),
		});
		expect(result.error(NODE)).toBeUndefined();
		const [succeeded, failed, timedOut] = outputs(result);
		expect(succeeded.map((item) => item.json.taskId)).toEqual(known.map((task) => task.taskId));
		expect(timedOut).toEqual([]);
		expect(failed).toHaveLength(1);
		expect(failed[0].json).toMatchObject({
			taskId: 'cgt-unknown',
			status: 'failed',
			done: true,
			error: { code: 'query_failed', message: 'The specified task cgt-unknown is not found.' },
		});
		expect(failed[0].pairedItem).toEqual({ item: 1 });
		expect(queriesOf('cgt-unknown')).toHaveLength(1);
	});
});

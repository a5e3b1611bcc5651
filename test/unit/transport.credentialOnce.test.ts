import type { IExecuteFunctions, IHttpRequestOptions } from 'n8n-workflow';

import { itemParameter } from '../../nodes/shared/items/itemParameters';
import { gatewayRequest } from '../../nodes/shared/gateway/transport';
import { testNode } from './testNode';

/** A node run's context whose n8n helpers count what they are asked for. */
function countingContext(parameters: Record<string, unknown> = {}, input: object[] = []) {
	const counts = { credentialReads: 0, parameterReads: 0, nodeCopies: 0 };
	const sent: IHttpRequestOptions[] = [];
	const node = { ...testNode('Probe'), parameters: parameters as never };
	const context = {
		getCredentials: async () => {
			counts.credentialReads++;
			return { baseUrl: 'http://gateway.invalid/', apiKey: 'sk-run-key' };
		},
		getExecutionCancelSignal: () => undefined,
		getNodeParameter: (name: string, item: number, fallback: unknown) => {
			counts.parameterReads++;
			return name === 'options.timeout'
				? 30
				: name === 'options.label'
					? `label ${item}`
					: fallback;
		},
		getNode: () => {
			counts.nodeCopies++;
			return structuredClone(node);
		},
		getInputData: () => input.map((json) => ({ json })),
		helpers: {
			httpRequest: async (options: IHttpRequestOptions) => {
				sent.push(options);
				return { statusCode: 200, headers: {}, body: { ok: true } };
			},
		},
	};
	return { context: context as unknown as IExecuteFunctions, counts, sent };
}

describe('the transport per node run', () => {
	it('reads the credential once for all requests of a run and sends its key itself', async () => {
		const run = countingContext({ options: { timeout: 30 } });
		await Promise.all(
			Array.from({ length: 5 }, (_, itemIndex) =>
				gatewayRequest(run.context, {
					method: 'GET',
					path: '/v1/x',
					kind: 'read',
					itemIndex,
					businessFailure: () => undefined, // any answer: the test is about the transport
				}),
			),
		);
		expect(run.counts.credentialReads).toBe(1);
		expect(
			run.sent.map((options) => [options.url, options.headers?.Authorization, options.timeout]),
		).toEqual(
			Array.from({ length: 5 }, () => ['http://gateway.invalid/v1/x', 'Bearer sk-run-key', 30_000]),
		);
		// The timeout option holds no expression: resolved once for the run.
		expect(run.counts.parameterReads).toBe(1);

		const nextRun = countingContext();
		await gatewayRequest(nextRun.context, {
			method: 'GET',
			path: '/v1/x',
			kind: 'read',
			businessFailure: () => undefined, // any answer: the test is about the transport
		});
		expect(nextRun.counts.credentialReads).toBe(1);
	});

	it('resolves a parameter with an expression for every item, one without once', () => {
		const run = countingContext({
			options: { label: '={{ "label " + $itemIndex }}', timeout: 30 },
		});
		expect([0, 1, 2].map((item) => itemParameter(run.context, 'options.label', item, ''))).toEqual([
			'label 0',
			'label 1',
			'label 2',
		]);
		expect(run.counts.parameterReads).toBe(3);
		expect([0, 1, 2].map((item) => itemParameter(run.context, 'options.timeout', item, 0))).toEqual(
			[30, 30, 30],
		);
		expect(run.counts.parameterReads).toBe(4);
	});

	it('fills in expressions that only read an item field from the item, without n8n', () => {
		const parameters = {
			messages: {
				values: [
					{ role: 'system', content: 'Be brief.' },
					{ role: 'user', content: '={{ $json.question }}' },
					{ role: 'user', content: '={{$json.nested.count}}' },
				],
			},
		};
		const input = [
			{ question: 'first?', nested: { count: 3 } },
			{ question: 'second?', nested: { count: 0 } },
		];
		const run = countingContext(parameters, input);
		const values = [0, 1].map((item) => itemParameter(run.context, 'messages.values', item, []));
		expect(values).toEqual([
			[
				{ role: 'system', content: 'Be brief.' },
				{ role: 'user', content: 'first?' },
				{ role: 'user', content: 3 },
			],
			[
				{ role: 'system', content: 'Be brief.' },
				{ role: 'user', content: 'second?' },
				{ role: 'user', content: 0 },
			],
		]);
		expect(run.counts.parameterReads).toBe(0);
		// One copy of the node for the whole run, not one per call.
		expect(run.counts.nodeCopies).toBe(1);
		// What is handed out is a copy: changing it changes nothing for the next item.
		(values[0] as Array<{ content: unknown }>)[0].content = 'changed';
		expect(itemParameter(run.context, 'messages.values', 0, [])).toEqual([
			{ role: 'system', content: 'Be brief.' },
			{ role: 'user', content: 'first?' },
			{ role: 'user', content: 3 },
		]);
		expect(itemParameter(run.context, 'options.label', 0, '')).toBe('label 0');
		expect(run.counts.parameterReads).toBe(1);
	});
});

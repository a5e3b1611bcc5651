import type { IHookFunctions } from 'n8n-workflow';

import { callbackLifecycle } from '../../nodes/ModelGatewayTaskTrigger/lifecycle';
import { testNode } from './testNode';

/**
 * Activating the Task Callback Trigger: nothing to register on the gateway, but settings under
 * which every callback would be refused stop the activation.
 */

function hookContext(parameters: Record<string, unknown>, credentials: 'present' | 'missing') {
	const asked: string[] = [];
	const context = {
		getNode: () => ({
			...testNode('Task Trigger'),
			...(credentials === 'present'
				? { credentials: { modelGatewayApi: { id: 'c1', name: 'Model Gateway' } } }
				: {}),
		}),
		getNodeParameter: (name: string, fallback: unknown) => parameters[name] ?? fallback,
		getWorkflow: () => ({ id: 'workflow-1', name: 'w', active: true }),
		logger: { warn: () => {} },
		getCredentials: async (name: string) => {
			asked.push(name);
			if (credentials === 'missing')
				throw new Error(`Node does not have any credentials set for "${name}"`);
			return { apiKey: 'k' };
		},
	} as unknown as IHookFunctions;
	return { context, asked };
}

const { checkExists, create, delete: remove } = callbackLifecycle.default;

describe('Task Callback Trigger activation', () => {
	it('registers nothing remotely: never exists, deleting always succeeds', async () => {
		const { context } = hookContext({ secret: 's' }, 'present');
		await expect(checkExists.call(context)).resolves.toBe(false);
		await expect(remove.call(context)).resolves.toBe(true);
	});

	it('activates with a usable secret, checking the credential only when confirming', async () => {
		const plain = hookContext({ secret: ' abc-DEF_9 ' }, 'missing');
		await expect(create.call(plain.context)).resolves.toBe(true);
		expect(plain.asked).toEqual([]);
		const confirming = hookContext({ secret: 'abc', confirmWithGateway: true }, 'present');
		await expect(create.call(confirming.context)).resolves.toBe(true);
		expect(confirming.asked).toEqual(['modelGatewayApi']);
	});

	it.each([
		['', '"Secret" is empty: every callback would be refused'],
		['a/b', '"Secret" may only hold letters, digits, "-" and "_"'],
	])('refuses the secret %p', async (secret, message) => {
		const { context } = hookContext({ secret }, 'present');
		await expect(create.call(context)).rejects.toThrow(message);
	});

	it('refuses Confirm with the Gateway without its credential', async () => {
		const { context } = hookContext({ secret: 'abc', confirmWithGateway: true }, 'missing');
		await expect(create.call(context)).rejects.toThrow(
			'Select a Model Gateway credential: Confirm with the Gateway queries the gateway with it',
		);
	});

	it('a secret made from the credential needs the credential, and no typed secret', async () => {
		const made = hookContext({ secretLocation: 'credential', secret: '' }, 'present');
		await expect(create.call(made.context)).resolves.toBe(true);
		expect(made.asked).toEqual(['modelGatewayApi']);
		const without = hookContext({ secretLocation: 'credential' }, 'missing');
		await expect(create.call(without.context)).rejects.toThrow(
			'Select a Model Gateway credential: the secret is made from it',
		);
	});
});

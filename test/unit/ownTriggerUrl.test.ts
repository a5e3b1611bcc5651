import { notOwnTriggerReason } from '../../nodes/shared/callbacks/ownTriggerUrl';

/** Which Callback URLs count as a Task Callback Trigger of this n8n (Add Callback Secret). */

const ID = '8f6c1a52-3b0e-4c8e-9d7a-5e2f1c0b7a10';

describe('a Task Callback Trigger of this n8n', () => {
	it.each([
		['http://localhost:5678/', `http://localhost:5678/webhook/${ID}/callback`],
		['http://localhost:5678/', `http://LOCALHOST:5678/webhook-test/${ID}/callback?row=3`],
		['https://n8n.example/', `https://n8n.example:443/webhook/${ID}/callback`],
		['https://example.org/n8n/', `https://example.org/n8n/webhook/${ID}/callback`],
		['https://example.org/n8n', `https://example.org/n8n/webhook/${ID}/callback`],
	])('with the webhook address %s: %s', (base, url) => {
		expect(notOwnTriggerReason(url, base)).toBeUndefined();
	});

	it.each([
		[
			`https://elsewhere.example/webhook/${ID}/callback`,
			/^it points at https:\/\/elsewhere\.example, not at this n8n \(https:\/\/n8n\.example\)$/,
		],
		[`http://n8n.example/webhook/${ID}/callback`, /^it points at http:\/\/n8n\.example/],
		[
			`https://n8n.example:8443/webhook/${ID}/callback`,
			/^it points at https:\/\/n8n\.example:8443/,
		],
		[`https://n8n.example/webhook/${ID}/steal`, /^its path is not a Task Callback Trigger's/],
		[`https://n8n.example/${ID}/callback`, /^its path is not a Task Callback Trigger's/],
		['https://n8n.example/webhook/row-7/callback', /^its path is not a Task Callback Trigger's/],
		['ftp://n8n.example/x', /^it is not an http or https URL$/],
		['not a url', /^it is not an http or https URL$/],
	])('not %s', (url, reason) => {
		expect(notOwnTriggerReason(url, 'https://n8n.example/')).toMatch(reason);
	});

	it('not under another path of the same host', () => {
		expect(
			notOwnTriggerReason(
				`https://example.org/other/webhook/${ID}/callback`,
				'https://example.org/n8n/',
			),
		).toMatch(/^its path is not a Task Callback Trigger's/);
	});
});

import { readCallbackBody } from '../../nodes/ModelGatewayTaskTrigger/body';
import { checkSecret, lastPathSegment } from '../../nodes/ModelGatewayTaskTrigger/secret';

/** The Task Callback Trigger's first checks of a request: its secret and its body. */

describe('checkSecret', () => {
	it.each([
		['path', { pathSecret: 's3cret' }, { ok: true }],
		['query', { querySecret: 's3cret' }, { ok: true }],
		['query', { querySecret: ['s3cret', 'other'] }, { ok: true }],
		['query', { querySecret: 42, headerSecret: 's3cret' }, { ok: true }],
		[
			'query',
			{ headerSecret: ['nope'] },
			{ ok: false, statusCode: 403, reason: 'The callback secret is wrong' },
		],
		[
			'query',
			{ querySecret: [1] },
			{ ok: false, statusCode: 401, reason: 'The callback secret is missing' },
		],
		[
			'path',
			{ pathSecret: '' },
			{ ok: false, statusCode: 401, reason: 'The callback secret is missing' },
		],
		['credential', { querySecret: 's3cret' }, { ok: true }],
		[
			'credential',
			{ pathSecret: 's3cret' },
			{ ok: false, statusCode: 401, reason: 'The callback secret is missing' },
		],
	] as const)('%s mode, %j', async (location, request, expected) => {
		expect(await checkSecret(location, () => 's3cret', request)).toEqual(expected);
	});

	it('refuses everything when the trigger has no secret', async () => {
		expect(await checkSecret('path', () => ' ', { pathSecret: 'x' })).toEqual({
			ok: false,
			statusCode: 403,
			reason: 'The trigger has no secret configured',
		});
	});

	it('asks for the expected secret only when one was presented (a credential read in credential mode)', async () => {
		const expected = jest.fn(async () => 's3cret');
		expect(await checkSecret('credential', expected, {})).toMatchObject({ statusCode: 401 });
		expect(expected).not.toHaveBeenCalled();
		expect(await checkSecret('credential', expected, { headerSecret: 'no' })).toMatchObject({
			statusCode: 403,
		});
		expect(expected).toHaveBeenCalledTimes(1);
	});

	it.each([
		[undefined, undefined],
		['/webhook/abc/s3cret?x=1', 's3cret'],
		['/webhook/abc/s3cret//', 's3cret'],
		['/webhook/a%20b', 'a b'],
		['/webhook/%E0%A4%A', '%E0%A4%A'],
	])('lastPathSegment(%p)', (url, expected) => {
		expect(lastPathSegment(url)).toBe(expected);
	});
});

describe('readCallbackBody', () => {
	const json = 'application/problem+json; charset=utf-8';

	it('takes what n8n parsed, or parses the raw bytes when n8n did not', async () => {
		await expect(
			readCallbackBody({ parsedBody: { a: 1 }, contentType: 'application/json' }, 1),
		).resolves.toEqual({ ok: true, body: { a: 1 }, size: 0 });
		const raw = Buffer.from('{"b":2}');
		await expect(
			readCallbackBody({ parsedBody: {}, rawBody: raw, contentType: json }, 1),
		).resolves.toEqual({ ok: true, body: { b: 2 }, size: 7 });
		await expect(readCallbackBody({ parsedBody: '{"c":3}' }, 1)).resolves.toMatchObject({
			ok: true,
			body: { c: 3 },
		});
	});

	/** A request body n8n left unread, in the given pieces; counts the pieces taken. */
	function unreadBody(pieces: string[]) {
		const taken = { count: 0 };
		async function* body(): AsyncGenerator<Buffer> {
			for (const piece of pieces) {
				taken.count++;
				yield Buffer.from(piece);
			}
		}
		return { unread: body(), taken };
	}

	it('reads a body n8n left unread (version 2) from the request', async () => {
		const { unread, taken } = unreadBody(['{"d":', '4}']);
		await expect(readCallbackBody({ parsedBody: undefined, unread }, 1)).resolves.toEqual({
			ok: true,
			body: { d: 4 },
			size: 7,
		});
		expect(taken.count).toBe(2);
	});

	it('stops reading an unread body once it passes the limit (413), undeclared length too', async () => {
		const { unread, taken } = unreadBody(['x'.repeat(800), 'x'.repeat(800), 'never read']);
		await expect(readCallbackBody({ parsedBody: undefined, unread }, 1)).resolves.toEqual({
			ok: false,
			statusCode: 413,
			reason:
				'The callback body has more than the 1024 bytes this trigger accepts (option Max Body Size)',
		});
		expect(taken.count).toBe(2);
	});

	it('does not read a body of another content type', async () => {
		const { unread, taken } = unreadBody(['id=1']);
		await expect(
			readCallbackBody({ parsedBody: undefined, unread, contentType: 'text/xml' }, 1),
		).resolves.toMatchObject({ ok: false, statusCode: 415 });
		expect(taken.count).toBe(0);
	});

	it.each([
		[
			{ parsedBody: {}, contentType: 'text/xml' },
			415,
			'The callback body is text/xml; this trigger accepts JSON (application/json)',
		],
		[
			{ parsedBody: {}, contentLength: '5000' },
			413,
			'The callback body has 5000 bytes, more than the 1024 bytes this trigger accepts (option Max Body Size)',
		],
		[{ parsedBody: {} }, 400, 'The callback body is empty: a JSON object was expected'],
		[{ parsedBody: 'not json' }, 400, 'The callback body is not valid JSON'],
		[{ parsedBody: '[1]' }, 400, 'The callback body is not a JSON object'],
	])('refuses %j with %i', async (request, statusCode, reason) => {
		await expect(readCallbackBody(request, 0)).resolves.toEqual({ ok: false, statusCode, reason });
	});
});

import type { IExecuteFunctions } from 'n8n-workflow';

import {
	codeMemberFailure,
	gatewayRequest,
	joinUrl,
	retryAfterMs,
} from '../../nodes/shared/gateway/transport';
import {
	createRedactor,
	gatewayErrorMessage,
	htmlText,
	httpStatusTitle,
	isHtml,
	shortenSignedUrls,
} from '../../nodes/shared/gateway/gatewayError';
import { testNode } from './testNode';

describe('transport helpers', () => {
	it('reads Retry-After as seconds, HTTP date, or retry-after-ms', () => {
		const now = Date.parse('2026-11-22T10:00:00Z');
		expect(retryAfterMs({ 'retry-after': '3' }, now)).toBe(3000);
		expect(retryAfterMs({ 'retry-after': 'Sun, 22 Nov 2026 10:00:05 GMT' }, now)).toBe(5000);
		expect(retryAfterMs({ 'retry-after': 'Sun, 22 Nov 2026 09:00:00 GMT' }, now)).toBe(0);
		expect(retryAfterMs({ 'retry-after-ms': '250', 'retry-after': '9' }, now)).toBe(250);
		expect(retryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
		expect(retryAfterMs({}, now)).toBeUndefined();
	});

	it('finds the gateway message in every envelope', () => {
		expect(gatewayErrorMessage({ error: { message: 'openai style', type: 'x' } })).toBe(
			'openai style',
		);
		expect(gatewayErrorMessage({ code: 1201, message: 'family A style' })).toBe('family A style');
		expect(gatewayErrorMessage({ code: 'InvalidParameter', message: 'family S style' })).toBe(
			'family S style',
		);
		expect(gatewayErrorMessage({ code: 500, error_message: 'asset review style' })).toBe(
			'asset review style',
		);
		expect(gatewayErrorMessage('plain text')).toBe('plain text');
		expect(gatewayErrorMessage({})).toBeUndefined();
	});

	it('recognises business failures inside HTTP 200 by a code member', () => {
		const check = codeMemberFailure((code) => [200, 202].includes(Number(code)), 'Review code');
		expect(check({ code: 202 })).toBeUndefined();
		expect(check({ images: [] })).toBeUndefined();
		expect(check([{ code: 400 }])).toBeUndefined();
		expect(check({ code: 400, message: 'bad url' })).toEqual({ code: '400', message: 'bad url' });
		expect(check({ code: 500 })).toEqual({ code: '500', message: 'Review code 500' });
	});

	it('removes secrets and bearer tokens from text', () => {
		const redactor = createRedactor(['sk-12345']);
		expect(redactor.text('key sk-12345 leaked')).toBe('key *** leaked');
		expect(redactor.text('Authorization: Bearer abc.def')).toBe('Authorization: Bearer ***');
	});

	it('redacts values, not serialized text: the structure survives', () => {
		const key = 'sk-"quoted\\key';
		const redactor = createRedactor([key]);
		const body = {
			error: { message: `bad key ${key}`, nested: [{ header: `Bearer ${key}` }], n: 3 },
			[key]: null,
		};
		expect(redactor.value(body)).toEqual({
			error: { message: 'bad key ***', nested: [{ header: 'Bearer ***' }], n: 3 },
			'***': null,
		});
		expect(body.error.message).toBe(`bad key ${key}`);
	});

	it('reads HTML error pages and signed URLs as people would', () => {
		const page =
			'<!DOCTYPE html>\n<html><head><title>502</title><style>p{}</style></head><body><h1>Bad Gateway</h1><p>nginx &amp; co</p></body></html>';
		expect(isHtml(page)).toBe(true);
		expect(isHtml('{"error":"x"}')).toBe(false);
		expect(htmlText(page)).toBe('502 Bad Gateway nginx & co');
		expect(httpStatusTitle(502)).toBe('The gateway answered HTTP 502 Bad Gateway');
		expect(httpStatusTitle(599)).toBe('The gateway answered HTTP 599');
		expect(
			shortenSignedUrls(
				'cannot fetch https://cdn.example.com/a/b.png?X-Amz-Signature=abc&X-Amz-Expires=900 (expired)',
			),
		).toBe('cannot fetch https://cdn.example.com/a/b.png?… (expired)');
	});

	it('joins URLs whatever the slashes', () => {
		expect(joinUrl('http://h:1/', '/v1/x')).toBe('http://h:1/v1/x');
		expect(joinUrl('http://h:1//', 'v1/x')).toBe('http://h:1/v1/x');
	});

	it('stops waiting out a 429 promptly when the execution is cancelled', async () => {
		const controller = new AbortController();
		let calls = 0;
		const node = testNode('Probe');
		const context = {
			getCredentials: async () => ({ baseUrl: 'http://gateway.invalid', apiKey: 'sk-test-1' }),
			getExecutionCancelSignal: () => controller.signal,
			getNodeParameter: (_name: string, _item: number, fallback: unknown) => fallback,
			getNode: () => node,
			helpers: {
				httpRequest: async (options: { headers: Record<string, string> }) => {
					calls++;
					expect(options.headers.Authorization).toBe('Bearer sk-test-1');
					return {
						statusCode: 429,
						headers: { 'retry-after': '30' },
						body: { error: { message: 'slow down' } },
					};
				},
			},
		};
		setTimeout(() => controller.abort(), 150);
		const started = Date.now();
		await expect(
			gatewayRequest(context as unknown as IExecuteFunctions, {
				method: 'POST',
				path: '/v1/videos',
				kind: 'create',
				itemIndex: 0,
				businessFailure: () => undefined, // any answer: the test is about the transport
			}),
		).rejects.toMatchObject({ message: 'The execution was cancelled' });
		// Well inside the 30-s wait it would otherwise sit out; not a timing figure (under a busy
		// machine's load the abort lands after 1–2 s rather than 150 ms).
		expect(Date.now() - started).toBeLessThan(10_000);
		expect(calls).toBe(1);
	});
});

import {
	codeMemberFailure,
	gatewayErrorMessage,
	joinUrl,
	redactSecret,
	retryAfterMs,
} from '../../nodes/shared/transport';

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

	it('removes secrets and bearer tokens', () => {
		expect(redactSecret('key sk-12345 leaked', 'sk-12345')).toBe('key *** leaked');
		expect(redactSecret('Authorization: Bearer abc.def', 'zzzz')).toBe('Authorization: Bearer ***');
	});

	it('joins URLs whatever the slashes', () => {
		expect(joinUrl('http://h:1/', '/v1/x')).toBe('http://h:1/v1/x');
		expect(joinUrl('http://h:1//', 'v1/x')).toBe('http://h:1/v1/x');
	});
});

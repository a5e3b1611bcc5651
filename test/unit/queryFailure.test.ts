import {
	createRedactor,
	displayedBaseUrl,
	gatewayApiError,
	httpAnswer,
	isGatewayEnvelope,
	type HttpAnswer,
} from '../../nodes/shared/gateway/gatewayError';
import {
	classifyQueryFailure,
	SetupFaultWatch,
	setupFaultError,
	uncheckedReason,
} from '../../nodes/shared/tasks/queryFailure';
import { failureBackoffMs, MAX_FAILURE_BACKOFF_MS } from '../../nodes/shared/polling/timing';
import { testNode } from './testNode';

const node = testNode('Wait for Task');

const BASE = 'https://gw.example/';
const errorOf = (statusCode: number, contentType: string, body: unknown) =>
	gatewayApiError(
		node,
		{
			message: 'm',
			httpCode: String(statusCode),
			answer: httpAnswer(statusCode, contentType, body, BASE),
		},
		createRedactor([]),
	);

describe("the gateway's own word (issue 54)", () => {
	it('is an error envelope of the shapes the upstream notes list, and nothing else', () => {
		expect(isGatewayEnvelope({ error: { message: 'Video x not found.', type: 'x' } })).toBe(true);
		expect(isGatewayEnvelope({ error: 'bad' })).toBe(true);
		expect(isGatewayEnvelope({ code: 'NotFound', message: 'The task is not found.' })).toBe(true);
		expect(isGatewayEnvelope({ code: 1201, message: 'task not found' })).toBe(true);
		expect(isGatewayEnvelope({ error_message: 'asset review' })).toBe(true);
		for (const foreign of [
			'<html><body>404</body></html>',
			'',
			'404 page not found',
			[],
			{ detail: 'Not Found' },
			{ status: 404 },
			{ error: { code: 5 } },
			null,
		]) {
			expect(isGatewayEnvelope(foreign)).toBe(false);
		}
	});

	it("keeps what answered in the error's context, with a Base URL safe to show", () => {
		const answer = httpAnswer(404, 'text/html; charset=utf-8', '<html>x</html>', BASE);
		expect(answer).toEqual({
			statusCode: 404,
			contentType: 'text/html',
			body: 'html',
			fromGateway: false,
			baseUrl: BASE,
		});
		expect(httpAnswer(502, undefined, '', BASE)).toMatchObject({ body: 'empty', contentType: '' });
		expect(displayedBaseUrl('https://user:sk-secret@gw.example/v1/?key=sk-secret#x')).toBe(
			'https://gw.example/v1/',
		);
		expect(displayedBaseUrl('not a url')).toBe('(not a valid URL)');
	});

	it('classifies a failed query: only a 4xx in the envelope is the task’s own failure', () => {
		expect(
			classifyQueryFailure(errorOf(404, 'application/json', { error: { message: 'x' } })),
		).toEqual({ kind: 'refused' });
		expect(classifyQueryFailure(errorOf(404, 'text/html', '<html>x</html>')).kind).toBe(
			'notFromGateway',
		);
		expect(classifyQueryFailure(errorOf(404, 'application/json', { detail: 'x' })).kind).toBe(
			'notFromGateway',
		);
		expect(classifyQueryFailure(errorOf(502, '', '')).kind).toBe('notFromGateway');
		expect(
			classifyQueryFailure(errorOf(503, 'application/json', { error: { message: 'x' } })),
		).toEqual({ kind: 'transient' });
		// A refused key stays a set-up error whatever answered; a 429 pauses the batch.
		expect(classifyQueryFailure(errorOf(401, 'text/html', '<html>x</html>'))).toEqual({
			kind: 'setup',
			httpCode: '401',
		});
		expect(classifyQueryFailure(errorOf(429, 'text/html', '<html>x</html>'))).toEqual({
			kind: 'rateLimited',
		});
		expect(classifyQueryFailure(new Error('dropped'))).toEqual({ kind: 'transient' });
	});

	it("says why a task was not checked: what answered, or the failure's message", () => {
		const error = errorOf(404, 'text/html', '<html>x</html>');
		expect(uncheckedReason(error, classifyQueryFailure(error))).toBe(
			"Not the gateway's answer (HTTP 404, text/html, an HTML page), from https://gw.example/",
		);
		expect(uncheckedReason(new Error('dropped'), { kind: 'transient' })).toBe('dropped');
		// A refused key says that it was the credential, beside the gateway's words.
		const refused = errorOf(403, 'application/json', { error: { message: 'Key revoked' } });
		expect(uncheckedReason(refused, classifyQueryFailure(refused))).toBe(
			'The credential was refused (HTTP 403): m',
		);
	});
});

describe('the set-up fault watch of one run', () => {
	const page: HttpAnswer = httpAnswer(404, 'text/html', '<html>x</html>', BASE);
	const empty: HttpAnswer = httpAnswer(502, '', '', BASE);

	it('needs three refusals alike (or one per task when fewer), and no other outcome', () => {
		const watch = new SetupFaultWatch(10, false);
		expect(watch.refused(page)).toBeUndefined();
		expect(watch.refused(page)).toBeUndefined();
		expect(watch.refused(page)).toEqual(page);
		expect(new SetupFaultWatch(1, false).refused(page)).toEqual(page);

		const answered = new SetupFaultWatch(3, false);
		answered.otherOutcome();
		for (let query = 0; query < 5; query++) expect(answered.refused(page)).toBeUndefined();
	});

	it('ends at an unlike refusal, or when the gateway answered this wait before', () => {
		const unlike = new SetupFaultWatch(3, false);
		unlike.refused(page);
		unlike.refused(empty);
		expect(unlike.refused(page)).toBeUndefined();
		const before = new SetupFaultWatch(3, true);
		for (let query = 0; query < 3; query++) expect(before.refused(page)).toBeUndefined();
	});

	it('makes an error that names the Base URL and what answered', () => {
		const error = setupFaultError(node, page, 3);
		expect(error.message).toBe(
			'Every status query was refused at https://gw.example/ by something that is not the gateway (HTTP 404, text/html, an HTML page)',
		);
		expect(error.description).toContain('No task was marked failed');
	});
});

describe('back-off after failed checks in a row', () => {
	it('doubles from the interval, up to five minutes', () => {
		expect([1, 2, 3, 4, 5, 9].map((failures) => failureBackoffMs(10_000, failures))).toEqual([
			20_000, 40_000, 80_000, 160_000, 300_000, 300_000,
		]);
		expect(failureBackoffMs(10_000, 40)).toBe(MAX_FAILURE_BACKOFF_MS);
	});
});

import type { Violation } from '../simulator';
import { violationProblem } from '../engine/simulatorFixture';

/** The engine fixture's verdict on a test's violations (it throws this text in afterEach). */

const violation = (rule: Violation['rule']): Violation => ({
	rule,
	at: 0,
	message: `${rule} happened`,
});

describe('the simulator fixture', () => {
	it('fails a test on a violation it did not declare', () => {
		expect(violationProblem([violation('invalid-body')], new Set())).toBe(
			'The gateway simulator recorded 1 spec violation(s) this test did not declare:\n- invalid-body: invalid-body happened',
		);
	});

	it('fails a test on another kind than the declared one', () => {
		expect(
			violationProblem(
				[violation('unknown-id'), violation('wrong-credential')],
				new Set(['unknown-id'] as const),
			),
		).toBe(
			'The gateway simulator recorded 1 spec violation(s) this test did not declare:\n- wrong-credential: wrong-credential happened',
		);
	});

	it('fails a test that declared a kind it never provoked', () => {
		expect(violationProblem([], new Set(['unknown-route'] as const))).toBe(
			'The test declared violation kind(s) unknown-route, but the simulator recorded none: the test did not provoke what it meant to.',
		);
	});

	it('passes a test whose violations are all declared, or that has none', () => {
		expect(
			violationProblem(
				[violation('invalid-body'), violation('invalid-body')],
				new Set(['invalid-body'] as const),
			),
		).toBeUndefined();
		expect(violationProblem([], new Set())).toBeUndefined();
	});
});

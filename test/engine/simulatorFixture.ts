import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { Simulator, SimulatorOptions, Violation, ViolationRule } from '../simulator';
import { DEFAULT_OPTIONS, startSimulator } from '../simulator';

/**
 * Starts one simulator for a test file and resets it between tests. `credentials()` gives
 * the credential data the engine harness needs to reach it. A test during which the client
 * broke a rule of the spec (the simulator's `violations`: a refused body, a missing or wrong
 * credential, an unknown id or route, a create repeated after an ambiguous failure, Task
 * family S polling, Authorization on the identity host) fails, unless it declared that kind
 * with `expectViolations(kind, ...)` because it provokes it on purpose. A declared kind must
 * then be recorded, and any other kind still fails the test.
 * After each test the simulator is reset and its options are back to the ones given here.
 */
export function useSimulator(options: SimulatorOptions = { queuedMs: 30, runningMs: 60 }) {
	let simulator: Simulator | undefined;
	let expected = new Set<ViolationRule>();
	beforeAll(async () => {
		simulator = await startSimulator(options);
	});
	afterEach(() => {
		const violations = simulator?.violations.slice() ?? [];
		const declared = expected;
		expected = new Set();
		simulator?.reset();
		// Options a test changed (task timing, rate limits, task age) do not leak into the next.
		simulator?.setOptions({
			...DEFAULT_OPTIONS,
			...options,
			port: undefined,
			identityPort: undefined,
		});
		const problem = violationProblem(violations, declared);
		if (problem !== undefined) throw new Error(problem);
	});
	afterAll(async () => {
		await simulator?.close();
	});
	const get = (): Simulator => {
		if (!simulator) throw new Error('The simulator is not running');
		return simulator;
	};
	return {
		get simulator() {
			return get();
		},
		/**
		 * For a test that provokes these kinds of violation on purpose: each must be recorded
		 * during the test, and any other kind still fails it.
		 */
		expectViolations(...rules: [ViolationRule, ...ViolationRule[]]): void {
			for (const rule of rules) expected.add(rule);
		},
		credentials(
			overrides: { apiKey?: string; accessToken?: string } = {},
		): Record<string, ICredentialDataDecryptedObject> {
			const sim = get();
			return {
				modelGatewayApi: { baseUrl: `${sim.baseUrl}/`, apiKey: overrides.apiKey ?? sim.apiKey },
				modelGatewayAssetReviewApi: {
					identityUrl: sim.identityUrl,
					accessToken: overrides.accessToken ?? sim.accessToken,
				},
			};
		},
	};
}

/** Why a test's violations fail it: an undeclared kind, or a declared kind never recorded. */
export function violationProblem(
	violations: readonly Violation[],
	declared: ReadonlySet<ViolationRule>,
): string | undefined {
	const undeclared = violations.filter((violation) => !declared.has(violation.rule));
	if (undeclared.length > 0) {
		return [
			`The gateway simulator recorded ${undeclared.length} spec violation(s) this test did not declare:`,
			...undeclared.map((violation) => `- ${violation.rule}: ${violation.message}`),
		].join('\n');
	}
	const missing = [...declared].filter(
		(rule) => !violations.some((violation) => violation.rule === rule),
	);
	if (missing.length > 0) {
		return `The test declared violation kind(s) ${missing.join(', ')}, but the simulator recorded none: the test did not provoke what it meant to.`;
	}
	return undefined;
}

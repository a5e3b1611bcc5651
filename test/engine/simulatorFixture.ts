import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { Simulator, SimulatorOptions, Violation } from '../simulator';
import { DEFAULT_OPTIONS, startSimulator } from '../simulator';

/**
 * Starts one simulator for a test file and resets it between tests. `credentials()` gives
 * the credential data the engine harness needs to reach it. A test during which a spec rule
 * was broken (the simulator's `violations`: Task family S polling, Authorization on the
 * identity host) fails, unless it called `allowViolations()` because it proves the rule.
 * After each test the simulator is reset and its options are back to the ones given here.
 */
export function useSimulator(options: SimulatorOptions = { queuedMs: 30, runningMs: 60 }) {
	let simulator: Simulator | undefined;
	let violationsAllowed = false;
	beforeAll(async () => {
		simulator = await startSimulator(options);
	});
	afterEach(() => {
		const violations = simulator?.violations.slice() ?? [];
		const allowed = violationsAllowed;
		violationsAllowed = false;
		simulator?.reset();
		// Options a test changed (task timing, rate limits, task age) do not leak into the next.
		simulator?.setOptions({
			...DEFAULT_OPTIONS,
			...options,
			port: undefined,
			identityPort: undefined,
		});
		if (violations.length > 0 && !allowed) throw new Error(describeViolations(violations));
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
		/** For the test that proves a rule: its violations do not fail it. */
		allowViolations(): void {
			violationsAllowed = true;
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

function describeViolations(violations: Violation[]): string {
	return [
		`The gateway simulator recorded ${violations.length} spec violation(s) during this test:`,
		...violations.map((violation) => `- ${violation.rule}: ${violation.message}`),
	].join('\n');
}

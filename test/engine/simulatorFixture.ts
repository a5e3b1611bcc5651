import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import type { Simulator, SimulatorOptions } from '../simulator';
import { startSimulator } from '../simulator';

/**
 * Starts one simulator for a test file and resets it between tests. `credentials()` gives
 * the credential data the engine harness needs to reach it.
 */
export function useSimulator(options: SimulatorOptions = { queuedMs: 30, runningMs: 60 }) {
	let simulator: Simulator | undefined;
	beforeAll(async () => {
		simulator = await startSimulator(options);
	});
	afterEach(() => simulator?.reset());
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

/**
 * The "try it" command (scripts/try-it.sh runs this compiled, from .build/test/e2e/try-it.js):
 * starts the gateway simulator and a real n8n (2.x, the current line; TRY_IT_N8N_LINE=1 for 1.x)
 * with this package installed as a community package, the simulator credentials, every example
 * workflow that works on that line imported (EXAMPLE_LINES in examples.ts) and an owner account;
 * prints the editor URL and login, and stops both on Ctrl-C / SIGTERM. What it sets up is
 * startTryIt's (tryItSetup.ts), which the browser check's Try-it walk runs too.
 *
 * Ports (127.0.0.1 only): TRY_IT_N8N_PORT (5678), SIM_PORT (5680), SIM_IDENTITY_PORT (5681).
 * Task durations of the simulator: SIM_QUEUED_MS (1000), SIM_RUNNING_MS (3000).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Simulator } from '../simulator';
import { N8N_OWNER, N8N_VERSIONS, packPackage, type N8nInstance, type N8nLine } from './harness';
import { TRY_IT_QUEUED_MS, TRY_IT_RUNNING_MS, startTryIt } from './tryItSetup';

function numberFromEnv(name: string, fallback: number): number {
	const raw = process.env[name];
	if (raw === undefined || raw === '') return fallback;
	const value = Number(raw);
	if (!Number.isInteger(value) || value < 0)
		throw new Error(`${name} must be a whole number, got "${raw}"`);
	return value;
}

/** Fails early with a clear message instead of n8n's or the simulator's EADDRINUSE. */
async function assertPortFree(port: number, what: string): Promise<void> {
	const server = createServer();
	await new Promise<void>((resolveListen, reject) => {
		server.once('error', () =>
			reject(
				new Error(
					`port ${port} (${what}) is in use: stop what runs there or choose another port (see scripts/try-it.sh)`,
				),
			),
		);
		server.listen(port, '127.0.0.1', resolveListen);
	});
	await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
}

async function main(): Promise<void> {
	// 2.x is the current line; 1.x on request (scripts/try-it.sh sets it, with the same default).
	const line = numberFromEnv('TRY_IT_N8N_LINE', 2) as N8nLine;
	if (!(line in N8N_VERSIONS)) throw new Error(`TRY_IT_N8N_LINE must be 1 or 2`);
	const n8nPort = numberFromEnv('TRY_IT_N8N_PORT', 5678);
	const simPort = numberFromEnv('SIM_PORT', 5680);
	const identityPort = numberFromEnv('SIM_IDENTITY_PORT', 5681);
	await assertPortFree(n8nPort, 'n8n');
	await assertPortFree(simPort, 'simulator');
	await assertPortFree(identityPort, 'simulator identity host');

	const started: { sim?: Simulator; n8n?: N8nInstance } = {};
	const packDir = mkdtempSync(join(tmpdir(), 'mg-try-it-pack-'));
	let stopping: Promise<void> | undefined;
	const stop = (): Promise<void> =>
		(stopping ??= (async () => {
			process.stdout.write('\nStopping n8n and the simulator...\n');
			await started.n8n?.stop();
			await started.sim?.close();
			rmSync(packDir, { recursive: true, force: true });
		})());
	process.once('SIGINT', () => void stop().then(() => process.exit(0)));
	process.once('SIGTERM', () => void stop().then(() => process.exit(0)));

	let n8n: N8nInstance;
	let videoFolder: string;
	try {
		const { tarball } = await packPackage(packDir);
		({ n8n, videoFolder } = await startTryIt({
			line,
			tarball,
			n8nPort,
			simPort,
			identityPort,
			queuedMs: numberFromEnv('SIM_QUEUED_MS', TRY_IT_QUEUED_MS),
			runningMs: numberFromEnv('SIM_RUNNING_MS', TRY_IT_RUNNING_MS),
			rateLimitEvery: numberFromEnv('SIM_RATE_LIMIT_EVERY', 0),
			rateLimitPerSecond: numberFromEnv('SIM_RATE_LIMIT_PER_SECOND', 0),
			log: (text) => process.stdout.write(`${text}\n`),
			started,
		}));
	} catch (error) {
		await stop();
		throw error;
	}

	process.stdout.write(
		[
			'',
			'  n8n is ready with the Model Gateway nodes:',
			`    Editor:    ${n8n.baseUrl}/home/workflows`,
			`    Email:     ${N8N_OWNER.email}`,
			`    Password:  ${N8N_OWNER.password}`,
			'',
			'  The "Model Gateway (simulator)" credentials point at the local simulator; open a',
			'  "Model Gateway: ..." workflow and click "Execute workflow". The workflow that reacts',
			'  to video callbacks is active: run "create a batch of videos that call back" and watch',
			'  its executions.',
			'  The Data Table example has its table ("video_batch", under Data tables) with 12 rows:',
			'  run it, then open the table to see every row written back.',
			'  The standing pipeline is published with its table ("video_pipeline", 12 rows): every',
			'  minute it takes the rows without a task; add rows there and watch them finish.',
			`  Videos of the batch examples ("... → videos on disk"): ${videoFolder}`,
			`  n8n's log: ${n8n.logFile}`,
			'  Everything is thrown away when you stop: press Ctrl-C.',
			'',
		].join('\n'),
	);
}

main().catch((error: unknown) => {
	process.stderr.write(`try-it: ${error instanceof Error ? error.message : String(error)}\n`);
	process.exit(1);
});

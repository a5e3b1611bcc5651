/**
 * Benchmark (not a test): `npm run bench:memory`.
 *
 * Peak memory of Get Status (long-running family) answering with one video inline as base64
 * (BENCH_VIDEO_MB, 100 MB by default), through n8n's real engine in-process: the peak RSS
 * growth during the node's run ÷ the video size, in n8n's default (memory) binary mode and in
 * its filesystem mode. Each mode runs in a fresh process (binary storage is set up once per
 * process), so the figures do not mix.
 */
import { execFileSync } from 'child_process';
import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';

import { startInlineVideoGateway } from '../test/engine/inlineVideoGateway';

const VIDEO_MB = Number(process.env.BENCH_VIDEO_MB ?? 100);
const MODES = ['default', 'filesystem'] as const;
type Mode = (typeof MODES)[number];

/** JavaScript heap and buffers in use. */
function held(): number {
	const usage = process.memoryUsage();
	return usage.heapUsed + usage.external;
}

async function measureMode(mode: Mode): Promise<void> {
	const folder = mkdtempSync(join(tmpdir(), 'mg-bench-memory-'));
	process.env.N8N_USER_FOLDER = folder;
	process.env.N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS = 'false';
	process.env.N8N_DEFAULT_BINARY_DATA_MODE = mode;
	process.env.N8N_BINARY_DATA_STORAGE_PATH = join(folder, 'binaryData');
	const { runNode } = await import('../test/engine/harness');
	// n8n-core's own copy of the DI container (it may be nested under n8n-core).
	const nodeCore = require.resolve('n8n-core');
	const { Container } = require(require.resolve('@n8n/di', { paths: [nodeCore] })) as {
		Container: { get<T>(type: new (...args: never[]) => T): T };
	};
	const { BinaryDataService } = await import('n8n-core');
	await Container.get(BinaryDataService).init();

	const gateway = await startInlineVideoGateway();
	const credentials = { modelGatewayApi: { baseUrl: gateway.baseUrl, apiKey: gateway.apiKey } };
	const getStatus = {
		type: 'modelGatewayVideo',
		parameters: {
			family: 'longRunning',
			operation: 'getStatus',
			taskSource: 'manual',
			taskId: 'models/veo-x/operations/op-1',
		},
	};
	// Warm up with a small video, so loading code does not count as growth.
	gateway.serve([{ bytes: 1024 }]);
	await runNode(getStatus, { credentials });
	global.gc?.();

	const videoBytes = VIDEO_MB * 1024 * 1024;
	gateway.serve([{ bytes: videoBytes }]);
	const heldBefore = held();
	const baseline = process.memoryUsage().rss;
	let peak = baseline;
	const sampler = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage().rss);
	}, 5);
	const started = Date.now();
	const result = await runNode(getStatus, { credentials });
	peak = Math.max(peak, process.memoryUsage().rss);
	clearInterval(sampler);
	const error = result.error('Node Under Test');
	if (error) throw new Error(error.message);
	const binary = result.items[0]?.binary?.data;
	// What is still held once the node is done, with its output alive (as n8n keeps it until
	// the execution ends): in default mode n8n's Base64 string (1.33× the video), nothing more.
	for (let round = 0; round < 3; round++) {
		global.gc?.();
		// Buffers' memory is released by a background thread after the collection.
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	const heldAfter = held() - heldBefore;
	console.log(
		`${mode === 'default' ? 'memory (default)' : 'filesystem'} binary mode: ${VIDEO_MB} MB inline video, peak RSS growth ${((peak - baseline) / 1024 / 1024).toFixed(0)} MB = ${((peak - baseline) / videoBytes).toFixed(2)}× the video, ${((Date.now() - started) / 1000).toFixed(1)} s (stored: ${binary?.fileSize ?? 'nothing'}${binary?.id ? ', on disk' : ''}); held after the node with its output: ${(heldAfter / videoBytes).toFixed(2)}× (Base64 string in the item: ${(((binary?.id ? 0 : binary?.data.length) ?? 0) / videoBytes).toFixed(2)}×)`,
	);
	await gateway.close();
	rmSync(folder, { recursive: true, force: true });
}

async function main(): Promise<void> {
	const mode = process.argv[2] as Mode | undefined;
	if (mode) {
		await measureMode(mode);
	} else {
		for (const each of MODES) {
			execFileSync(process.execPath, ['--expose-gc', __filename, each], { stdio: 'inherit' });
		}
	}
	// n8n-core keeps process-wide machinery alive after an in-process execution.
	process.exit(0);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});

/**
 * Runs the simulator standalone (the "try it" command, `npm run simulator`):
 *   node .build/test/simulator/cli.js --port 5680 --identity-port 5681
 * Every setting is a flag (`--name value` or `--name=value`) or an environment variable;
 * a flag wins over the variable. Stays up until SIGINT or SIGTERM.
 */
import { DEFAULT_OPTIONS, startSimulator, type SimulatorOptions } from './index';

type NumericSetting =
	| 'port'
	| 'identityPort'
	| 'queuedMs'
	| 'runningMs'
	| 'latencyMs'
	| 'taskAgeMs'
	| 'rateLimitEvery'
	| 'rateLimitPerSecond'
	| 'rateLimitRetryAfterMs'
	| 'resultVideoBytes';
type TextSetting = 'apiKey' | 'accessToken' | 'publicHost' | 'redirectTo';

interface Setting<Key> {
	key: Key;
	flag: string;
	env: string;
}

const NUMERIC_SETTINGS: Array<Setting<NumericSetting>> = [
	{ key: 'port', flag: '--port', env: 'SIM_PORT' },
	{ key: 'identityPort', flag: '--identity-port', env: 'SIM_IDENTITY_PORT' },
	{ key: 'queuedMs', flag: '--queued-ms', env: 'SIM_QUEUED_MS' },
	{ key: 'runningMs', flag: '--running-ms', env: 'SIM_RUNNING_MS' },
	{ key: 'latencyMs', flag: '--latency-ms', env: 'SIM_LATENCY_MS' },
	{ key: 'taskAgeMs', flag: '--task-age-ms', env: 'SIM_TASK_AGE_MS' },
	{ key: 'rateLimitEvery', flag: '--rate-limit-every', env: 'SIM_RATE_LIMIT_EVERY' },
	{ key: 'rateLimitPerSecond', flag: '--rate-limit-per-second', env: 'SIM_RATE_LIMIT_PER_SECOND' },
	{
		key: 'rateLimitRetryAfterMs',
		flag: '--rate-limit-retry-after-ms',
		env: 'SIM_RATE_LIMIT_RETRY_AFTER_MS',
	},
	{ key: 'resultVideoBytes', flag: '--result-video-bytes', env: 'SIM_RESULT_VIDEO_BYTES' },
];
const TEXT_SETTINGS: Array<Setting<TextSetting>> = [
	{ key: 'apiKey', flag: '--api-key', env: 'SIM_API_KEY' },
	{ key: 'accessToken', flag: '--access-token', env: 'SIM_ACCESS_TOKEN' },
	{ key: 'publicHost', flag: '--public-host', env: 'SIM_PUBLIC_HOST' },
	{ key: 'redirectTo', flag: '--redirect-to', env: 'SIM_REDIRECT_TO' },
];

/** Fixed ports by default, so a "try it" workflow can keep its credentials between runs. */
const CLI_DEFAULTS: SimulatorOptions = { port: 5680, identityPort: 5681 };

function usage(): string {
	const rows = [...NUMERIC_SETTINGS, ...TEXT_SETTINGS].map(
		({ key, flag, env }) =>
			`  ${`${flag} <value>`.padEnd(26)} ${env.padEnd(18)} default ${String(CLI_DEFAULTS[key] ?? DEFAULT_OPTIONS[key])}`,
	);
	return [
		'Usage: node .build/test/simulator/cli.js [options]',
		'',
		'  flag                       environment',
		...rows,
	].join('\n');
}

function parseArguments(argv: string[]): Map<string, string> {
	const values = new Map<string, string>();
	for (let index = 0; index < argv.length; index++) {
		const argument = argv[index];
		const [flag, inline] = argument.split(/=(.*)/s, 2);
		const known = [...NUMERIC_SETTINGS, ...TEXT_SETTINGS].some((setting) => setting.flag === flag);
		if (!known) throw new Error(`unknown argument: ${argument}`);
		const value = inline ?? argv[++index];
		if (value === undefined) throw new Error(`${flag} needs a value`);
		values.set(flag, value);
	}
	return values;
}

export function readSettings(argv: string[], env: NodeJS.ProcessEnv): SimulatorOptions {
	const flags = parseArguments(argv);
	const options: SimulatorOptions = { ...CLI_DEFAULTS };
	for (const { key, flag, env: name } of NUMERIC_SETTINGS) {
		const raw = flags.get(flag) ?? env[name];
		if (raw === undefined) continue;
		const value = Number(raw);
		if (!Number.isInteger(value) || value < 0)
			throw new Error(`${flag} / ${name} must be a non-negative integer, got '${raw}'`);
		options[key] = value;
	}
	for (const { key, flag, env: name } of TEXT_SETTINGS) {
		const raw = flags.get(flag) ?? env[name];
		if (raw !== undefined) options[key] = raw;
	}
	return options;
}

async function main(): Promise<void> {
	const argv = process.argv.slice(2);
	if (argv.includes('--help') || argv.includes('-h')) {
		console.log(usage());
		return;
	}
	let options: SimulatorOptions;
	try {
		options = readSettings(argv, process.env);
	} catch (error) {
		console.error(`${error instanceof Error ? error.message : String(error)}\n\n${usage()}`);
		process.exitCode = 2;
		return;
	}
	const simulator = await startSimulator(options);
	console.log(
		[
			'Model Gateway simulator is running.',
			`  Base URL:      ${simulator.baseUrl}`,
			`  Identity URL:  ${simulator.identityUrl}`,
			`  API key:       ${simulator.apiKey}`,
			`  Access token:  ${simulator.accessToken}`,
			`  Tasks: ${options.queuedMs ?? DEFAULT_OPTIONS.queuedMs} ms queued, then ${options.runningMs ?? DEFAULT_OPTIONS.runningMs} ms running.`,
			'Press Ctrl+C to stop.',
		].join('\n'),
	);
	const stop = (signal: string): void => {
		console.log(`\n${signal} received, stopping the simulator.`);
		simulator.close().then(
			() => process.exit(0),
			() => process.exit(1),
		);
	};
	process.once('SIGINT', () => stop('SIGINT'));
	process.once('SIGTERM', () => stop('SIGTERM'));
}

if (require.main === module) {
	main().catch((error: unknown) => {
		console.error(error);
		process.exit(1);
	});
}

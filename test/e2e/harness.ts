/**
 * Real-n8n end-to-end harness: installs packed community packages into a throw-away n8n user
 * folder, starts a real `n8n start` (installed by scripts/e2e/install-n8n.sh) on 127.0.0.1,
 * drives it over its REST and public APIs, and always stops it again.
 *
 * Typical use (one instance per n8n line, in beforeAll/afterAll):
 *   const n8n = await startN8n({ line: 1, packages: [tarball], workflows, credentials });
 *   const { execution } = await n8n.runManualWorkflow('manualcode');
 *   expect(nodeOutput(execution, 'Code')).toEqual([...]);
 *   await n8n.stop();
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
	closeSync,
	copyFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readFileSync,
	renameSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

import { reservePort } from './ports';

export { reservePort } from './ports';

const execFileAsync = promisify(execFile);

/**
 * The repository root, found from this file whether it runs as TypeScript (jest, test/e2e) or
 * compiled to .build/test/e2e (the "try it" command).
 */
export const REPO_ROOT = findRepoRoot(__dirname);
export const SUPERVISOR = join(REPO_ROOT, 'test', 'e2e', 'n8n-supervisor.js');

function findRepoRoot(from: string): string {
	for (let dir = from; dir !== dirname(dir); dir = dirname(dir)) {
		if (
			existsSync(join(dir, 'package.json')) &&
			existsSync(join(dir, 'test', 'e2e', 'n8n-supervisor.js'))
		)
			return dir;
	}
	throw new Error(`no repository root above ${from}`);
}

/** The n8n versions per line. Keep in sync with scripts/e2e/install-n8n.sh. */
export const N8N_VERSIONS = { 1: '1.123.81', 2: '2.41.1' } as const;
export type N8nLine = keyof typeof N8N_VERSIONS;
/** The lines to test: all, or those in MG_E2E_LINES (for example "2" or "1,2"). */
export const N8N_LINES: N8nLine[] = (process.env.MG_E2E_LINES ?? '1 2')
	.split(/[\s,]+/)
	.filter(Boolean)
	.map((value) => {
		if (value !== '1' && value !== '2')
			throw new Error(`MG_E2E_LINES: unknown n8n line "${value}"`);
		return Number(value) as N8nLine;
	});

const CACHE_DIR = process.env.MG_E2E_CACHE ?? join(homedir(), '.cache', 'n8n-nodes-model-gateway');

/** The owner account every started n8n gets (the "try it" command prints it as the login). */
export const N8N_OWNER = {
	email: 'owner@model-gateway.example',
	firstName: 'Model Gateway',
	lastName: 'Demo',
	password: 'Gateway-Demo-Passw0rd',
};

/**
 * The folder, under the home folder (which the harness sets to the user folder), where file
 * nodes may read and write: n8n 2.x's default `N8N_RESTRICT_FILE_ACCESS_TO` is `~/.n8n-files`.
 */
export const N8N_FILES_FOLDER = '.n8n-files';

const READY_TIMEOUT_MS = 120_000;
/** How long n8n may take to shut down after SIGTERM before it is killed. */
export const STOP_GRACE_MS = 20_000;

/** Workflow settings the public API accepts on update (both lines). */
const WRITABLE_SETTINGS = [
	'executionOrder',
	'saveDataSuccessExecution',
	'saveDataErrorExecution',
	'saveManualExecutions',
	'saveExecutionProgress',
];
const EXECUTION_TIMEOUT_MS = 60_000;
const POLL_INTERVAL_MS = 200;
const HTTP_TIMEOUT_MS = 30_000;
const CLI_TIMEOUT_MS = 120_000;
/** Migrating an empty database takes 2–5 s; a try that takes a minute has hung. */
const EMPTY_MIGRATION_TIMEOUT_MS = 60_000;

// ---------------------------------------------------------------------------------------------
// JSON shapes we read and write (only the fields the harness touches).

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export interface WorkflowNode {
	name: string;
	type: string;
	[key: string]: Json;
}

export interface WorkflowJson {
	id: string;
	name: string;
	nodes: WorkflowNode[];
	connections: JsonObject;
	[key: string]: Json;
}

export interface CredentialJson {
	id: string;
	name: string;
	type: string;
	/** Plain values; `n8n import:credentials` encrypts them. */
	data: JsonObject;
}

/** Binary metadata as stored in an execution (the bytes themselves stay in n8n's binary store). */
export interface BinaryMetadata {
	mimeType: string;
	fileName?: string;
	fileSize?: string;
	fileExtension?: string;
}

export interface NodeRun {
	data?: {
		main?: Array<Array<{
			json: JsonObject;
			binary?: Record<string, BinaryMetadata>;
			/** The input item(s) this one came from (n8n's item pairing). */
			pairedItem?: { item: number } | Array<{ item: number }>;
		}> | null>;
	};
	error?: { message: string };
}

export interface Execution {
	id: string;
	workflowId: string;
	mode: string;
	status: string;
	finished: boolean;
	startedAt: string;
	stoppedAt: string | null;
	data?: {
		resultData: {
			runData: Record<string, NodeRun[]>;
			error?: { message: string };
			lastNodeExecuted?: string;
		};
	};
}

// ---------------------------------------------------------------------------------------------
// The installed n8n lines.

export interface N8nInstallation {
	line: N8nLine;
	version: string;
	dir: string;
	/** The Node.js binary this line runs on (system Node 20 for 1.x, Node 24 for 2.x). */
	nodeBinary: string;
	n8nScript: string;
}

interface InstallMarker {
	line: number;
	version: string;
	node: string;
	n8n: string;
}

export function findInstallation(line: N8nLine): N8nInstallation {
	const version = N8N_VERSIONS[line];
	const dir = join(CACHE_DIR, `n8n-${version}`);
	const markerPath = join(dir, '.install-complete.json');
	if (!existsSync(markerPath)) {
		throw new Error(
			`n8n ${version} is not installed in ${dir}: run scripts/e2e/install-n8n.sh ${line}`,
		);
	}
	const marker = JSON.parse(readFileSync(markerPath, 'utf8')) as InstallMarker;
	return {
		line,
		version: marker.version,
		dir,
		nodeBinary: marker.node ? join(dir, marker.node) : process.execPath,
		n8nScript: join(dir, marker.n8n),
	};
}

// ---------------------------------------------------------------------------------------------
// Packing and installing community packages.

export interface PackedPackage {
	tarball: string;
	name: string;
	version: string;
	/** package.json's `n8n` section: paths of the built node and credential files. */
	n8n: { nodes: string[]; credentials: string[] };
}

/** `npm pack` a package folder (default: this repository, which must be built) into destDir. */
export async function packPackage(
	destDir: string,
	packageDir: string = REPO_ROOT,
): Promise<PackedPackage> {
	const manifest = readManifest(packageDir);
	for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) {
		if (!existsSync(join(packageDir, file))) {
			throw new Error(
				`${manifest.name}: ${file} is missing; build the package first (npm run build)`,
			);
		}
	}
	// scripts/e2e/run.sh packs this repository once per run: every file and stream installs the
	// same tarball (it was packed 21 times a run).
	const packedOnce = process.env.MG_E2E_PACKAGE_TARBALL;
	if (packedOnce && resolve(packageDir) === REPO_ROOT && existsSync(packedOnce)) {
		return {
			tarball: packedOnce,
			name: manifest.name,
			version: manifest.version,
			n8n: manifest.n8n,
		};
	}
	mkdirSync(destDir, { recursive: true });
	// --ignore-scripts: pack what is built, do not rebuild (the caller builds once).
	const { stdout } = await execFileAsync(
		'npm',
		['pack', '--json', '--ignore-scripts', '--pack-destination', destDir],
		{ cwd: packageDir, env: npmFreeEnv(), timeout: CLI_TIMEOUT_MS },
	);
	const [packed] = JSON.parse(stdout) as Array<{ filename: string }>;
	return {
		tarball: join(destDir, packed.filename),
		name: manifest.name,
		version: manifest.version,
		n8n: manifest.n8n,
	};
}

interface PackageManifest {
	name: string;
	version: string;
	dependencies?: Record<string, string>;
	n8n: { nodes: string[]; credentials: string[] };
}

export function readManifest(packageDir: string): PackageManifest {
	const raw = JSON.parse(
		readFileSync(join(packageDir, 'package.json'), 'utf8'),
	) as Partial<PackageManifest>;
	if (!raw.name || !raw.version)
		throw new Error(`${packageDir}/package.json has no name or version`);
	return {
		name: raw.name,
		version: raw.version,
		dependencies: raw.dependencies,
		n8n: { nodes: raw.n8n?.nodes ?? [], credentials: raw.n8n?.credentials ?? [] },
	};
}

/** `.n8n/nodes/package.json`, where n8n records the community packages it installed. */
interface InstalledNodesManifest {
	name: string;
	private: boolean;
	dependencies: Record<string, string>;
}

/**
 * Installs a packed package the way n8n's community-packages service does: unpack into
 * `.n8n/nodes/node_modules/<name>`, drop dev/peer/optional dependencies from its package.json,
 * `npm install` its runtime dependencies in place (scripts off, no lockfile), and record it in
 * `.n8n/nodes/package.json`. Its node types are then `<name>.<nodeName>`.
 */
export async function installCommunityPackage(
	userFolder: string,
	tarball: string,
): Promise<string> {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	const staging = mkdtempSync(join(userFolder, 'unpack-'));
	await execFileAsync('tar', ['-xzf', tarball, '-C', staging, '--strip-components=1']);
	const manifest = JSON.parse(readFileSync(join(staging, 'package.json'), 'utf8')) as JsonObject & {
		name: string;
		version: string;
		dependencies?: Record<string, string>;
	};
	const packageDir = join(nodesDir, 'node_modules', manifest.name);
	mkdirSync(resolve(packageDir, '..'), { recursive: true });
	rmSync(packageDir, { recursive: true, force: true });
	renameSync(staging, packageDir);

	// Like n8n: only runtime dependencies count (peer n8n-workflow comes from n8n itself).
	for (const key of ['devDependencies', 'peerDependencies', 'optionalDependencies'])
		delete manifest[key];
	writeFileSync(join(packageDir, 'package.json'), JSON.stringify(manifest, null, 2));
	if (manifest.dependencies && Object.keys(manifest.dependencies).length > 0) {
		await execFileAsync(
			'npm',
			[
				'install',
				'--audit=false',
				'--fund=false',
				'--bin-links=false',
				'--install-strategy=shallow',
				'--ignore-scripts=true',
				'--package-lock=false',
			],
			{ cwd: packageDir, env: npmFreeEnv(), timeout: CLI_TIMEOUT_MS },
		);
	}

	const registryPath = join(nodesDir, 'package.json');
	const registry: InstalledNodesManifest = existsSync(registryPath)
		? (JSON.parse(readFileSync(registryPath, 'utf8')) as InstalledNodesManifest)
		: { name: 'installed-nodes', private: true, dependencies: {} };
	registry.dependencies[manifest.name] = manifest.version;
	writeFileSync(registryPath, JSON.stringify(registry, null, 2));
	return packageDir;
}

// ---------------------------------------------------------------------------------------------
// Fixtures.

/**
 * Reads a workflow JSON file and fixes its id (default: the file name's letters and digits, so
 * `manual-code.json` gets id `manualcode`). Tests address workflows by these ids.
 */
export function loadWorkflow(file: string, id?: string): WorkflowJson {
	const workflow = JSON.parse(readFileSync(file, 'utf8')) as WorkflowJson;
	workflow.id = id ?? basename(file, '.json').replace(/[^A-Za-z0-9]/g, '');
	return workflow;
}

// ---------------------------------------------------------------------------------------------
// Starting n8n.

export interface StartOptions {
	line: N8nLine;
	/** Packed community packages (tarballs) to install before start. */
	packages?: string[];
	/** Imported before start (with their ids), encrypted by n8n. */
	credentials?: CredentialJson[];
	/** Imported before start (inactive, with their ids). */
	workflows?: WorkflowJson[];
	/** Extra environment for n8n. */
	env?: Record<string, string>;
	/** Port for the editor and REST API (default: a free one). */
	port?: number;
	/**
	 * Run n8n as a user does: none of the settings the suite otherwise turns on (task runners on
	 * 1.x, the SQLite pool, the database ping timeout, the file-access folder on 1.x). Only what
	 * every test run needs stays: loopback, ports, the user folder, no outbound calls.
	 */
	n8nDefaults?: boolean;
}

export async function startN8n(options: StartOptions): Promise<N8nInstance> {
	const installation = findInstallation(options.line);
	const userFolder = mkdtempSync(
		join(process.env.MG_E2E_RUN_DIR ?? tmpdir(), `n8n-${installation.version}-`),
	);
	const port = options.port ?? (await reservePort());
	const env = n8nEnv(installation, userFolder, port, await reservePort(), options.env, {
		n8nDefaults: options.n8nDefaults === true,
	});

	const timings = new PhaseTimer();
	try {
		for (const tarball of options.packages ?? [])
			await installCommunityPackage(userFolder, tarball);
		timings.lap('packages');
		if (env.DB_TYPE === undefined) {
			await seedMigratedDatabase(installation, env, userFolder);
			timings.lap('database');
		}
		// Imports run through the CLI before start: it is the one way to keep the ids we choose.
		if (options.credentials?.length) {
			await runCli(installation, env, 'import:credentials', userFolder, options.credentials);
			timings.lap('import:credentials');
		}
		if (options.workflows?.length) {
			await runCli(installation, env, 'import:workflow', userFolder, options.workflows);
			timings.lap('import:workflow');
		}
	} catch (error) {
		rmSync(userFolder, { recursive: true, force: true });
		throw error;
	}

	const instance = new N8nInstance(installation, userFolder, port, env);
	try {
		await instance.waitUntilReady();
		timings.lap('boot');
		await instance.setUpOwnerAndApiKey();
		timings.lap('owner + API key');
	} catch (error) {
		await instance.stop();
		throw error;
	}
	process.stderr.write(
		`n8n ${installation.version} ready on ${instance.baseUrl} ${timings.summary()}\n`,
	);
	return instance;
}

/** The files of a user folder's SQLite database (the `-shm` index is rebuilt on open). */
const SQLITE_FILES = ['config', 'database.sqlite', 'database.sqlite-wal'];

/**
 * Gives a new user folder a SQLite database on which n8n's migrations have already run: made once
 * per n8n version and pool setting (the pool decides the journal mode) in the run folder, then
 * copied. Every boot would otherwise migrate an empty database again in its first CLI import
 * (3–5 s each, about twenty boots a run). The copy is what n8n itself would have made.
 */
async function seedMigratedDatabase(
	installation: N8nInstallation,
	env: NodeJS.ProcessEnv,
	userFolder: string,
): Promise<void> {
	const kind = `${installation.version}-pool-${env.DB_SQLITE_POOL_SIZE ?? 'none'}`;
	const template = join(process.env.MG_E2E_RUN_DIR ?? tmpdir(), `n8n-migrated-${kind}`);
	if (!existsSync(join(template, '.complete'))) {
		const building = await migrateEmptyDatabase(installation, env, template);
		writeFileSync(join(building, '.complete'), '');
		// Two streams may build it at once: the first rename wins, the other copy is dropped (a
		// template is never replaced while another stream copies from it).
		try {
			renameSync(building, template);
		} catch {
			rmSync(building, { recursive: true, force: true });
		}
	}
	mkdirSync(join(userFolder, '.n8n'), { recursive: true });
	for (const file of SQLITE_FILES) {
		const from = join(template, '.n8n', file);
		if (existsSync(from)) copyFileSync(from, join(userFolder, '.n8n', file));
	}
}

class PhaseTimer {
	private readonly startedAt = Date.now();
	private last = this.startedAt;
	private readonly laps: string[] = [];

	lap(phase: string): void {
		const now = Date.now();
		this.laps.push(`${phase} ${seconds(now - this.last)}`);
		this.last = now;
	}

	summary(): string {
		return `in ${seconds(Date.now() - this.startedAt)} (${this.laps.join(', ')})`;
	}
}

/** A duration for the suite's printed figures: "12.3 s". */
export function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

export function n8nEnv(
	installation: N8nInstallation,
	userFolder: string,
	port: number,
	brokerPort: number,
	extra: Record<string, string> = {},
	{ n8nDefaults = false }: { n8nDefaults?: boolean } = {},
): NodeJS.ProcessEnv {
	const nodeBinDir = resolve(installation.nodeBinary, '..');
	// Settings the suite turns on that a user's n8n does not have: each is named in the docs where
	// a recipe needs it. A run on n8n's defaults leaves all of them out.
	const suiteSettings: Record<string, string> = {
		// 1.x: task runners on (2.x always has them).
		...(installation.line === 1 ? { N8N_RUNNERS_ENABLED: 'true' } : {}),
		// n8n 2.x's default for file nodes (only inside ~/.n8n-files), made explicit so that 1.x
		// keeps the same rule: an example that writes files works the same way on both lines.
		N8N_RESTRICT_FILE_ACCESS_TO: join(userFolder, N8N_FILES_FOLDER),
		DB_SQLITE_POOL_SIZE: '2',
		// n8n 2.x pings its database every few seconds with a 5 s limit and answers every request
		// 503 "Database is not ready!" after one missed ping: on a busy machine that is n8n's
		// failure, not ours. The setting "Running at scale" recommends.
		DB_PING_TIMEOUT_MS: '30000',
	};
	return {
		// A clean environment: nothing of the calling npm/jest process leaks into n8n.
		PATH: `${nodeBinDir}:${process.env.PATH ?? '/usr/bin:/bin'}`,
		HOME: userFolder,
		TZ: 'UTC',
		N8N_USER_FOLDER: userFolder,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_PORT: String(port),
		// The webhook base URL: the port is a free one.
		...webhookUrlEnv(installation.line, `http://127.0.0.1:${port}/`),
		// Community packages load from the user folder (the default, made explicit: 2.x warns it
		// will change).
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		// No outbound traffic.
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_VERIFIED_PACKAGES_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		...(installation.line === 2 ? { N8N_DISABLED_MODULES: 'mcp-registry' } : {}),
		// Quieter, faster, and plain HTTP on loopback.
		N8N_SECURE_COOKIE: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_PUBLIC_API_SWAGGERUI_DISABLED: 'true',
		N8N_GRACEFUL_SHUTDOWN_TIMEOUT: '10',
		N8N_LOG_LEVEL: process.env.MG_E2E_N8N_LOG_LEVEL ?? 'info',
		...(n8nDefaults ? {} : suiteSettings),
		...extra,
	};
}

/**
 * The environment that sets n8n's webhook base URL (1.x and 2.x name it differently): the
 * address n8n shows in trigger URLs and hands nodes as getInstanceBaseUrl(), by which the Video
 * node's Add Callback Secret tells a trigger of this n8n (a proxy in front, every process of a
 * queue-mode cluster: the one public address).
 */
export function webhookUrlEnv(line: N8nLine, url: string): Record<string, string> {
	return line === 1 ? { WEBHOOK_URL: url } : { N8N_WEBHOOK_URL: url };
}

/**
 * Importing nothing runs the migrations and leaves an empty, current database: 2–5 s. Once, on
 * 1.123.81 in a busy phase 1, the CLI hung before it created its database file until the 120-s
 * CLI timeout killed it, and every test of the file failed on set-up. Importing nothing is safe
 * to do again, so a hung or failed attempt is retried once, in a fresh folder, and said so.
 */
async function migrateEmptyDatabase(
	installation: N8nInstallation,
	env: NodeJS.ProcessEnv,
	template: string,
): Promise<string> {
	for (let attempt = 1; ; attempt++) {
		const building = mkdtempSync(`${template}.tmp-`);
		const templateEnv = { ...env, HOME: building, N8N_USER_FOLDER: building };
		try {
			await runCli(
				installation,
				templateEnv,
				'import:credentials',
				building,
				[],
				EMPTY_MIGRATION_TIMEOUT_MS,
			);
			return building;
		} catch (error) {
			rmSync(building, { recursive: true, force: true });
			if (attempt >= 2) throw error;
			console.warn(
				`[e2e] migrating an empty database for n8n ${installation.version} failed, trying once more: ${String(error).split('\n')[0]}`,
			);
		}
	}
}

export async function runCli(
	installation: N8nInstallation,
	env: NodeJS.ProcessEnv,
	command: 'import:credentials' | 'import:workflow',
	userFolder: string,
	entries: CredentialJson[] | WorkflowJson[],
	timeoutMs = CLI_TIMEOUT_MS,
): Promise<void> {
	const input = join(userFolder, `${command.replace(':', '-')}.json`);
	writeFileSync(input, JSON.stringify(entries));
	try {
		await execFileAsync(
			installation.nodeBinary,
			[installation.n8nScript, command, `--input=${input}`],
			{
				cwd: userFolder,
				env,
				timeout: timeoutMs,
				killSignal: 'SIGKILL',
				maxBuffer: 16 * 1024 * 1024,
			},
		);
	} catch (error) {
		const { stdout, stderr } = error as { stdout?: string; stderr?: string };
		throw new Error(`n8n ${command} failed: ${String(error)}\n${stdout ?? ''}\n${stderr ?? ''}`);
	}
}

// ---------------------------------------------------------------------------------------------
// A running n8n.

interface HttpResponse {
	status: number;
	headers: Headers;
	body: string;
}

export interface WorkflowRun {
	executionId: string;
	execution: Execution;
}

export class N8nInstance {
	readonly baseUrl: string;
	/** Where n8n's output goes (kept when MG_E2E_LOG_DIR is set). */
	readonly logFile: string;
	private readonly supervisor: ChildProcess;
	private readonly exited: Promise<void>;
	private hasExited = false;
	private authCookie = '';
	private apiKey = '';

	constructor(
		readonly installation: N8nInstallation,
		readonly userFolder: string,
		readonly port: number,
		private readonly env: NodeJS.ProcessEnv,
	) {
		this.baseUrl = `http://127.0.0.1:${port}`;
		const logDir = process.env.MG_E2E_LOG_DIR ?? userFolder;
		this.logFile = join(logDir, `n8n-${installation.version}-${port}.log`);
		// Output to a file, not a pipe: n8n must never block on, or die of, a reader that went away.
		const output = openSync(this.logFile, 'a');
		// The supervisor runs n8n in its own process group and kills that group when its stdin
		// closes, i.e. when this test process ends however it ends (see n8n-supervisor.js).
		this.supervisor = spawn(
			process.execPath,
			[SUPERVISOR, String(STOP_GRACE_MS), installation.nodeBinary, installation.n8nScript, 'start'],
			{ cwd: userFolder, env, stdio: ['pipe', output, output] },
		);
		closeSync(output);
		this.exited = new Promise((resolveExit) => {
			this.supervisor.once('exit', () => {
				this.hasExited = true;
				resolveExit();
			});
		});
	}

	get line(): N8nLine {
		return this.installation.line;
	}

	/** The last lines n8n printed, for failure messages. */
	recentOutput(lines = 60): string {
		try {
			return readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
		} catch {
			return '(no output)';
		}
	}

	async waitUntilReady(): Promise<void> {
		// The health check answers before the REST API is mounted, and while migrations run every
		// path answers 200 "n8n is starting up"; /rest/settings returning its JSON is the real signal
		// (it is mounted after all REST controllers).
		await this.waitFor('n8n to answer /rest/settings', READY_TIMEOUT_MS, async () => {
			if (this.hasExited) throw this.failure('n8n exited while starting');
			try {
				const response = await this.http('GET', '/rest/settings');
				return response.status === 200 && response.body.startsWith('{"data":');
			} catch {
				return false; // not listening yet
			}
		});
	}

	async setUpOwnerAndApiKey(): Promise<void> {
		await this.rest('POST', '/owner/setup', N8N_OWNER);
		await this.login();
		// An owner may grant a key every scope their role has.
		const scopes = await this.rest<string[]>('GET', '/api-keys/scopes');
		const key = await this.rest<{ rawApiKey: string }>('POST', '/api-keys', {
			label: 'e2e',
			scopes,
			expiresAt: null,
		});
		this.apiKey = key.rawApiKey;
	}

	private async login(): Promise<void> {
		const response = await this.http('POST', '/rest/login', {
			body: { emailOrLdapLoginId: N8N_OWNER.email, password: N8N_OWNER.password },
		});
		this.expectOk(response, 'POST /rest/login');
		const cookie = response.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
		if (!cookie) throw this.failure('login set no n8n-auth cookie');
		this.authCookie = cookie.split(';')[0];
	}

	/** Internal REST API (`/rest/...`) as the logged-in owner; returns the unwrapped `data`. */
	async rest<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await this.http(method, `/rest${path}`, {
			body,
			headers: this.authCookie ? { cookie: this.authCookie } : {},
		});
		this.expectOk(response, `${method} /rest${path}`);
		return (JSON.parse(response.body) as { data: T }).data;
	}

	/** A file posted as the editor posts it (multipart, field `file`), as the logged-in owner. */
	async restUpload<T>(
		path: string,
		file: { name: string; type: string; content: string },
		fields: Record<string, string> = {},
	): Promise<T> {
		const form = new FormData();
		form.append('file', new Blob([file.content], { type: file.type }), file.name);
		for (const [name, value] of Object.entries(fields)) form.append(name, value);
		const response = await fetch(`${this.baseUrl}/rest${path}`, {
			method: 'POST',
			headers: { cookie: this.authCookie },
			body: form,
			signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
		});
		const body = await response.text();
		this.expectOk(
			{ status: response.status, headers: response.headers, body },
			`POST /rest${path}`,
		);
		return (JSON.parse(body) as { data: T }).data;
	}

	/** Public API (`/api/v1/...`) with the API key. */
	async publicApi<T>(method: string, path: string, body?: unknown): Promise<T> {
		const response = await this.http(method, `/api/v1${path}`, {
			body,
			headers: { 'x-n8n-api-key': this.apiKey },
		});
		this.expectOk(response, `${method} /api/v1${path}`);
		return JSON.parse(response.body) as T;
	}

	/** Plain HTTP to this n8n (webhooks, static type files, ...). */
	async http(
		method: string,
		path: string,
		options: { body?: unknown; headers?: Record<string, string> } = {},
	): Promise<HttpResponse> {
		const isJson = options.body !== undefined && typeof options.body !== 'string';
		const response = await fetch(`${this.baseUrl}${path}`, {
			method,
			headers: { ...(isJson ? { 'content-type': 'application/json' } : {}), ...options.headers },
			body:
				options.body === undefined
					? undefined
					: isJson
						? JSON.stringify(options.body)
						: String(options.body),
			signal: AbortSignal.timeout(HTTP_TIMEOUT_MS),
		});
		return { status: response.status, headers: response.headers, body: await response.text() };
	}

	/** Node types n8n has loaded (the editor's `/types/nodes.json`). */
	async loadedNodeTypes(): Promise<string[]> {
		const types = await this.typeFile<Array<{ name: string }>>('nodes');
		return [...new Set(types.map((type) => type.name))];
	}

	async loadedCredentialTypes(): Promise<string[]> {
		const types = await this.typeFile<Array<{ name: string }>>('credentials');
		return types.map((type) => type.name);
	}

	private async typeFile<T>(kind: 'nodes' | 'credentials'): Promise<T> {
		const response = await this.http('GET', `/types/${kind}.json`, {
			headers: { cookie: this.authCookie },
		});
		this.expectOk(response, `GET /types/${kind}.json`);
		return JSON.parse(response.body) as T;
	}

	/**
	 * Runs a workflow from its manual trigger the way the editor's "Execute workflow" does, waits
	 * for it to finish and returns the saved execution with its data.
	 */
	async runManualWorkflow(workflowId: string): Promise<WorkflowRun> {
		const executionId = await this.startManualWorkflow(workflowId);
		const execution = await this.waitForExecution(executionId);
		return { executionId, execution };
	}

	/** Starts a workflow from its manual trigger and returns the execution id at once. */
	async startManualWorkflow(workflowId: string): Promise<string> {
		const workflowData = await this.rest<WorkflowJson>('GET', `/workflows/${workflowId}`);
		const trigger = workflowData.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger');
		if (!trigger) throw this.failure(`workflow ${workflowId} has no manual trigger`);
		const started = await this.rest<{ executionId?: string; waitingForWebhook?: boolean }>(
			'POST',
			`/workflows/${workflowId}/run`,
			{ workflowData, triggerToStartFrom: { name: trigger.name } },
		);
		if (!started.executionId)
			throw this.failure(`workflow ${workflowId} did not start: ${JSON.stringify(started)}`);
		return started.executionId;
	}

	/**
	 * Changes a stored workflow and saves it, as a user editing it would (public API; n8n 2.x
	 * runs the saved workflow, not the nodes a run request carries).
	 */
	async updateWorkflow(workflowId: string, edit: (workflow: WorkflowJson) => void): Promise<void> {
		const workflow = await this.publicApi<WorkflowJson>('GET', `/workflows/${workflowId}`);
		edit(workflow);
		const settings = (workflow.settings ?? {}) as JsonObject;
		await this.publicApi('PUT', `/workflows/${workflowId}`, {
			name: workflow.name,
			nodes: workflow.nodes,
			connections: workflow.connections,
			// What the public API takes back of the settings it answered with.
			settings: Object.fromEntries(
				Object.entries(settings).filter(([key]) => WRITABLE_SETTINGS.includes(key)),
			),
		});
	}

	/** Waits until an execution has the given status (e.g. `waiting` on a Wait node). */
	async waitForExecutionStatus(
		executionId: string,
		status: string,
		timeoutMs = EXECUTION_TIMEOUT_MS,
	): Promise<Execution> {
		let execution: Execution | undefined;
		await this.waitFor(`execution ${executionId} to be ${status}`, timeoutMs, async () => {
			execution = await this.publicApi<Execution>('GET', `/executions/${executionId}`);
			if (hasStopped(execution) && status !== execution.status)
				throw this.failure(`execution ${executionId} ended ${execution.status}, not ${status}`);
			return execution.status === status;
		});
		return normalizeExecution(execution as Execution);
	}

	/**
	 * Tests credential data the way the editor's "Test" button does (`POST /rest/credentials/test`,
	 * same body in 1.x and 2.x). The credential must be stored (its id); `data` replaces the
	 * stored values for this test only.
	 */
	async testCredential(
		credential: CredentialJson,
	): Promise<{ status: 'OK' | 'Error'; message: string }> {
		return await this.rest('POST', '/credentials/test', { credentials: credential });
	}

	/** Activates a workflow so its production webhooks and triggers listen (2.x: "publish"). */
	async activateWorkflow(workflowId: string): Promise<void> {
		const action = this.line === 1 ? 'activate' : 'publish';
		await this.publicApi('POST', `/workflows/${workflowId}/${action}`);
	}

	webhookUrl(path: string): string {
		return `${this.baseUrl}/webhook/${path}`;
	}

	/**
	 * Waits until a production webhook is registered. 2.x registers webhooks asynchronously after
	 * "publish" (through its publication outbox), 1.x before "activate" returns. A CORS preflight
	 * asks n8n for the path's methods without running the workflow: 404 until registered.
	 */
	async waitForWebhook(path: string, method = 'POST'): Promise<void> {
		await this.waitFor(
			`webhook ${method} ${path} to be registered`,
			EXECUTION_TIMEOUT_MS,
			async () => {
				const response = await this.http('OPTIONS', `/webhook/${path}`, {
					headers: { origin: this.baseUrl, 'access-control-request-method': method },
				});
				const methods = response.headers.get('access-control-allow-methods') ?? '';
				return response.status === 204 && methods.split(/,\s*/).includes(method);
			},
		);
	}

	/** One execution with its data, once it has stopped running. */
	async waitForExecution(
		executionId: string,
		timeoutMs = EXECUTION_TIMEOUT_MS,
	): Promise<Execution> {
		let execution: Execution | undefined;
		await this.waitFor(`execution ${executionId} to finish`, timeoutMs, async () => {
			execution = await this.publicApi<Execution>(
				'GET',
				`/executions/${executionId}?includeData=true`,
			);
			return hasStopped(execution);
		});
		return normalizeExecution(execution as Execution);
	}

	/** Waits until a workflow has `count` stopped executions; returns them newest first, with data. */
	async waitForExecutions(workflowId: string, count: number): Promise<Execution[]> {
		let stopped: Execution[] = [];
		await this.waitFor(
			`${count} execution(s) of workflow ${workflowId}`,
			EXECUTION_TIMEOUT_MS,
			async () => {
				const page = await this.publicApi<{ data: Execution[] }>(
					'GET',
					`/executions?workflowId=${encodeURIComponent(workflowId)}&includeData=true&limit=250`,
				);
				stopped = page.data.filter(hasStopped);
				return stopped.length >= count;
			},
		);
		return stopped.map(normalizeExecution);
	}

	/**
	 * Stops n8n: SIGTERM to its process group, SIGKILL after a grace period, and any task runner
	 * left in the group is killed once n8n exits (the supervisor does all three). Then deletes
	 * the user folder.
	 */
	async stop(): Promise<void> {
		await this.terminate();
		if (process.env.MG_E2E_KEEP_USER_FOLDERS !== '1')
			rmSync(this.userFolder, { recursive: true, force: true });
	}

	/**
	 * Stops this n8n and starts a new one on the same user folder (database, settings) and port,
	 * as an operator restarting n8n would. Returns the new instance, logged in as before.
	 * `env` adds or overrides settings for the new process (e.g. pruning settings).
	 */
	async restart(env: Record<string, string> = {}): Promise<N8nInstance> {
		await this.terminate();
		const next = new N8nInstance(this.installation, this.userFolder, this.port, {
			...this.env,
			...env,
		});
		try {
			await next.waitUntilReady();
			await next.login();
		} catch (error) {
			await next.stop();
			throw error;
		}
		next.apiKey = this.apiKey;
		return next;
	}

	private async terminate(): Promise<void> {
		if (!this.hasExited) {
			this.supervisor.kill('SIGTERM');
			let timer: NodeJS.Timeout | undefined;
			const stopped = await Promise.race([
				this.exited.then(() => true),
				new Promise<boolean>((resolveTimeout) => {
					timer = setTimeout(() => resolveTimeout(false), STOP_GRACE_MS + 10_000);
				}),
			]);
			clearTimeout(timer);
			if (!stopped) throw this.failure('n8n did not stop');
		}
	}

	private async waitFor(
		what: string,
		timeoutMs: number,
		condition: () => Promise<boolean>,
	): Promise<void> {
		const deadline = Date.now() + timeoutMs;
		while (Date.now() < deadline) {
			if (await condition()) return;
			await delay(POLL_INTERVAL_MS);
		}
		throw this.failure(`timed out after ${timeoutMs} ms waiting for ${what}`);
	}

	private expectOk(response: HttpResponse, what: string): void {
		if (response.status < 200 || response.status >= 300) {
			throw this.failure(`${what} answered ${response.status}: ${response.body.slice(0, 500)}`);
		}
	}

	private failure(message: string): Error {
		return new Error(
			`[n8n ${this.installation.version} on :${this.port}] ${message}\n--- n8n output (last lines) ---\n${this.recentOutput()}`,
		);
	}
}

// ---------------------------------------------------------------------------------------------
// Reading executions.

function hasStopped(execution: Execution): boolean {
	return !['new', 'running', 'waiting'].includes(execution.status) && execution.stoppedAt !== null;
}

function normalizeExecution(execution: Execution): Execution {
	return { ...execution, id: String(execution.id) };
}

/** The JSON of the items a node put out (last run, given output). */
/** The binary metadata of each item a node output. */
export function nodeBinaryOutput(
	execution: Execution,
	nodeName: string,
	outputIndex = 0,
): Array<Record<string, BinaryMetadata>> {
	const runs = execution.data?.resultData.runData[nodeName] ?? [];
	const run = runs[runs.length - 1];
	return (run?.data?.main?.[outputIndex] ?? []).map((item) => item.binary ?? {});
}

export function nodeOutput(execution: Execution, nodeName: string, outputIndex = 0): JsonObject[] {
	const runs = execution.data?.resultData.runData[nodeName];
	if (!runs?.length) {
		const ran = Object.keys(execution.data?.resultData.runData ?? {}).join(', ');
		throw new Error(
			`node "${nodeName}" did not run in execution ${execution.id} (ran: ${ran || 'none'})`,
		);
	}
	const run = runs[runs.length - 1];
	if (run.error) throw new Error(`node "${nodeName}" failed: ${run.error.message}`);
	return (run.data?.main?.[outputIndex] ?? []).map((item) => item.json);
}

/** The items a node put out on one output, over all of its runs (a loop runs a node again). */
export function allRunsOutput(
	execution: Execution,
	nodeName: string,
	outputIndex = 0,
): JsonObject[] {
	const runs = execution.data?.resultData.runData[nodeName] ?? [];
	return runs.flatMap((run) => (run.data?.main?.[outputIndex] ?? []).map((item) => item.json));
}

/** Every node's output (main output 0), keyed by node name. */
export function outputByNode(execution: Execution): Record<string, JsonObject[]> {
	const names = Object.keys(execution.data?.resultData.runData ?? {});
	return Object.fromEntries(names.map((name) => [name, nodeOutput(execution, name)]));
}

// ---------------------------------------------------------------------------------------------
// Small helpers.

export function delay(ms: number): Promise<void> {
	return new Promise((resolveDelay) => setTimeout(resolveDelay, ms));
}

/** Polls `done` until it says yes, or throws naming what did not happen in time. */
export async function until(
	what: string,
	timeoutMs: number,
	done: () => boolean | Promise<boolean>,
	intervalMs = POLL_INTERVAL_MS,
): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!(await done())) {
		if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
		await delay(intervalMs);
	}
}

/**
 * The environment without what a calling `npm run` exports about this project (its folder as
 * local prefix, its package fields), so that npm run elsewhere does not act on this project.
 */
function npmFreeEnv(): NodeJS.ProcessEnv {
	const projectBound = /^npm_(config_local_prefix|package_|lifecycle_)/i;
	return Object.fromEntries(Object.entries(process.env).filter(([key]) => !projectBound.test(key)));
}

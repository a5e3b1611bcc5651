/**
 * n8n in queue mode for the end-to-end suite: real Redis and Postgres (scripts/queue-mode/
 * services.sh), one main process, worker processes and optionally a webhook process, all on
 * loopback, sharing one encryption key and the package installed as a community package in
 * each process's own user folder (as separate containers would have it).
 *
 *   const services = await startQueueServices();
 *   const cluster = await startQueueMode({ line: 2, services, packages: [tarball], workflows });
 *   await cluster.workers[0].stop(); await cluster.workers[0].start();
 *   cluster.main = await cluster.main.restart();
 *   await cluster.stop(); await services.stop();
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
	closeSync,
	cpSync,
	existsSync,
	mkdtempSync,
	openSync,
	readFileSync,
	rmSync,
} from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import {
	N8nInstance,
	REPO_ROOT,
	STOP_GRACE_MS,
	SUPERVISOR,
	findInstallation,
	reservePort,
	installCommunityPackage,
	n8nEnv,
	runCli,
	type CredentialJson,
	type N8nInstallation,
	type N8nLine,
	type WorkflowJson,
	until,
	webhookUrlEnv,
} from './harness';

const execFileAsync = promisify(execFile);

const SERVICES_SCRIPT = join(REPO_ROOT, 'scripts', 'queue-mode', 'services.sh');
/** Includes installing the Debian packages when they are missing. */
const SERVICES_READY_TIMEOUT_MS = 300_000;
const PROCESS_READY_TIMEOUT_MS = 120_000;

function runDir(): string {
	return process.env.MG_E2E_RUN_DIR ?? tmpdir();
}

function logDir(fallback: string): string {
	return process.env.MG_E2E_LOG_DIR ?? fallback;
}

/** A log's text from a byte offset on; empty while the file does not exist yet. */
function readLog(file: string, fromByte = 0): string {
	try {
		return readFileSync(file).subarray(fromByte).toString('utf8');
	} catch {
		return '';
	}
}

function lastLines(file: string, lines = 40): string {
	try {
		return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
	} catch {
		return '(no output)';
	}
}

/**
 * A command run through the supervisor (its own process group, killed when this test process
 * ends however it ends), output to a log file; stop() is SIGTERM to the group, then SIGKILL.
 */
class SupervisedProcess {
	private readonly supervisor: ChildProcess;
	private readonly exited: Promise<void>;
	hasExited = false;

	constructor(command: string[], cwd: string, env: NodeJS.ProcessEnv, logFile: string) {
		const output = openSync(logFile, 'a');
		this.supervisor = spawn(process.execPath, [SUPERVISOR, String(STOP_GRACE_MS), ...command], {
			cwd,
			env,
			stdio: ['pipe', output, output],
		});
		closeSync(output);
		this.exited = new Promise((resolveExit) => {
			this.supervisor.once('exit', () => {
				this.hasExited = true;
				resolveExit();
			});
		});
	}

	async stop(): Promise<void> {
		if (this.hasExited) return;
		this.supervisor.kill('SIGTERM');
		let timer: NodeJS.Timeout | undefined;
		const stopped = await Promise.race([
			this.exited.then(() => true),
			new Promise<boolean>((resolveTimeout) => {
				timer = setTimeout(() => resolveTimeout(false), STOP_GRACE_MS + 10_000);
			}),
		]);
		clearTimeout(timer);
		if (!stopped) throw new Error('a supervised process did not stop');
	}

	/** The supervisor's process id (n8n and its task runners are its descendants). */
	get pid(): number | undefined {
		return this.supervisor.pid;
	}

	/** SIGKILL to the whole group, no grace: the process dies as on a power cut or an OOM kill. */
	async kill(): Promise<void> {
		if (this.hasExited) return;
		this.supervisor.kill('SIGUSR1');
		await this.exited;
	}
}

// ---------------------------------------------------------------------------------------------
// Redis and Postgres.

export interface PostgresConnection {
	host: string;
	port: number;
	database: string;
	user: string;
	password: string;
}

export interface QueueServices {
	/** QUEUE_BULL_REDIS_* and DB_* settings for n8n. */
	readonly env: Record<string, string>;
	readonly postgres: PostgresConnection;
	/** Runs SQL as n8n's database user; returns psql's unaligned, tuples-only output. */
	psql(sql: string): Promise<string>;
	/** Runs SQL as Postgres's superuser (its socket), e.g. ALTER SYSTEM for a benchmark's logging. */
	psqlAsSuperuser(sql: string): Promise<string>;
	/** Postgres's own log (its stderr): what log_min_duration_statement writes. */
	readonly postgresLogFile: string;
	stop(): Promise<void>;
}

/** Starts throw-away Redis and Postgres (installed first when missing) through services.sh. */
export async function startQueueServices(): Promise<QueueServices> {
	const dir = mkdtempSync(join(runDir(), 'queue-services-'));
	const logFile = join(logDir(dir), `queue-services-${Date.now()}.log`);
	// Reserved here (test/e2e/ports.ts), so no other stream of the run is given them.
	const env = {
		...process.env,
		MG_QUEUE_DIR: dir,
		MG_REDIS_PORT: String(await reservePort()),
		MG_POSTGRES_PORT: String(await reservePort()),
	};
	const services = new SupervisedProcess(['bash', SERVICES_SCRIPT, 'run'], dir, env, logFile);
	const readyFile = join(dir, 'ready.env');
	try {
		await until('Redis and Postgres', SERVICES_READY_TIMEOUT_MS, async () => {
			if (services.hasExited) throw new Error(`services.sh exited:\n${lastLines(logFile)}`);
			return existsSync(readyFile);
		});
	} catch (error) {
		await services.stop();
		throw error;
	}
	const settings = Object.fromEntries(
		readFileSync(readyFile, 'utf8')
			.trim()
			.split('\n')
			.map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
	);
	const postgres: PostgresConnection = {
		host: settings.DB_POSTGRESDB_HOST,
		port: Number(settings.DB_POSTGRESDB_PORT),
		database: settings.DB_POSTGRESDB_DATABASE,
		user: settings.DB_POSTGRESDB_USER,
		password: settings.DB_POSTGRESDB_PASSWORD,
	};
	const psqlAs = async (host: string, user: string, sql: string): Promise<string> => {
		const { stdout } = await execFileAsync(
			'psql',
			[
				...['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1'],
				...['-h', host, '-p', String(postgres.port)],
				...['-U', user, '-d', postgres.database, '-c', sql],
			],
			{ env: { ...process.env, PGPASSWORD: postgres.password }, timeout: 30_000 },
		);
		return stdout.trim();
	};
	return {
		env: settings,
		postgres,
		psql: (sql) => psqlAs(postgres.host, postgres.user, sql),
		// services.sh: the socket in <dir>/postgres, trusted for local connections.
		psqlAsSuperuser: (sql) => psqlAs(join(dir, 'postgres'), 'postgres', sql),
		postgresLogFile: join(dir, 'postgres', 'postgres.log'),
		async stop(): Promise<void> {
			await services.stop();
			rmSync(dir, { recursive: true, force: true });
		},
	};
}

// ---------------------------------------------------------------------------------------------
// n8n workers and webhook processes.

/** An `n8n worker` or `n8n webhook` process; can be stopped and started again. */
export class N8nServiceProcess {
	private process: SupervisedProcess | undefined;
	readonly logFile: string;

	constructor(
		readonly installation: N8nInstallation,
		readonly command: 'worker' | 'webhook',
		readonly name: string,
		readonly userFolder: string,
		/** Where readiness is asked: the worker's health server, or the webhook server. */
		readonly port: number,
		private readonly env: NodeJS.ProcessEnv,
	) {
		// One log per cluster's process (a restart appends to it): the e2e files share the log
		// folder and n8n numbers executions from 1 in every new database, so a shared file mixed
		// one cluster's "started execution 3" into the next one's count.
		this.logFile = join(
			logDir(userFolder),
			`n8n-${installation.version}-${name}-${Date.now()}-${randomBytes(3).toString('hex')}.log`,
		);
	}

	/** What this process wrote to its log, all starts of it, in this cluster. */
	log(): string {
		return readLog(this.logFile);
	}

	get baseUrl(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	get running(): boolean {
		return this.process !== undefined && !this.process.hasExited;
	}

	/** The process id of its supervisor while running: the process and its task runners descend from it. */
	get pid(): number | undefined {
		return this.running ? this.process?.pid : undefined;
	}

	async start(): Promise<void> {
		if (this.running) throw new Error(`${this.name} is already running`);
		const started = Date.now();
		// Readiness is read in what this start writes, not in an earlier start's lines.
		const logOffset = Buffer.byteLength(readLog(this.logFile));
		this.process = new SupervisedProcess(
			[this.installation.nodeBinary, this.installation.n8nScript, this.command],
			this.userFolder,
			this.env,
			this.logFile,
		);
		const child = this.process;
		await until(`${this.name} to be ready`, PROCESS_READY_TIMEOUT_MS, async () => {
			if (child.hasExited)
				throw new Error(`${this.name} exited while starting:\n${lastLines(this.logFile)}`);
			try {
				const response = await fetch(`${this.baseUrl}/healthz/readiness`, {
					signal: AbortSignal.timeout(5_000),
				});
				// A worker takes jobs once it says so (readiness only means DB and Redis are up).
				return (
					response.ok &&
					(this.command !== 'worker' ||
						readLog(this.logFile, logOffset).includes('n8n worker is now ready'))
				);
			} catch {
				return false;
			}
		});
		process.stderr.write(
			`[e2e] ${this.name} (n8n ${this.installation.version}) ready in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
		);
	}

	/** SIGTERM: n8n stops taking jobs and finishes the running ones (graceful shutdown). */
	async stop(): Promise<void> {
		await this.process?.stop();
	}

	/** SIGKILL: the process dies in the middle of whatever it runs. */
	async kill(): Promise<void> {
		await this.process?.kill();
	}
}

// ---------------------------------------------------------------------------------------------
// The cluster.

export interface QueueModeOptions {
	line: N8nLine;
	services: QueueServices;
	/** Packed community packages, installed into every process's user folder. */
	packages?: string[];
	credentials?: CredentialJson[];
	workflows?: WorkflowJson[];
	/** Worker processes (default 2). */
	workers?: number;
	/** Start an `n8n webhook` process too (a second process answering production webhooks). */
	webhookProcess?: boolean;
	/** Extra environment for every process. */
	env?: Record<string, string>;
	/**
	 * The cluster's public address (WEBHOOK_URL of every process), e.g. a load balancer in front
	 * of it. Default: the main process's own address.
	 */
	publicUrl?: string;
}

export interface QueueModeN8n {
	/** The main process (editor, REST and public API, wait tracker, production webhooks). */
	main: N8nInstance;
	readonly workers: N8nServiceProcess[];
	readonly webhook: N8nServiceProcess | undefined;
	/** Stops every process (workers first, main last) and deletes the user folders. */
	stop(): Promise<void>;
}

/** Settings every process of one cluster shares. */
function queueEnv(services: QueueServices, encryptionKey: string): Record<string, string> {
	return {
		...services.env,
		EXECUTIONS_MODE: 'queue',
		N8N_ENCRYPTION_KEY: encryptionKey,
		// Workers answer health checks (their readiness) on their own port, on loopback.
		QUEUE_HEALTH_CHECK_ACTIVE: 'true',
		N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
		// 1.x runs manual executions on the main process unless told otherwise (2.x always offloads).
		OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
		// n8n's default database pool (a bigger one made callback bursts worse: bench:callbacks).
		// 2.x pings its database every 2 s with a 5 s limit and answers every request 503
		// "Database is not ready!" after one missed ping; on this busy 2-core machine give it the
		// time running-at-scale asks for (1.x has no such ping).
		DB_PING_TIMEOUT_MS: '30000',
	};
}

export async function startQueueMode(options: QueueModeOptions): Promise<QueueModeN8n> {
	const installation = findInstallation(options.line);
	const shared = {
		...queueEnv(options.services, randomBytes(24).toString('base64url')),
		...options.env,
	};
	const folders: string[] = [];
	const newFolder = (name: string): string => {
		const folder = mkdtempSync(join(runDir(), `n8n-${installation.version}-${name}-`));
		folders.push(folder);
		return folder;
	};
	const mainFolder = newFolder('main');
	const mainPort = await reservePort();
	// Every process has the main's address as its webhook URL, as a cluster behind one public
	// address does: a worker that creates a task names the same triggers as the main.
	const processEnv = async (folder: string, port: number, extra: Record<string, string> = {}) =>
		n8nEnv(installation, folder, port, await reservePort(), {
			...shared,
			QUEUE_HEALTH_CHECK_PORT: String(await reservePort()),
			...webhookUrlEnv(
				options.line,
				options.publicUrl
					? `${options.publicUrl.replace(/\/$/, '')}/`
					: `http://127.0.0.1:${mainPort}/`,
			),
			...extra,
		});

	const mainEnv = await processEnv(mainFolder, mainPort);
	const others: N8nServiceProcess[] = [];
	let main: N8nInstance | undefined;
	const cleanUp = async () => {
		await Promise.all(others.map((other) => other.stop()));
		await main?.stop();
		for (const folder of folders) rmSync(folder, { recursive: true, force: true });
	};

	try {
		for (const tarball of options.packages ?? [])
			await installCommunityPackage(mainFolder, tarball);
		const copyPackages = (folder: string) => {
			const nodes = join(mainFolder, '.n8n', 'nodes');
			if (existsSync(nodes)) cpSync(nodes, join(folder, '.n8n', 'nodes'), { recursive: true });
		};
		// The first CLI call creates the schema in Postgres (migrations).
		if (options.credentials?.length)
			await runCli(installation, mainEnv, 'import:credentials', mainFolder, options.credentials);
		if (options.workflows?.length)
			await runCli(installation, mainEnv, 'import:workflow', mainFolder, options.workflows);

		main = new N8nInstance(installation, mainFolder, mainPort, mainEnv);
		await main.waitUntilReady();
		await main.setUpOwnerAndApiKey();

		for (let index = 1; index <= (options.workers ?? 2); index++) {
			const folder = newFolder(`worker${index}`);
			copyPackages(folder);
			const healthPort = await reservePort();
			const env = await processEnv(folder, await reservePort(), {
				QUEUE_HEALTH_CHECK_PORT: String(healthPort),
			});
			others.push(
				new N8nServiceProcess(installation, 'worker', `worker${index}`, folder, healthPort, env),
			);
		}
		if (options.webhookProcess) {
			const folder = newFolder('webhook');
			copyPackages(folder);
			const port = await reservePort();
			others.push(
				new N8nServiceProcess(
					installation,
					'webhook',
					'webhook',
					folder,
					port,
					await processEnv(folder, port),
				),
			);
		}
		// One at a time: each boot is CPU-heavy on a 2-core machine.
		for (const other of others) await other.start();
	} catch (error) {
		await cleanUp();
		throw error;
	}

	const cluster: QueueModeN8n = {
		main,
		workers: others.filter((other) => other.command === 'worker'),
		webhook: others.find((other) => other.command === 'webhook'),
		async stop() {
			main = cluster.main;
			await cleanUp();
		},
	};
	return cluster;
}

// ---------------------------------------------------------------------------------------------
// A load balancer in front of the webhook-handling processes.

export interface RoundRobinProxy {
	readonly url: string;
	/** Where requests go, in turn (set it once the processes are up; it may change later). */
	targets: string[];
	/** Requests forwarded, per target base URL. */
	readonly forwarded: Map<string, number>;
	/**
	 * Loses every callback of every Nth task it hears of (0: none), answering 503 without
	 * forwarding, as when no webhook-handling process is up: the tasks a sweeper must find.
	 */
	loseEveryNthTask: number;
	/** The tasks whose callbacks were lost on purpose. */
	readonly lostTaskIds: Set<string>;
	/** Requests forwarded whose answer has not come yet. */
	inFlight: number;
	/** Answers that said an execution started (`started: true`), even after the caller gave up. */
	startedAnswers: number;
	close(): Promise<void>;
}

/** Headers of one connection, not forwarded by a proxy (RFC 9110, 7.6.1), and the body's length. */
const HOP_BY_HOP = new Set([
	'connection',
	'keep-alive',
	'proxy-connection',
	'transfer-encoding',
	'upgrade',
	'te',
	'trailer',
	'host',
	'content-length',
]);

/** The task id of a callback body: a bare record (`id`, `task_id`) or one under `data`. */
function callbackTaskId(body: Buffer): string | undefined {
	try {
		const parsed = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
		const record = (parsed.data ?? parsed) as Record<string, unknown>;
		const id = record.task_id ?? record.id;
		return typeof id === 'string' ? id : undefined;
	} catch {
		return undefined;
	}
}

/**
 * A minimal HTTP load balancer on loopback: each request goes to the next target in turn, as a
 * round-robin balancer in front of n8n's webhook-handling processes would send it.
 */
export async function startRoundRobinProxy(): Promise<RoundRobinProxy> {
	let next = 0;
	const heardOf = new Map<string, number>();
	const proxy: RoundRobinProxy = {
		url: '',
		targets: [],
		forwarded: new Map(),
		loseEveryNthTask: 0,
		lostTaskIds: new Set(),
		inFlight: 0,
		startedAnswers: 0,
		close: async () => {},
	};
	const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
		if (proxy.targets.length === 0) {
			response.writeHead(503).end('proxy: no targets');
			return;
		}
		const chunks: Buffer[] = [];
		request.on('data', (chunk: Buffer) => chunks.push(chunk));
		request.on('end', () => {
			const taskId = proxy.loseEveryNthTask > 0 ? callbackTaskId(Buffer.concat(chunks)) : undefined;
			if (taskId !== undefined) {
				if (!heardOf.has(taskId)) heardOf.set(taskId, heardOf.size);
				if ((heardOf.get(taskId) ?? 0) % proxy.loseEveryNthTask === proxy.loseEveryNthTask - 1) {
					proxy.lostTaskIds.add(taskId);
					response.writeHead(503).end('proxy: lost on purpose');
					return;
				}
			}
			const target = proxy.targets[next++ % proxy.targets.length];
			proxy.forwarded.set(target, (proxy.forwarded.get(target) ?? 0) + 1);
			proxy.inFlight += 1;
			// Every request header but the hop-by-hop ones, as a balancer forwards them (n8n answers
			// a CORS preflight from Origin and Access-Control-Request-Method).
			const headers: Record<string, string> = {};
			for (const [name, value] of Object.entries(request.headers))
				if (typeof value === 'string' && !HOP_BY_HOP.has(name)) headers[name] = value;
			fetch(`${target}${request.url ?? '/'}`, {
				method: request.method,
				headers,
				body: chunks.length > 0 ? Buffer.concat(chunks) : undefined,
				signal: AbortSignal.timeout(60_000),
			})
				.then(async (answer) => {
					const body = Buffer.from(await answer.arrayBuffer());
					if (answer.ok && /"started"\s*:\s*true/.test(body.toString('utf8')))
						proxy.startedAnswers += 1;
					const answerHeaders: Record<string, string> = {};
					answer.headers.forEach((value, name) => {
						if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') answerHeaders[name] = value;
					});
					answerHeaders['content-length'] = String(body.length);
					response.writeHead(answer.status, answerHeaders);
					response.end(body);
				})
				// A target that is down, or an answer (or its body) that never comes.
				.catch((error: unknown) => {
					if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
					response.end(`proxy: ${error instanceof Error ? error.message : String(error)}`);
				})
				.finally(() => (proxy.inFlight -= 1));
		});
	});
	const port = await reservePort();
	await new Promise<void>((resolveListen) => server.listen(port, '127.0.0.1', resolveListen));
	return Object.assign(proxy, {
		url: `http://127.0.0.1:${port}`,
		close: () =>
			new Promise<void>((resolveClose) => {
				server.closeAllConnections();
				server.close(() => resolveClose());
			}),
	});
}

import { AmbiguousCreates } from './ambiguousCreates';
import { createServer, type Server } from 'node:http';
import { CallbackSender } from './callbacks';
import { FaultQueue, matchesPath } from './faults';
import { FileStore } from './files';
import { RateLimiter } from './rateLimit';
import { gatewayRoutes } from './routes';
import { controlRoutes } from './routes/control';
import { createRequestHandler, type PipelineDeps } from './server';
import type { SimState } from './state';
import { TaskTable } from './tasks';
import { Timers } from './timers';
import type {
	CallbackRecord,
	Fault,
	HostName,
	RecordedRequest,
	ResolvedOptions,
	Simulator,
	SimulatorOptions,
	Violation,
} from './types';

export const DEFAULT_OPTIONS: ResolvedOptions = {
	apiKey: 'sim-api-key',
	accessToken: 'sim-access-token',
	port: 0,
	identityPort: 0,
	queuedMs: 50,
	runningMs: 100,
	latencyMs: 0,
	publicHost: '127.0.0.1',
	taskAgeMs: 0,
	rateLimitEvery: 0,
	rateLimitPerSecond: 0,
	rateLimitRetryAfterMs: 1000,
	resultVideoBytes: 0,
	redirectTo: '',
};

const LISTEN_HOST = '127.0.0.1';

/** Starts both hosts (base and identity) on 127.0.0.1. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
	const simulator = new GatewaySimulator({ ...DEFAULT_OPTIONS, ...definedOnly(options) });
	try {
		await simulator.listen();
	} catch (error) {
		await simulator.close();
		throw error;
	}
	return simulator;
}

class GatewaySimulator implements Simulator {
	readonly requests: RecordedRequest[] = [];
	readonly fileDownloads: Array<{ path: string; at: number }> = [];
	readonly violations: Violation[] = [];
	baseUrl = '';
	identityUrl = '';

	private readonly options: ResolvedOptions;
	private readonly lifecycleTimers = new Timers();
	private readonly requestTimers = new Timers();
	private readonly faults = new FaultQueue();
	private readonly ambiguousCreates = new AmbiguousCreates();
	private readonly callbackSender = new CallbackSender();
	private readonly tasks: TaskTable;
	private readonly rateLimiter: RateLimiter;
	private readonly state: SimState;
	private readonly servers: Record<HostName, Server>;
	private basePort = 0;
	private closing: Promise<void> | undefined;

	constructor(options: ResolvedOptions) {
		this.options = options;
		this.tasks = new TaskTable(this.lifecycleTimers);
		this.rateLimiter = new RateLimiter(options);
		this.state = {
			options,
			tasks: this.tasks,
			files: new FileStore(),
			callbacks: this.callbackSender,
			lifecycleTimers: this.lifecycleTimers,
			storedResponses: new Map(),
			violations: this.violations,
			fileUrl: (name) => `http://${this.options.publicHost}:${this.basePort}/files/${name}`,
		};
		const deps: PipelineDeps = {
			routes: gatewayRoutes(this.state),
			controlRoutes: controlRoutes(this),
			options,
			faults: this.faults,
			tasks: this.tasks,
			requestLog: this.requests,
			fileDownloads: this.fileDownloads,
			requestTimers: this.requestTimers,
			rateLimiter: this.rateLimiter,
			violations: this.violations,
			ambiguousCreates: this.ambiguousCreates,
		};
		this.servers = {
			base: createServer(createRequestHandler('base', deps)),
			identity: createServer(createRequestHandler('identity', deps)),
		};
	}

	get apiKey(): string {
		return this.options.apiKey;
	}

	get accessToken(): string {
		return this.options.accessToken;
	}

	get callbacks(): CallbackRecord[] {
		return this.callbackSender.sent;
	}

	async listen(): Promise<void> {
		this.basePort = await listenOn(this.servers.base, this.options.port);
		const identityPort = await listenOn(this.servers.identity, this.options.identityPort);
		this.baseUrl = `http://${LISTEN_HOST}:${this.basePort}`;
		this.identityUrl = `http://${LISTEN_HOST}:${identityPort}`;
	}

	requestsTo(method: string, path: string | RegExp): RecordedRequest[] {
		const wanted = method.toUpperCase();
		return this.requests.filter(
			(request) => (wanted === '*' || request.method === wanted) && matchesPath(path, request.path),
		);
	}

	injectFault(fault: Fault): void {
		this.faults.add(fault);
	}

	pollLog(taskId: string): number[] {
		return this.tasks.pollsOf(taskId);
	}

	backdateTask(taskId: string, ms: number): void {
		this.tasks.backdate(taskId, ms);
	}

	setOptions(partial: Partial<SimulatorOptions>): void {
		// Ports are fixed once listening; everything else is read live.
		const changeable = definedOnly(partial);
		delete changeable.port;
		delete changeable.identityPort;
		Object.assign(this.options, changeable);
	}

	reset(): void {
		this.requests.length = 0;
		this.fileDownloads.length = 0;
		this.violations.length = 0;
		this.faults.clear();
		this.ambiguousCreates.clear();
		this.rateLimiter.reset();
		this.lifecycleTimers.cancelAll();
		this.callbackSender.clear();
		this.tasks.clear();
		this.state.files.clear();
		this.state.storedResponses.clear();
	}

	close(): Promise<void> {
		this.closing ??= this.shutDown();
		return this.closing;
	}

	private async shutDown(): Promise<void> {
		this.lifecycleTimers.stop();
		this.requestTimers.stop();
		this.callbackSender.cancelAll();
		await Promise.all(Object.values(this.servers).map(closeServer));
	}
}

function definedOnly(options: Partial<SimulatorOptions>): Partial<SimulatorOptions> {
	const defined: Partial<SimulatorOptions> = { ...options };
	for (const key of Object.keys(defined) as Array<keyof SimulatorOptions>) {
		if (defined[key] === undefined) delete defined[key];
	}
	return defined;
}

function listenOn(server: Server, port: number): Promise<number> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, LISTEN_HOST, () => {
			server.off('error', reject);
			const address = server.address();
			resolve(typeof address === 'object' && address !== null ? address.port : port);
		});
	});
}

function closeServer(server: Server): Promise<void> {
	return new Promise((resolve) => {
		if (!server.listening) {
			resolve();
			return;
		}
		server.close(() => resolve());
		// Keep-alive sockets (fetch pools them) would otherwise hold close() open.
		server.closeAllConnections();
	});
}

import { createServer, request as httpRequest, type Server } from 'node:http';

/**
 * A stricter gateway for tests: a proxy in front of the simulator that may answer a request
 * itself (a 429, a 500) without passing it on, and forwards all others. The simulator's own log
 * then holds exactly the requests the gateway accepted.
 */
export interface ProxyGateway {
	baseUrl: string;
	/** Arrival time of every request, and whether the proxy answered it itself. */
	arrivals: Array<{ at: number; method: string; path: string; intercepted: boolean }>;
	/** The simulator's answers to the requests passed on, by arrival (counting from 1). */
	replies: Map<number, string>;
	close(): Promise<void>;
}

/** What the proxy answers instead of the simulator. */
export interface ProxyAnswer {
	status: number;
	headers?: Record<string, string>;
	/** Sent as JSON; a string is sent as it is (an HTML page, an empty body), with `headers`. */
	body: unknown;
}

/** `arrival` counts from 1 over all requests; undefined passes the request on. */
export type ProxyRule = (arrival: number, method: string, path: string) => ProxyAnswer | undefined;

export async function startProxyGateway(target: string, rule: ProxyRule): Promise<ProxyGateway> {
	const arrivals: ProxyGateway['arrivals'] = [];
	const replies = new Map<number, string>();
	const server: Server = createServer((req, res) => {
		const method = req.method ?? 'GET';
		const path = new URL(req.url ?? '/', 'http://proxy').pathname;
		const arrival = arrivals.length + 1;
		const answer = rule(arrival, method, path);
		arrivals.push({ at: Date.now(), method, path, intercepted: answer !== undefined });
		const chunks: Buffer[] = [];
		req.on('data', (chunk: Buffer) => chunks.push(chunk));
		req.on('end', () => {
			if (answer) {
				const raw = typeof answer.body === 'string';
				res.writeHead(answer.status, {
					...(raw ? {} : { 'content-type': 'application/json' }),
					...answer.headers,
				});
				res.end(raw ? answer.body : JSON.stringify(answer.body));
				return;
			}
			const upstream = httpRequest(
				new URL(req.url ?? '/', target),
				{ method, headers: req.headers },
				(reply) => {
					res.writeHead(reply.statusCode ?? 502, reply.headers);
					const text: Buffer[] = [];
					reply.on('data', (chunk: Buffer) => text.push(chunk));
					reply.on('end', () => replies.set(arrival, Buffer.concat(text).toString('utf8')));
					reply.pipe(res);
				},
			);
			upstream.on('error', () => res.destroy());
			upstream.end(Buffer.concat(chunks));
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const address = server.address();
	const port = typeof address === 'object' && address !== null ? address.port : 0;
	return {
		baseUrl: `http://127.0.0.1:${port}`,
		arrivals,
		replies,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}

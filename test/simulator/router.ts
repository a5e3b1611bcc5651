import type { Reply } from './reply';
import type { HostName } from './types';

export interface RouteInput {
	host: HostName;
	method: string;
	path: string;
	/** Capture groups of the route pattern, URI-decoded. */
	params: string[];
	query: Record<string, string>;
	headers: Record<string, string>;
	body: unknown;
}

export type RouteHandler = (input: RouteInput) => Reply | Promise<Reply>;

export interface Route {
	host: HostName | 'both';
	methods: readonly string[];
	/** Tested against the decoded path. */
	pattern: RegExp;
	handle: RouteHandler;
	/** Result files: served without credentials and left out of the request log, like a CDN. */
	isPublicFile?: boolean;
	/** Task-query routes name the polled task id, so polls are logged even when a fault answers them. */
	polledTaskId?: (params: string[]) => string;
}

export interface RouteMatch {
	route: Route;
	params: string[];
}

export function findRoute(
	routes: readonly Route[],
	host: HostName,
	method: string,
	path: string,
): RouteMatch | undefined {
	const decodedPath = safeDecode(path);
	for (const route of routes) {
		if (route.host !== 'both' && route.host !== host) continue;
		if (!route.methods.includes(method)) continue;
		const match = route.pattern.exec(decodedPath);
		if (match) return { route, params: match.slice(1).map((param) => param ?? '') };
	}
	return undefined;
}

function safeDecode(path: string): string {
	try {
		return decodeURIComponent(path);
	} catch {
		return path;
	}
}

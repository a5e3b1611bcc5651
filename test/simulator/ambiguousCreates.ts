/**
 * Creates whose outcome the client could not know: answered 5xx, dropped, or abandoned by the
 * client (a timeout) before the answer. Upstream notes: "Creating a task is not idempotent:
 * retrying a create whose request may have reached the server can bill the user twice." The
 * same body sent again to the same route is taken as such a retry.
 */
export class AmbiguousCreates {
	private readonly keys = new Set<string>();

	static key(host: string, path: string, rawBody: string): string {
		return `${host} ${path} ${rawBody}`;
	}

	remember(key: string): void {
		this.keys.add(key);
	}

	has(key: string): boolean {
		return this.keys.has(key);
	}

	clear(): void {
		this.keys.clear();
	}
}

/**
 * Ports for the processes a test starts (n8n, its task broker, workers, Redis, Postgres), handed
 * out so that no two streams of one run ever get the same one.
 *
 * Asking the kernel for a free port (listen on 0, close, pass the number on) races: between the
 * close and the moment n8n binds it, the kernel may give the same number to anything else that
 * asks for an ephemeral port (another stream's "free port", an outgoing connection). That is how
 * "n8n Task Broker's port … is already in use" happened. So the ports come from a range below the
 * kernel's ephemeral range, which the kernel never hands out by itself, and each is reserved by
 * an exclusive `mkdir` in a folder every stream of the machine shares, owned by the test process
 * until it exits. A reservation whose owner is gone is stale and taken over.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Shared by every stream on this machine (not per run: two runs at once must not collide). */
const RESERVATIONS_DIR = process.env.MG_E2E_PORTS_DIR ?? join(tmpdir(), 'mg-e2e-ports');
const OWNER_FILE = 'owner';
const ATTEMPTS = 500;

/** Below Linux's default ephemeral range (32768–60999), above the well-known and common ports. */
export function reservableRange(): { low: number; high: number } {
	let ephemeralLow = 32768;
	try {
		const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
			.trim()
			.split(/\s+/)
			.map(Number);
		if (Number.isInteger(low) && low > 12000) ephemeralLow = low;
	} catch {
		// Not Linux, or no /proc: the default range.
	}
	return { low: 11000, high: ephemeralLow - 1 };
}

function ownerIsAlive(dir: string): boolean {
	let pid: number;
	try {
		pid = Number(readFileSync(join(dir, OWNER_FILE), 'utf8'));
	} catch {
		// Being written right now (mkdir happened, the owner file not yet): not stale.
		return true;
	}
	if (!Number.isInteger(pid) || pid <= 0) return false;
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** Takes the reservation of `port` for this process; false when another live process holds it. */
function reserve(port: number): boolean {
	const dir = join(RESERVATIONS_DIR, String(port));
	try {
		mkdirSync(dir);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
		if (ownerIsAlive(dir)) return false;
		// Stale: move it aside (only one process wins the rename), then try the mkdir again.
		const aside = `${dir}.stale-${process.pid}-${Date.now()}`;
		try {
			renameSync(dir, aside);
			rmSync(aside, { recursive: true, force: true });
		} catch {
			return false;
		}
		try {
			mkdirSync(dir);
		} catch {
			return false;
		}
	}
	writeFileSync(join(dir, OWNER_FILE), String(process.pid));
	return true;
}

/** True when nothing listens on 127.0.0.1:`port` (a program outside the suite may). */
async function bindable(port: number): Promise<boolean> {
	const server = createServer();
	const bound = await new Promise<boolean>((resolveListen) => {
		server.once('error', () => resolveListen(false));
		server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolveListen(true));
	});
	if (bound) await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
	return bound;
}

const handedOut = new Set<number>();

/**
 * A port on 127.0.0.1 reserved for this test process: no other stream is given it while this
 * process lives, and the kernel gives it to no one. A process that restarts (n8n after a crash)
 * keeps the port it was given; ask again for a new one.
 */
export async function reservePort(): Promise<number> {
	mkdirSync(RESERVATIONS_DIR, { recursive: true });
	const { low, high } = reservableRange();
	for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
		const port = low + Math.floor(Math.random() * (high - low + 1));
		if (handedOut.has(port) || !reserve(port)) continue;
		handedOut.add(port);
		if (await bindable(port)) return port;
		// Taken by a program outside the suite: keep the reservation (it is ours), try another.
	}
	throw new Error(`no free port to reserve in ${low}–${high} after ${ATTEMPTS} attempts`);
}

'use strict';
/**
 * Runs a command (n8n) in its own process group and ties that group's life to the test process:
 * when our stdin closes (the test process ended, however it ended: normal exit, Ctrl-C, crash,
 * SIGKILL) or we get SIGTERM/SIGINT/SIGHUP, the group gets SIGTERM, then SIGKILL after a grace
 * period; SIGUSR1 kills the group at once. When the command exits, whatever it left in its group (task runners) is killed too.
 *
 *   node n8n-supervisor.js <grace-ms> <command> [args...]   (output: inherited file descriptors)
 */
const { spawn } = require('child_process');

const [graceMs, command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { detached: true, stdio: ['ignore', 'inherit', 'inherit'] });

function signalGroup(signal) {
	try {
		process.kill(-child.pid, signal);
	} catch {
		// ESRCH: the group is gone already.
	}
}

let stopping = false;
function stop() {
	if (stopping) return;
	stopping = true;
	signalGroup('SIGTERM');
	setTimeout(() => signalGroup('SIGKILL'), Number(graceMs)).unref();
}

child.on('exit', (code, signal) => {
	signalGroup('SIGKILL');
	process.exit(code ?? (signal ? 128 : 0));
});
child.on('error', (error) => {
	process.stderr.write(`n8n-supervisor: ${error.message}\n`);
	process.exit(127);
});
process.stdin.on('close', stop);
process.stdin.on('end', stop);
process.stdin.resume();
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, stop);
// SIGUSR1: kill the command's group at once (a process that dies, not one that is stopped).
process.on('SIGUSR1', () => signalGroup('SIGKILL'));

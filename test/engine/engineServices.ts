import { createRequire } from 'module';

interface Shutdownable {
	onShutdown(): void;
}
type ServiceClass = abstract new (...args: never[]) => Shutdownable;

/**
 * n8n-core's SSHClientsManager (a DI singleton every node execution context creates) starts a
 * 60 s cleanup interval that it only clears on process exit, so jest would never exit. Shut
 * it down after each test file. It lives in n8n-core's own @n8n/di container (n8n-core
 * depends on another @n8n/di version than ours) and is not exported, hence the requires.
 */
export function shutDownEngineServices(): void {
	const coreRequire = createRequire(require.resolve('n8n-core'));
	const { Container: coreContainer } = coreRequire('@n8n/di') as {
		Container: { has(type: ServiceClass): boolean; get(type: ServiceClass): Shutdownable };
	};
	const { SSHClientsManager } = coreRequire('./execution-engine/ssh-clients-manager') as {
		SSHClientsManager: ServiceClass;
	};
	if (coreContainer.has(SSHClientsManager)) coreContainer.get(SSHClientsManager).onShutdown();
}

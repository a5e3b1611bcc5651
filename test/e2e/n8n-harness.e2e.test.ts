/**
 * Proves the real-n8n harness on both n8n lines with n8n's own nodes, and that the packed
 * package (and a throw-away probe package) load as community packages.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	N8N_LINES,
	REPO_ROOT,
	loadWorkflow,
	nodeOutput,
	packPackage,
	readManifest,
	startN8n,
	type CredentialJson,
	type N8nInstance,
	type PackedPackage,
} from './harness';

const WORKFLOWS_DIR = join(__dirname, 'workflows');
const PROBE_PACKAGE_DIR = join(__dirname, 'fixtures', 'n8n-nodes-e2e-probe');

const webhookHeader = { name: 'X-E2E-Token', value: 'e2e-secret-token' };
const credentials: CredentialJson[] = [
	{
		id: 'e2eHeaderAuth0001',
		name: 'e2e webhook header',
		type: 'httpHeaderAuth',
		data: webhookHeader,
	},
];
const workflows = ['manual-code', 'webhook-greeting', 'manual-resolve-probe'].map((name) =>
	loadWorkflow(join(WORKFLOWS_DIR, `${name}.json`)),
);

let packDir: string;
let gatewayPackage: PackedPackage;
let probePackage: PackedPackage;

beforeAll(async () => {
	packDir = mkdtempSync(join(process.env.MG_E2E_RUN_DIR ?? tmpdir(), 'mg-e2e-pack-'));
	gatewayPackage = await packPackage(packDir, REPO_ROOT);
	probePackage = await packPackage(packDir, PROBE_PACKAGE_DIR);
});

afterAll(() => {
	if (packDir) rmSync(packDir, { recursive: true, force: true });
});

test('the package ships no runtime dependencies (n8n installs them with scripts off; it provides zod and n8n-workflow)', () => {
	expect(readManifest(REPO_ROOT).dependencies ?? {}).toEqual({});
});

describe.each(N8N_LINES)('n8n line %s.x', (line) => {
	let n8n: N8nInstance | undefined;

	beforeAll(async () => {
		n8n = await startN8n({
			line,
			packages: [gatewayPackage.tarball, probePackage.tarball],
			credentials,
			workflows,
		});
	});

	afterAll(async () => {
		await n8n?.stop();
	});

	function running(): N8nInstance {
		if (!n8n) throw new Error('n8n did not start');
		return n8n;
	}

	test('runs a manual workflow and returns each node’s output', async () => {
		const { execution } = await running().runManualWorkflow('manualcode');

		expect(execution.status).toBe('success');
		expect(execution.mode).toBe('manual');
		expect(nodeOutput(execution, 'Squares')).toEqual([
			{ n: 1, square: 1 },
			{ n: 2, square: 4 },
			{ n: 3, square: 9 },
		]);
	});

	test('serves an activated production webhook over real HTTP', async () => {
		const n8n = running();
		await n8n.activateWorkflow('webhookgreeting');
		await n8n.waitForWebhook('e2e-greeting', 'POST');
		const url = n8n.webhookUrl('e2e-greeting');

		const withoutCredential = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body: JSON.stringify({ name: 'nobody' }),
		});
		expect(withoutCredential.status).toBe(403);

		const response = await fetch(url, {
			method: 'POST',
			headers: { 'content-type': 'application/json', [webhookHeader.name]: webhookHeader.value },
			body: JSON.stringify({ name: 'Ada' }),
		});
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ greeting: 'hello Ada', received: { name: 'Ada' } });

		const [execution] = await n8n.waitForExecutions('webhookgreeting', 1);
		expect(execution.mode).toBe('webhook');
		expect(execution.status).toBe('success');
		expect(nodeOutput(execution, 'Webhook')[0]).toMatchObject({ body: { name: 'Ada' } });
		expect(nodeOutput(execution, 'Greeting')).toEqual([
			{ greeting: 'hello Ada', received: { name: 'Ada' } },
		]);
	});

	test('loads every node and credential the packed package declares', async () => {
		const n8n = running();
		const nodeTypes = await n8n.loadedNodeTypes();
		const credentialTypes = await n8n.loadedCredentialTypes();

		// The probe package proves the community-package install path itself works.
		expect(nodeTypes).toContain(`${probePackage.name}.resolveProbe`);
		// Community node types are "<package name>.<node name>"; credential types have no prefix.
		const declared = declaredNodeTypes(gatewayPackage);
		const loaded = nodeTypes.filter((type) => type.startsWith(`${gatewayPackage.name}.`));
		expect(loaded).toEqual(expect.arrayContaining(declared));
		// n8n adds a "<node>Tool" variant of every node that is usable as an AI tool; nothing else.
		const declaredOrToolVariant = new Set(declared.flatMap((type) => [type, `${type}Tool`]));
		expect(loaded.filter((type) => !declaredOrToolVariant.has(type))).toEqual([]);
		expect(credentialTypes).toEqual(
			expect.arrayContaining(declaredCredentialTypes(gatewayPackage)),
		);
	});

	test('every n8n-workflow value the built package uses exists in this line’s n8n-workflow', () => {
		// The package compiles against one n8n-workflow but runs on n8n's own copy, which differs
		// per line (1.x's sleepWithAbort, for one, is gone in 2.x).
		const used = new Set<string>();
		const scan = (dir: string): void => {
			for (const entry of readdirSync(dir, { withFileTypes: true })) {
				const path = join(dir, entry.name);
				if (entry.isDirectory()) scan(path);
				else if (entry.name.endsWith('.js')) {
					for (const match of readFileSync(path, 'utf8').matchAll(/n8n_workflow_\d+\.(\w+)/g))
						used.add(match[1]);
				}
			}
		};
		scan(join(REPO_ROOT, 'dist'));
		expect(used.size).toBeGreaterThan(3);
		// Asked of n8n's own Node.js, as n8n loads it.
		const { installation } = running();
		const exported = JSON.parse(
			execFileSync(
				installation.nodeBinary,
				['-e', "process.stdout.write(JSON.stringify(Object.keys(require('n8n-workflow'))))"],
				{ cwd: installation.dir, encoding: 'utf8' },
			),
		) as string[];
		expect([...used].filter((name) => !exported.includes(name))).toEqual([]);
	});

	test('a community package without dependencies gets n8n’s own zod and n8n-workflow', async () => {
		const n8n = running();
		const { execution } = await n8n.runManualWorkflow('manualresolveprobe');
		const [probe] = nodeOutput(execution, 'Resolve Probe');
		const n8nModules = join(n8n.installation.dir, 'node_modules');

		expect(probe.parsed).toEqual({ answer: 42 });
		for (const when of ['atLoad', 'atExecute'] as const) {
			const resolved = probe[when] as Record<string, { resolvedPath?: string; version?: string }>;
			expect(resolved.zod.resolvedPath?.startsWith(n8nModules)).toBe(true);
			expect(resolved['n8n-workflow'].resolvedPath?.startsWith(n8nModules)).toBe(true);
		}
		// Which copy and version each line hands out, for the record.
		process.stderr.write(
			`[e2e] n8n ${n8n.installation.version}, community package: ${JSON.stringify(probe.atExecute)}\n`,
		);
	});
});

/** `<package>.<description.name>` of every node file listed in package.json (from the built dist/). */
function declaredNodeTypes(pkg: PackedPackage): string[] {
	return pkg.n8n.nodes.map((file) => `${pkg.name}.${describeBuiltClass(file).name}`);
}

function declaredCredentialTypes(pkg: PackedPackage): string[] {
	return pkg.n8n.credentials.map((file) => describeBuiltClass(file).name);
}

/** Instantiates the class a built node/credential file exports under its file's base name. */
function describeBuiltClass(file: string): { name: string } {
	const className =
		file
			.split('/')
			.pop()
			?.replace(/\.(node|credentials)\.js$/, '') ?? '';
	const exported = require(join(REPO_ROOT, file)) as Record<string, new () => object>;
	const Class = exported[className];
	if (!Class) throw new Error(`${file} does not export ${className}`);
	const instance = new Class() as { name?: string; description?: { name: string } };
	const name = instance.description?.name ?? instance.name;
	if (!name) throw new Error(`${file}: ${className} has no name`);
	return { name };
}

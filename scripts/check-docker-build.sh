#!/usr/bin/env bash
# No Docker engine runs on these machines, so this replays what the Dockerfile does in a temp
# directory: the files it COPYs exist, `npm ci` + `npm run build` + `npm prune --omit=dev` succeed,
# and the pruned runtime tree starts as the ENTRYPOINT would and passes the HEALTHCHECK probe.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
data=$(mktemp -d)
trap 'if [ -n "${pid:-}" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi; rm -rf "$work" "$data"' EXIT

# Every COPY source (outside --from stages) must exist in the build context.
grep -E '^COPY ' "$root/Dockerfile" | grep -v -- '--from=' | while read -r _ rest; do
  set -- $rest
  for src in "${@:1:$(($# - 1))}"; do
    [ -e "$root/$src" ] || { echo "Dockerfile copies missing path: $src" >&2; exit 1; }
  done
done

echo "build stage"
mkdir -p "$work/build"
cp "$root/package.json" "$root/package-lock.json" "$root/tsconfig.json" "$root/tsconfig.build.json" "$work/build/"
mkdir -p "$work/build/scripts" && cp "$root/scripts/copy-assets.mjs" "$work/build/scripts/"
cp -r "$root/src" "$work/build/src"
(cd "$work/build" && npm ci --no-audit --no-fund --loglevel=error && npm run build --silent && npm prune --omit=dev --no-audit --no-fund --loglevel=error)

echo "runtime stage"
mkdir -p "$work/app"
cp -r "$work/build/node_modules" "$work/build/dist" "$work/app/"
cp -r "$root/package.json" "$root/config" "$root/examples" "$root/bin" "$work/app/"
port=$((20000 + RANDOM % 20000))
# exec: $! must be node itself, not a subshell, or the EXIT trap would orphan the server.
(cd "$work/app" && NODE_ENV=production ENCLAVE_HOST=127.0.0.1 ENCLAVE_PORT=$port ENCLAVE_DATA_DIR="$data" ENCLAVE_LOG_LEVEL=warn exec node dist/main.js >"$work/out.log" 2>&1) &
pid=$!
for _ in $(seq 1 100); do
  if ENCLAVE_PORT=$port node -e "fetch('http://127.0.0.1:'+(process.env.ENCLAVE_PORT||8080)+'/_enclave/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"; then
    grep -q '^ENCLAVE_ADMIN_KEY=enc_' "$work/out.log" || { echo "no admin key printed" >&2; cat "$work/out.log" >&2; exit 1; }
    (cd "$work/app" && ENCLAVE_DATA_DIR="$data" node bin/enclave.js --help >/dev/null)
    echo "docker build replay: OK (healthcheck passed on port $port)"
    exit 0
  fi
  sleep 0.2
done
echo "the runtime tree did not become healthy" >&2
cat "$work/out.log" >&2
exit 1

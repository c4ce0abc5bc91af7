#!/usr/bin/env bash
# No Docker engine runs on these machines, so this replays what the Dockerfile does in a temp
# directory: the files it COPYs exist, `npm ci` + `npm run build` + `npm prune --omit=dev` succeed,
# and the pruned runtime tree starts as the ENTRYPOINT would and passes the HEALTHCHECK probe —
# as the image's non-root uid (when this runs as root), with the tree read-only and HOME and TMPDIR
# in empty directories that must stay empty (the image runs with a read-only root: only /data is
# written), and with `enclave` resolving on PATH the way the image links it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fail() { echo "$*" >&2; exit 1; }

# The runtime user: numeric, not root, and the owner of /data.
uid=$(grep -E '^USER ' "$root/Dockerfile" | tail -1 | sed -E 's/^USER ([0-9]+).*/\1/')
case "$uid" in ''|*[!0-9]*) fail "the runtime USER must be a numeric uid" ;; esac
[ "$uid" != 0 ] || fail "the runtime USER must not be root"
grep -qE "chown $uid:[0-9]+ /data" "$root/Dockerfile" || fail "/data is not chowned to the runtime uid $uid"
# git (agent jobs) and tini (the init) are installed in the runtime stage; git must work here too.
grep -qE 'apt-get install .*\btini\b' "$root/Dockerfile" || fail "the Dockerfile does not install tini"
grep -qE 'apt-get install .*\bgit\b' "$root/Dockerfile" || fail "the Dockerfile does not install git"
grep -q '"/usr/bin/tini", "--"' "$root/Dockerfile" || fail "the entrypoint does not run behind tini"
# The agent sandbox launcher: compiled in the build stage (gcc there only), copied to the runtime.
runtime_stage=$(sed -n '/^FROM .* AS runtime/,$p' "$root/Dockerfile")
sed -n '/^FROM .* AS build/,/^FROM .* AS runtime/p' "$root/Dockerfile" | grep -qE 'apt-get install .*\bgcc\b' || fail "the build stage does not install gcc (the agent sandbox launcher)"
! grep -qE 'apt-get install .*\bgcc\b' <<<"$runtime_stage" || fail "the runtime stage must not install a compiler"
grep -qE '^COPY --from=build /app/build/enclave-sandbox \./build/enclave-sandbox' <<<"$runtime_stage" || fail "the runtime stage does not copy build/enclave-sandbox"
command -v git >/dev/null || fail "git is missing on this machine"
command -v tini >/dev/null || echo "note: tini is not installed on this machine; the image installs it (checked above)"
grep -qE 'ln -s /app/bin/enclave.js /usr/local/bin/enclave' "$root/Dockerfile" || fail "the image does not put enclave on PATH"
work=$(mktemp -d)
data=$(mktemp -d)
trap 'if [ -n "${pid:-}" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi; chmod -R u+w "$work" 2>/dev/null || true; rm -rf "$work" "$data"' EXIT

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
mkdir -p "$work/build/scripts" && cp "$root/scripts/build-dist.mjs" "$root/scripts/copy-assets.mjs" "$root/scripts/build-sandbox.mjs" "$work/build/scripts/"
cp -r "$root/src" "$root/native" "$work/build/"
(cd "$work/build" && npm ci --no-audit --no-fund --ignore-scripts --loglevel=error && npm run build --silent && npm prune --omit=dev --no-audit --no-fund --loglevel=error)

echo "runtime stage"
mkdir -p "$work/app" "$work/home" "$work/tmp" "$work/pathbin"
cp -r "$work/build/node_modules" "$work/build/dist" "$work/app/"
[ -x "$work/build/build/enclave-sandbox" ] || fail "npm run build did not compile build/enclave-sandbox"
mkdir -p "$work/app/build" && cp "$work/build/build/enclave-sandbox" "$work/app/build/"
cp -r "$root/package.json" "$root/config" "$root/examples" "$root/bin" "$work/app/"
# As the image links it: `enclave` on PATH pointing into the app.
ln -s "$work/app/bin/enclave.js" "$work/pathbin/enclave"
# Read-only root: nothing in the app tree may be written; only the data directory.
chmod -R a-w "$work/app"
chmod -R a+rX "$work"
as_user=()
if [ "$(id -u)" = 0 ]; then
  chown "$uid:$uid" "$data" "$work/home" "$work/tmp"
  as_user=(setpriv --reuid="$uid" --regid="$uid" --clear-groups)
else
  echo "note: not root; the runtime steps run as $(id -u) instead of the image's uid $uid"
fi
touch "$work/marker"
sleep 1
port=$((20000 + RANDOM % 20000))
runtime_env=(env -i PATH="$work/pathbin:/usr/local/bin:/usr/bin:/bin" HOME="$work/home" TMPDIR="$work/tmp" NODE_ENV=production ENCLAVE_HOST=127.0.0.1 ENCLAVE_PORT=$port ENCLAVE_DATA_DIR="$data" ENCLAVE_LOG_LEVEL=warn)
# The entrypoint with no arguments serves. exec: $! must be the server itself, or the EXIT trap
# would orphan it.
(cd "$work/app" && exec "${as_user[@]}" "${runtime_env[@]}" "$(command -v node)" --version >/dev/null)
# The launcher enforces a Landlock ruleset as the runtime uid (a Docker seccomp profile that blocked
# the landlock syscalls would show here as exit 69 — on a real engine, not in this replay).
probe=$("${as_user[@]}" "$work/app/build/enclave-sandbox" --probe) || fail "build/enclave-sandbox --probe failed as uid $uid: Landlock unavailable?"
(cd "$work/app" && exec "${as_user[@]}" "${runtime_env[@]}" sh bin/docker-entrypoint.sh >"$work/out.log" 2>&1) &
pid=$!
healthy=
for _ in $(seq 1 150); do
  # Healthy and its key printed: the listener may answer a moment before the key line is written.
  if ENCLAVE_PORT=$port node -e "fetch('http://127.0.0.1:'+(process.env.ENCLAVE_PORT||8080)+'/_enclave/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))" \
    && grep -q '^ENCLAVE_ADMIN_KEY=enc_' "$work/out.log"; then healthy=1; break; fi
  sleep 0.2
done
[ -n "$healthy" ] || { cat "$work/out.log" >&2; fail "the runtime tree did not become healthy"; }
grep -q '^ENCLAVE_ADMIN_KEY=enc_' "$work/out.log" || { cat "$work/out.log" >&2; fail "no admin key printed"; }
# `enclave` on PATH, through the entrypoint's `enclave …` form too, managing the running server.
(cd / && "${as_user[@]}" "${runtime_env[@]}" enclave --version | grep -q '^enclave ') || fail "enclave is not on PATH in the pruned tree"
(cd "$work/app" && "${as_user[@]}" "${runtime_env[@]}" sh bin/docker-entrypoint.sh enclave keys list | grep -q 'initial admin key') || fail "docker-entrypoint.sh enclave keys list did not list the keys of the running server"
# Let first start's sample export finish writing before judging where things were written.
for _ in $(seq 1 150); do
  curl_ok=$(node -e "fetch('http://127.0.0.1:$port/').then(r=>process.exit(r.status===200?0:1),()=>process.exit(1))" && echo yes || true)
  [ -n "$curl_ok" ] && break
  sleep 0.2
done
kill -TERM "$pid"; wait "$pid" || true; pid=
outside=$(find "$work/home" "$work/tmp" -mindepth 1 -print -quit)
[ -z "$outside" ] || { ls -laR "$work/home" "$work/tmp" >&2; fail "files were written outside the data directory: $outside"; }
written=$(find "$work/app" -newer "$work/marker" -print -quit)
[ -z "$written" ] || fail "the app tree was written to: $written"
echo "docker build replay: OK (healthcheck passed on port $port; uid $uid, read-only tree, enclave on PATH, agent sandbox: $probe)"
exit 0

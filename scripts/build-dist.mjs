#!/usr/bin/env node
// Compiles src/ to dist/ (tsc, then the non-TypeScript assets) and stamps it, so that
// bin/enclave.js runs the compiled CLI (a tenth of a second instead of seconds through tsx)
// for as long as the stamp is newer than every file under src/.
// `npm run build` runs it; so does the root `prepare` script, i.e. `npm install` / `npm ci` in a
// checkout. With --if-possible it says why and exits 0 when src/ or TypeScript is missing (the
// image's `npm ci` runs before src/ is copied in; `npm ci --omit=dev` has no TypeScript) or the
// build fails: an install never fails for it.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
const ifPossible = process.argv.includes('--if-possible');

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
} catch {
  tsc = null;
}
const missing = !existsSync(join(root, 'src')) ? 'src/' : !tsc ? 'TypeScript' : null;
if (missing) {
  console.error(`build-dist: no ${missing} here; dist/ is not built`);
  process.exit(ifPossible ? 0 : 1);
}

// Stamped with the time the build started: a source saved during the build makes it stale.
const started = new Date();
// Rebuilt from empty, so a file deleted from src/ does not live on in dist/.
rmSync(dist, { recursive: true, force: true });
const steps = [[tsc, '-p', 'tsconfig.build.json'], [join(root, 'scripts', 'copy-assets.mjs')]];
for (const args of steps) {
  const run = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) {
    rmSync(dist, { recursive: true, force: true });
    console.error(`build-dist: ${args.join(' ')} failed; dist/ removed (bin/enclave.js runs the sources through tsx)`);
    // At install a failed build must not fail `npm install`: the CLI still runs, only slower.
    process.exit(ifPossible ? 0 : 1);
  }
}
const stamp = join(dist, '.build-stamp');
writeFileSync(stamp, `${started.toISOString()}\n`);
utimesSync(stamp, started, started);

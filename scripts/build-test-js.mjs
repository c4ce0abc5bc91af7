#!/usr/bin/env node
// Compiles src/ and test/ to JavaScript under build/test-js/ (esbuild, one file in, one file out,
// no bundling), for `npm test` to run the suite from (scripts/test.mjs). Through tsx every test
// file, export worker, worker thread and child appliance paid about a second of CPU to load its
// TypeScript; run from JavaScript they don't, and that second times ~1000 processes was a third
// of the suite's CPU. typecheck and lint keep checking the .ts sources; `npx ava <file>` keeps
// running them through tsx.
//
// The tree keeps the layout the code finds its files by: build/test-js/src/config/loadConfig.js
// reads ../../config/default.json, so the top-level files and folders the sources read (config/,
// docs/, examples/, package.json, build/enclave-sandbox) are linked in beside src/ and test/.
// Everything in src/ and test/ that isn't TypeScript (fixtures, theme assets, .mjs) is copied.
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
/** Where the compiled tree goes (git-ignored with the rest of build/). */
export const TEST_JS_DIR = join(root, 'build', 'test-js');
const LINKED = ['config', 'docs', 'examples', 'package.json', 'bin', 'native'];

/** Every file under `dir`, absolute. */
function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** Builds build/test-js/ from empty; returns how many files were compiled. */
export function buildTestJs() {
  rmSync(TEST_JS_DIR, { recursive: true, force: true });
  const files = ['src', 'test'].flatMap((dir) => filesUnder(join(root, dir)));
  const typescript = files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'));
  buildSync({
    entryPoints: typescript,
    outdir: TEST_JS_DIR,
    outbase: root,
    bundle: false,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Stack traces of a failing test point at the .ts lines (node --enable-source-maps).
    sourcemap: 'inline',
    // The class-field semantics tsc gives these sources (target ES2022), as tsx did.
    tsconfigRaw: { compilerOptions: { target: compilerOptions.target, useDefineForClassFields: true } },
    logLevel: 'warning',
  });
  for (const file of files) {
    if (file.endsWith('.ts')) continue;
    const to = join(TEST_JS_DIR, relative(root, file));
    mkdirSync(join(to, '..'), { recursive: true });
    cpSync(file, to);
  }
  for (const name of LINKED) symlinkSync(join(root, name), join(TEST_JS_DIR, name));
  // The agent sandbox launcher (scripts/build-sandbox.mjs) is found at ../../../build/enclave-sandbox.
  mkdirSync(join(TEST_JS_DIR, 'build'));
  symlinkSync(join(root, 'build', 'enclave-sandbox'), join(TEST_JS_DIR, 'build', 'enclave-sandbox'));
  return typescript.length;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const count = buildTestJs();
  console.log(`build-test-js: ${count} files compiled to ${relative(root, TEST_JS_DIR)}/ in ${Math.round(performance.now() - started)} ms`);
}

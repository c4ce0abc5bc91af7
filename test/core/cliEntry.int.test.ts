import { execFileSync } from 'node:child_process';
import { copyFile, mkdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { projectRoot } from '../helpers/spawnAppliance.js';
import { makeTempDir } from '../helpers/testAppliance.js';

// bin/enclave.js picks the compiled build or the sources by modification times; these tests set
// the times explicitly (utimes), so they never depend on the clock or on how long a step took.

const OLD = new Date('2026-01-01T00:00:00Z');
const NEW = new Date('2026-01-02T00:00:00Z');
const NEWER = new Date('2026-01-03T00:00:00Z');

/** A tree shaped like a checkout: bin/enclave.js, a src/ and a dist/ whose CLIs say which they are. */
async function checkout(t: { teardown(fn: () => Promise<void>): void }): Promise<string> {
  const dir = await makeTempDir('enclave-entry-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, 'bin'));
  await copyFile(join(projectRoot, 'bin', 'enclave.js'), join(dir, 'bin', 'enclave.js'));
  await symlink(join(projectRoot, 'node_modules'), join(dir, 'node_modules'));
  await writeFile(join(dir, 'package.json'), '{"type":"module"}');
  const cli = (which: string) => `export async function runCli(): Promise<number> { process.stdout.write('${which}'); return 0; }\n`;
  await mkdir(join(dir, 'src', 'cli'), { recursive: true });
  await writeFile(join(dir, 'src', 'cli', 'enclave.ts'), cli('sources'));
  await mkdir(join(dir, 'dist', 'cli'), { recursive: true });
  await writeFile(join(dir, 'dist', 'cli', 'enclave.js'), cli('compiled').replace(': Promise<number>', ''));
  await writeFile(join(dir, 'dist', '.build-stamp'), '');
  return dir;
}

const run = (dir: string) => execFileSync(process.execPath, [join(dir, 'bin', 'enclave.js')], { encoding: 'utf8' });

async function age(dir: string, times: { sources: Date; stamp: Date }): Promise<void> {
  for (const path of ['src/cli/enclave.ts', 'src/cli', 'src']) await utimes(join(dir, path), times.sources, times.sources);
  await utimes(join(dir, 'dist', '.build-stamp'), times.stamp, times.stamp);
}

test('a dist/ built after the last source change is run; an edit after the build runs the sources', async (t) => {
  const dir = await checkout(t);
  await age(dir, { sources: OLD, stamp: NEW });
  t.is(run(dir), 'compiled');
  await age(dir, { sources: NEW, stamp: OLD });
  t.is(run(dir), 'sources', 'a source newer than the build');
  await age(dir, { sources: OLD, stamp: NEW });
  await utimes(join(dir, 'src', 'cli'), NEWER, NEWER);
  t.is(run(dir), 'sources', 'a folder changed after the build (a file added or deleted)');
});

test('without a build stamp the sources run; without src/ (the image) the compiled build runs', async (t) => {
  const dir = await checkout(t);
  await rm(join(dir, 'dist', '.build-stamp'));
  t.is(run(dir), 'sources');
  await rm(join(dir, 'src'), { recursive: true });
  t.is(run(dir), 'compiled');
});

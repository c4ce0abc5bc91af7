/**
 * Are two builds' exports the same? A refactoring must not change a single byte of a bundle, and
 * reading diffs can't show that; this driver can. It exports docs folders through one checkout's
 * real export worker (forked, as the queue runs it), then compares two such runs entry by entry.
 *
 *   npx tsx scripts/compare-exports.ts export --repo /tmp/base --out /tmp/before [--spare] DOCS_DIR…
 *   npx tsx scripts/compare-exports.ts export --repo . --out /tmp/after [--spare] DOCS_DIR…
 *   npx tsx scripts/compare-exports.ts compare /tmp/before /tmp/after
 *
 * `--repo` is the checkout whose worker runs (so a build of an older commit can be exported with
 * this script); `--spare` runs each export in a worker warmed up ahead for that folder, as the
 * queue's spare worker is, so the tokenizer-thread path is exercised too. Every run uses the same
 * job id, clock and generator version, so bundles from two builds can be equal to the byte; the
 * manifest is still compared without its `createdAt` and `jobId`, so runs of real jobs compare too.
 *
 * Mind the machine's load: the highlighter gives one line at most 500 ms (LINE_TIME_LIMIT_MS in
 * render/code/tokenizeLines.ts) and leaves a line that takes longer plain, so on a starved
 * machine two exports by the same build can differ in a few code lines. Compare on an idle
 * machine, or raise that limit by the same amount in both checkouts for the comparison.
 */
import AdmZip from 'adm-zip';
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

/** Fixed inputs of every export, so two builds render the same site the same way. */
const JOB = { jobId: 'compare-exports', now: '2026-01-02T03:04:05.000Z', generatorVersion: '0.0.0-compare' };
const MANIFEST = '_enclave/manifest.json';
/** How long a spare gets to warm up before its job is sent anyway. */
const WARM_WAIT_MS = 60_000;

interface WorkerModule {
  runExportInChild(input: unknown, options: { timeoutMs: number; worker?: unknown }): Promise<{ file: string; pageCount: number }>;
  ExportWorkerProcess: new () => { warmUp(languages: string[], sources: string[]): void; warmed: unknown; kill(): void };
}

/** Exports each docs folder into `<out>/<folder name>/` with the worker of the checkout at `repo`. */
async function exportAll(repo: string, out: string, sources: string[], spare: boolean): Promise<void> {
  const workerModule = pathToFileURL(join(resolve(repo), 'src/features/exports/worker/exportChildProcess.ts')).href;
  const { runExportInChild, ExportWorkerProcess } = (await import(workerModule)) as WorkerModule;
  for (const source of sources) {
    const name = basename(resolve(source));
    const bundleDir = join(out, name);
    await rm(bundleDir, { recursive: true, force: true });
    await mkdir(bundleDir, { recursive: true });
    const worker = spare ? new ExportWorkerProcess() : null;
    if (worker) {
      worker.warmUp([], [resolve(source)]);
      for (const until = Date.now() + WARM_WAIT_MS; worker.warmed === null && Date.now() < until; )
        await new Promise((r) => setTimeout(r, 100));
    }
    const started = Date.now();
    const workDir = join(out, `.work-${name}`);
    const result = await runExportInChild(
      {
        sourceDir: resolve(source),
        ref: null,
        workDir,
        runDir: join(workDir, 'run'),
        bundleDir,
        now: JOB.now,
        render: { domain: 'compare.example.com', jobId: JOB.jobId, generatorVersion: JOB.generatorVersion, strict: false, threads: 0 },
      },
      { timeoutMs: 30 * 60_000, worker },
    );
    console.log(`${name}: ${result.pageCount} pages → ${join(bundleDir, result.file)} (${Date.now() - started} ms)`);
  }
}

/** The one zip in an export's folder. */
async function zipIn(dir: string): Promise<string> {
  const zips = (await readdir(dir)).filter((f) => f.endsWith('.zip'));
  if (zips.length !== 1) throw new Error(`expected one zip in ${dir}, found ${zips.length}`);
  return join(dir, zips[0]);
}

/** The manifest without what differs between any two jobs (when and as which job it was made). */
function comparableManifest(bytes: Buffer): string {
  const { createdAt: _createdAt, jobId: _jobId, ...rest } = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
  return JSON.stringify(rest);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Differences between two zips' entries (names, order, bytes); empty when they hold the same files. */
function compareZips(before: AdmZip, after: AdmZip): string[] {
  const problems: string[] = [];
  const names = (zip: AdmZip) => zip.getEntries().map((e) => e.entryName);
  const [a, b] = [names(before), names(after)];
  for (const name of a) if (!b.includes(name)) problems.push(`only before: ${name}`);
  for (const name of b) if (!a.includes(name)) problems.push(`only after: ${name}`);
  if (!problems.length && a.join('\n') !== b.join('\n')) problems.push('same entries in another order');
  for (const name of a.filter((n) => b.includes(n))) {
    const [x, y] = [before.getEntry(name)!.getData(), after.getEntry(name)!.getData()];
    const same = name === MANIFEST ? comparableManifest(x) === comparableManifest(y) : x.equals(y);
    if (!same) problems.push(`differs: ${name} (${x.length} vs ${y.length} bytes)`);
  }
  return problems;
}

/** Compares every export under `beforeDir` with the one of the same name under `afterDir`; true when all match. */
async function compareAll(beforeDir: string, afterDir: string): Promise<boolean> {
  let allSame = true;
  const names = (await readdir(beforeDir, { withFileTypes: true })).filter((e) => e.isDirectory() && !e.name.startsWith('.'));
  for (const { name } of names) {
    const [x, y] = [await zipIn(join(beforeDir, name)), await zipIn(join(afterDir, name))];
    const [zx, zy] = [new AdmZip(x), new AdmZip(y)];
    const problems = compareZips(zx, zy);
    const wholeZip = sha256(await readFile(x)) === sha256(await readFile(y)) ? 'zip files identical' : 'zip containers differ';
    console.log(
      `${name}: ${zx.getEntries().length} entries, ${problems.length ? `${problems.length} differences` : 'all identical'}; ${wholeZip}`,
    );
    for (const p of problems.slice(0, 20)) console.log(`  ${p}`);
    allSame &&= problems.length === 0;
  }
  return allSame && names.length > 0;
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { repo: { type: 'string', default: '.' }, out: { type: 'string' }, spare: { type: 'boolean', default: false } },
});
const [command, ...rest] = positionals;
if (command === 'export' && values.out && rest.length) {
  await exportAll(values.repo, resolve(values.out), rest, values.spare);
} else if (command === 'compare' && rest.length === 2) {
  process.exitCode = (await compareAll(resolve(rest[0]), resolve(rest[1]))) ? 0 : 1;
} else {
  console.error('usage: compare-exports.ts export --repo DIR --out DIR [--spare] DOCS_DIR… | compare BEFORE_DIR AFTER_DIR');
  process.exitCode = 2;
}

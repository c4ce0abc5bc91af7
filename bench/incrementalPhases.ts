// npx tsx bench/incrementalPhases.ts [--pages N | --corpus DIR --edit FILE] [--edit title] [--profile FILE]
// Where the time of a one-page change goes, in-process and without the HTTP server: a first export
// of the synthetic site fills the incremental cache and a first version is installed; then one
// page's body is edited and the second export is timed by stage (render and assemble, zip) and
// installed beside the first (deploy). --edit title renames that page instead (every sidebar
// shows its title, so every page is assembled again). --cold times (and profiles) a full export
// (`full: true`, highlighting cache removed) after a first one, as bench:incremental's cold case
// does, and stops there. --corpus copies DIR instead and edits its FILE. `sync -f`
// is timed alone after the install: the install's durability step, which flushes the whole file system. With --profile, a V8 CPU profile of the second export's
// render and zip is written to FILE and its heaviest functions (self time) are printed.
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createZipSink } from '../src/bundle/zip/createZipSink.js';
import { PreviousBundle } from '../src/bundle/zip/PreviousBundle.js';
import { installBundleVersion } from '../src/features/deployments/installBundleVersion.js';
import { takeSourceStats } from '../src/features/exports/worker/sourceStats.js';
import { renderSite } from '../src/render/index.js';

const arg = (name: string) => process.argv.flatMap((a, i) => (process.argv[i - 1] === name ? [a] : []))[0];
const PAGES = Number(arg('--pages') ?? 10_000);
const profileFile = arg('--profile');
const work = mkdtempSync(join(tmpdir(), 'enclave-bench-phases-'));
const limits = { maxBundleBytes: 2 ** 40, maxEntries: 1_000_000, maxExtractedBytes: 2 ** 40, maxCompressionRatio: 1000 };

/** One export into `zip` (reusing `previous`'s entries), timed: render (with assembly) and zip. */
async function exportOnce(source: string, zip: string, previous: string | null, session: Session | null, full = false) {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  // As the export worker does: the stats taken before the read say which files needn't be read.
  const sourceStats = await takeSourceStats(source, work);
  const prev = previous ? await PreviousBundle.open(previous) : null;
  const out = createZipSink({ thread: true, spillPath: `${zip}.spill`, previous: prev });
  if (session) {
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const result = await renderSite({
    sourceDir: source,
    out,
    domain: 'phases.bench',
    jobId: 'job',
    now: new Date('2026-11-27T00:00:00Z'),
    generatorVersion: 'bench',
    cacheDir: join(work, 'cache', 'render'),
    incremental: { dir: join(work, 'cache', 'pages'), full },
    sourceStats,
  });
  const rendered = performance.now();
  await out.finish(zip, new Date('2026-11-27T00:00:00Z'));
  const zipped = performance.now();
  const cpu = process.cpuUsage(cpuBefore);
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(profileFile!, JSON.stringify(profile));
    printHeaviest(profile);
  }
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return {
    render: (rendered - started) / 1000,
    zip: (zipped - rendered) / 1000,
    cpuSeconds,
    result,
    reusedEntries: out.reusedEntries(),
    copiedRuns: out.copiedRuns(),
  };
}

/** The 25 functions with the most self time in a CPU profile. */
function printHeaviest(profile: {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples?: number[];
  timeDeltas?: number[];
}) {
  const self = new Map<number, number>();
  for (const [i, id] of (profile.samples ?? []).entries()) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas?.[i] ?? 0));
  const byName = new Map<string, number>();
  for (const node of profile.nodes) {
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(src|node_modules)\//, '$1/')}:${f.lineNumber + 1}`;
    byName.set(key, (byName.get(key) ?? 0) + (self.get(node.id) ?? 0));
  }
  for (const [name, us] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`);
}

try {
  const source = join(work, 'site');
  const corpus = arg('--corpus');
  if (corpus) cpSync(resolve(corpus), source, { recursive: true });
  else execFileSync(process.execPath, [resolve('../shared/bin/gen-corpus.mjs'), source, String(PAGES)], { stdio: 'ignore' });
  // A real site's files are older than the racy second (see takeSourceStats): so are these.
  await new Promise((resolve) => setTimeout(resolve, 1100));
  if (process.argv.includes('--cold')) await coldExport(source);
  else await changeOnePage(source);
} finally {
  rmSync(work, { recursive: true, force: true });
}

/** --cold: a first export, then a full one (`full: true`, no highlighting cache), timed and (with --profile) profiled. */
async function coldExport(source: string) {
  await exportOnce(source, join(work, 'v0.zip'), null, null);
  rmSync(join(work, 'cache', 'render'), { recursive: true, force: true });
  const session = profileFile ? new Session() : null;
  session?.connect();
  const cold = await exportOnce(source, join(work, 'v1.zip'), null, session, true);
  console.log(
    `cold export: render ${cold.render.toFixed(2)} s, zip ${cold.zip.toFixed(2)} s, CPU ${cold.cpuSeconds.toFixed(2)} s (all threads); load ${loadavg()[0].toFixed(1)}`,
  );
}

/** A first export and install, then one page's body (or title) changed, exported and installed again. */
async function changeOnePage(source: string) {
  const first = await exportOnce(source, join(work, 'v1.zip'), null, null);
  const versions = join(work, 'versions');
  let t = performance.now();
  await installBundleVersion(join(work, 'v1.zip'), versions, 'v1', limits, null);
  console.log(
    `first export: render ${first.render.toFixed(2)} s, zip ${first.zip.toFixed(2)} s, install ${((performance.now() - t) / 1000).toFixed(2)} s`,
  );
  const edit = arg('--edit') === 'title' ? undefined : arg('--edit');
  const retitle = arg('--edit') === 'title';
  const section = join(source, 'part-1', 'section-1');
  const page = edit
    ? join(source, edit)
    : join(
        section,
        readdirSync(section)
          .filter((n) => n.endsWith('.mdx'))
          .sort()[0],
      );
  if (retitle) writeFileSync(page, readFileSync(page, 'utf8').replace(/^title: "([^"]*)"/m, 'title: "$1 renamed"'));
  else appendFileSync(page, '\nAn edited sentence for the benchmark.\n');
  const session = profileFile ? new Session() : null;
  session?.connect();
  const second = await exportOnce(source, join(work, 'v2.zip'), join(work, 'v1.zip'), session);
  t = performance.now();
  const installed = await installBundleVersion(join(work, 'v2.zip'), versions, 'v2', limits, null, { liveId: 'v1' });
  const install = (performance.now() - t) / 1000;
  t = performance.now();
  execFileSync('sync', ['-f', versions]);
  console.log(`sync -f alone: ${((performance.now() - t) / 1000).toFixed(2)} s`);
  console.log(
    `${retitle ? 'one title' : 'one body'} changed: render ${second.render.toFixed(2)} s (reused ${second.result.reusedPages}, rendered ${second.result.renderedPages}, copied unassembled ${second.result.copiedPages}), zip ${second.zip.toFixed(2)} s (${second.reusedEntries} entries and ${second.copiedRuns} deflate runs copied), install ${install.toFixed(2)} s (${installed.linkedFiles} of ${installed.fileCount} files linked); export CPU ${second.cpuSeconds.toFixed(2)} s (all threads); load ${loadavg()[0].toFixed(1)}`,
  );
}

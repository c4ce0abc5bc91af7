// npx tsx bench/deployPhases.ts [--pages N] [--work DIR] [--rounds N] [--links] [--inline]
// Where a deploy's time goes, phase by phase, in-process (no HTTP, no export worker). The
// synthetic site is exported four times with the real renderer and zip sink (incremental, as an
// export job would): v1, then nothing changed (a new job id), one page's body changed, and one
// page's title changed (the pages of its section differ). Each zip is then installed over the one
// before it as the live version, the way SiteDeployer does: sha256 of the zip, the install's own
// steps (reported by installBundleVersion's `phase`), loading the version table, and the first
// serve of the changed page (read through the version table). Wall and CPU (user + system) time
// per phase; CPU time is the steadier figure on a shared machine. With --work DIR the site and
// the zips are kept there and reused by the next run (delete DIR to start afresh). --links
// installs with hard links to unchanged files (the earlier way) instead of a layered version.
// Changed files are compressed as SiteDeployer does: INLINE_COMPRESS_BYTES before the switch,
// the rest after it (settleVariants, timed as its own phase after "first serve" and left out of
// the total to served); --inline compresses everything before the switch (the earlier way).
// A fifth export changes the site's name in docs.json, so every page differs ("every page").
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createZipSink } from '../src/bundle/zip/createZipSink.js';
import { PreviousBundle } from '../src/bundle/zip/PreviousBundle.js';
import { installBundleVersion } from '../src/features/deployments/installBundleVersion.js';
import { loadSiteVersion } from '../src/features/deployments/loadSiteVersion.js';
import { settleVariants } from '../src/features/deployments/settleVariants.js';
import { INLINE_COMPRESS_BYTES } from '../src/features/deployments/VariantSettler.js';
import { VerifiedVariants } from '../src/features/deployments/VerifiedVariants.js';
import { createLogger } from '../src/platform/logging/createLogger.js';
import { sha256OfFile } from '../src/platform/sha256OfFile.js';
import { renderSite } from '../src/render/index.js';

const arg = (name: string) => process.argv.flatMap((a, i) => (process.argv[i - 1] === name ? [a] : []))[0];
const PAGES = Number(arg('--pages') ?? 10_000);
const ROUNDS = Number(arg('--rounds') ?? 1);
const kept = arg('--work');
const work = kept ? resolve(kept) : mkdtempSync(join(tmpdir(), 'enclave-bench-deploy-'));
const limits = { maxBundleBytes: 2 ** 40, maxEntries: 1_000_000, maxExtractedBytes: 2 ** 40, maxCompressionRatio: 1000 };
const NOW = new Date('2026-11-27T00:00:00Z');

/** One incremental export of `source` into `zip`, reusing `previous`'s entries, as job `jobId`. */
async function exportOnce(source: string, zip: string, previous: string | null, jobId: string): Promise<void> {
  const prev = previous ? await PreviousBundle.open(previous) : null;
  const out = createZipSink({ thread: true, spillPath: `${zip}.spill`, previous: prev });
  await renderSite({
    sourceDir: source,
    out,
    domain: 'phases.bench',
    jobId,
    now: NOW,
    generatorVersion: 'bench',
    cacheDir: join(work, 'cache', 'render'),
    incremental: { dir: join(work, 'cache', 'pages') },
  });
  await out.finish(zip, NOW);
}

/** The five zips, made once per work folder. */
async function makeZips(): Promise<void> {
  if (existsSync(join(work, 'title.zip'))) return makeEveryPageZip();
  mkdirSync(work, { recursive: true });
  const source = join(work, 'site');
  rmSync(source, { recursive: true, force: true });
  execFileSync(process.execPath, [resolve('../shared/bin/gen-corpus.mjs'), source, String(PAGES)], { stdio: 'ignore' });
  const section = join(source, 'part-1', 'section-1');
  const page = join(
    section,
    readdirSync(section)
      .filter((n) => n.endsWith('.mdx'))
      .sort()[0],
  );
  console.log(`exporting ${PAGES} pages four times (edited page: ${page})`);
  await exportOnce(source, join(work, 'v1.zip'), null, 'job-1');
  await exportOnce(source, join(work, 'nothing.zip'), join(work, 'v1.zip'), 'job-2');
  appendFileSync(page, '\nAn edited sentence for the benchmark.\n');
  await exportOnce(source, join(work, 'body.zip'), join(work, 'nothing.zip'), 'job-3');
  writeFileSync(page, readFileSync(page, 'utf8').replace(/^title: "(.*)"$/m, 'title: "$1 (renamed)"'));
  await exportOnce(source, join(work, 'title.zip'), join(work, 'body.zip'), 'job-4');
  await makeEveryPageZip();
}

/** The fifth zip: the site's name changed, which every page shows. */
async function makeEveryPageZip(): Promise<void> {
  if (existsSync(join(work, 'every.zip'))) return;
  const config = join(work, 'site', 'docs.json');
  writeFileSync(config, readFileSync(config, 'utf8').replace('"Synthetic Docs"', '"Synthetic Docs (renamed)"'));
  await exportOnce(join(work, 'site'), join(work, 'every.zip'), join(work, 'title.zip'), 'job-5');
}

type Row = { phase: string; wall: number; cpu: number };
const logger = createLogger('warn');
/** One deployer's memo of checked variants, as SiteDeployer keeps. */
const verified = new VerifiedVariants();
/** Phases after the version is served: reported, not counted in the total to served. */
const AFTER = 'after the switch: settle variants';

/** Deploys `zip` as version `id` over `liveId`, timing each phase; `probe` is a path served afterwards. */
async function deployTimed(zip: string, versions: string, id: string, liveId: string | undefined, probe: string): Promise<Row[]> {
  const rows: Row[] = [];
  let wall = performance.now();
  let cpu = process.cpuUsage();
  const phase = (name: string) => {
    const used = process.cpuUsage(cpu);
    rows.push({ phase: name, wall: performance.now() - wall, cpu: (used.user + used.system) / 1000 });
    wall = performance.now();
    cpu = process.cpuUsage();
  };
  await sha256OfFile(zip);
  phase('zip sha256');
  const installed = await installBundleVersion(zip, versions, id, limits, null, {
    liveId,
    phase,
    layered: !process.argv.includes('--links'),
    inlineBudget: process.argv.includes('--inline') ? undefined : INLINE_COMPRESS_BYTES,
  });
  changed.set(id, installed.fileCount - installed.linkedFiles);
  const version = await loadSiteVersion(id, installed.layout, installed, verified);
  phase('version table');
  const served = version.file(probe);
  if (!served) throw new Error(`${probe} is not served`);
  await readFile(served.br?.absPath ?? served.identity.absPath);
  phase('first serve');
  await settleVariants(version, installed.layout.extras, { stop: () => false, logger, verified });
  phase(AFTER);
  return rows;
}

/** Files each version wrote rather than took from the one before. */
const changed = new Map<string, number>();
await makeZips();
const probe = readdirSync(join(work, 'site', 'part-1', 'section-1'))
  .filter((n) => n.endsWith('.mdx'))
  .sort()[0]
  .replace(/\.mdx$/, '.html');
const cases = [
  { name: 'nothing changed', zip: 'nothing.zip' },
  { name: 'one body changed', zip: 'body.zip' },
  { name: 'one title changed', zip: 'title.zip' },
  { name: 'every page changed', zip: 'every.zip' },
];
for (let round = 0; round < ROUNDS; round++) {
  const versions = join(work, `versions-${process.pid}-${round}`);
  try {
    await deployTimed(join(work, 'v1.zip'), versions, 'v1', undefined, `part-1/section-1/${probe}`);
    let live = 'v1';
    const table: Record<string, Row[]> = {};
    for (const c of cases) {
      const id = c.zip.replace('.zip', '');
      table[c.name] = await deployTimed(join(work, c.zip), versions, id, live, `part-1/section-1/${probe}`);
      live = id;
    }
    const phases = table[cases[0].name].map((r) => r.phase);
    console.log(`\nround ${round + 1}, load average ${loadavg()[0].toFixed(1)}; ms wall / ms CPU`);
    console.log(`| phase | ${cases.map((c) => c.name).join(' | ')} |`);
    console.log(`|---|${cases.map(() => '---').join('|')}|`);
    console.log(`| files written | ${cases.map((c) => changed.get(c.zip.replace('.zip', ''))).join(' | ')} |`);
    for (const p of [...phases.filter((n) => n !== AFTER), 'total to served', AFTER]) {
      const cell = (c: (typeof cases)[number]) => {
        const rows = table[c.name].filter((r) => (p === 'total to served' ? r.phase !== AFTER : r.phase === p));
        const sum = (k: 'wall' | 'cpu') => rows.reduce((s, r) => s + r[k], 0).toFixed(0);
        return `${sum('wall')} / ${sum('cpu')}`;
      };
      console.log(`| ${p} | ${cases.map(cell).join(' | ')} |`);
    }
  } finally {
    rmSync(versions, { recursive: true, force: true });
  }
}
if (!kept) rmSync(work, { recursive: true, force: true });

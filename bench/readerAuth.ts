// npm run bench:reader-auth — what reader sign-in costs. (1) Serving: one page of a site with a
// password, requested by a signed-in reader, against the same page with sign-in off, on
// 127.0.0.1 with 10 connections, in BENCH_ROUNDS (5) alternating rounds of BENCH_SECONDS (4) s;
// the ratio is the median of the per-round ratios. (2) Export: the synthetic 1,000-page site
// rendered in-process as it is and with access marks giving three audiences (public, signed-in,
// one group: a third of the pages each), alternating, BENCH_EXPORT_ROUNDS (3) times each.
// Ends with one table of the two ratios (medians) against its targets: serving ≥ 0.9×,
// export ≤ 1.15×. Figures on a loaded machine say little; run it on a quiet one.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ExecutionContext } from 'ava';
import { openFolderSink } from '../src/bundle/openFolderSink.js';
import { hashPassword } from '../src/platform/passwordHash.js';
import { renderSite } from '../src/render/renderSite.js';
import { startTestAppliance } from '../test/helpers/testAppliance.js';
import { renderFilesAndZip } from '../test/render/renderFixture.js';
import { READER_ACCESS_SITE } from '../test/readerAuth/readerAccessSite.js';
import { printTable, runAutocannon } from './runAutocannon.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 4);
const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
const exportRounds = Number(process.env.BENCH_EXPORT_ROUNDS ?? 3);
const work = mkdtempSync(join(tmpdir(), 'enclave-bench-reader-'));
const cleanups: (() => Promise<void>)[] = [];
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function benchServing(): Promise<number> {
  const suite = { teardown: (fn: () => Promise<void>) => void cleanups.push(fn) } as unknown as ExecutionContext;
  const { src, zip } = await renderFilesAndZip(suite, READER_ACCESS_SITE);
  const app = await startTestAppliance();
  cleanups.push(() => app.close());
  const site = { domain: 'docs.example.com', source: src, ref: null, projectId: app.projectId, createdAt: new Date().toISOString() };
  const password = 'bench password 1';
  const on = { ...site, auth: { mode: 'password' as const, passwordHash: hashPassword(password) } };
  await app.control.sites.upsert(on);
  await app.features.deployments.activateBundleFile(zip, { source: 'bench' });
  const signIn = await fetch(`${app.url}/_enclave/auth/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ password, returnTo: '/' }).toString(),
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0];
  const url = `${app.url}/team/notes`;
  const rows: (string | number)[][] = [];
  const ratios: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    await app.control.sites.upsert(site);
    const off = await runAutocannon({ url, seconds, connections: 10 });
    await app.control.sites.upsert(on);
    const signed = await runAutocannon({ url, seconds, connections: 10, headers: { cookie } });
    if (off.non2xx || signed.non2xx) throw new Error(`non-2xx answers: off ${off.non2xx}, signed in ${signed.non2xx}`);
    ratios.push(signed.rps / off.rps);
    rows.push([round, Math.round(off.rps), Math.round(signed.rps), (signed.rps / off.rps).toFixed(3), off.p99, signed.p99]);
  }
  printTable(['round', 'auth off req/s', 'signed in req/s', 'ratio', 'off p99 ms', 'signed p99 ms'], rows);
  console.log(`serving: signed-in / auth-off requests per second, median of ${rounds} rounds: ${median(ratios).toFixed(3)}×\n`);
  return median(ratios);
}

/** Marks a third of the corpus's pages public and a third for one group (the rest need a signed-in reader). */
function markPages(dir: string): number {
  let n = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const path = join(d, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.mdx')) {
        const mark = n % 3 === 0 ? 'public: true' : n % 3 === 1 ? 'groups: ["oncall"]' : '';
        n++;
        if (mark) writeFileSync(path, readFileSync(path, 'utf8').replace(/^---\n/, `---\n${mark}\n`));
      }
    }
  };
  walk(dir);
  return n;
}

async function benchExport(): Promise<number> {
  const generator = resolve('../shared/bin/gen-corpus.mjs');
  const plainDir = join(work, 'plain');
  const markedDir = join(work, 'marked');
  execFileSync(process.execPath, [generator, plainDir, '1000'], { stdio: 'ignore' });
  execFileSync(process.execPath, [generator, markedDir, '1000'], { stdio: 'ignore' });
  const pages = markPages(markedDir);
  const once = async (dir: string, i: number) => {
    const out = join(work, `out-${i}`);
    const started = performance.now();
    const result = await renderSite({
      sourceDir: dir,
      out: await openFolderSink(out),
      domain: 'docs.example.com',
      jobId: `b${i}`,
      now: new Date(),
      generatorVersion: 'bench',
    });
    const ms = performance.now() - started;
    rmSync(out, { recursive: true, force: true });
    return { ms, audiences: result.report.access?.audiences.length ?? 0 };
  };
  await once(plainDir, 0); // warm-up: the first render loads the renderer and highlighter
  const rows: (string | number)[][] = [];
  const ratios: number[] = [];
  for (let round = 1; round <= exportRounds; round++) {
    const plain = await once(plainDir, round * 2);
    const marked = await once(markedDir, round * 2 + 1);
    ratios.push(marked.ms / plain.ms);
    rows.push([round, (plain.ms / 1000).toFixed(2), (marked.ms / 1000).toFixed(2), marked.audiences, (marked.ms / plain.ms).toFixed(3)]);
  }
  printTable(['round', 'no marks s', `${pages} pages, marked s`, 'audiences', 'ratio'], rows);
  console.log(`export: with per-audience files / without, median of ${exportRounds} rounds: ${median(ratios).toFixed(3)}×\n`);
  return median(ratios);
}

try {
  const serve = await benchServing();
  const exported = await benchExport();
  printTable(
    ['measure (same run)', 'median ratio', 'issue target', 'met'],
    [
      [`serve: signed-in / auth off req/s (${rounds} rounds)`, serve.toFixed(3), '≥ 0.900', serve >= 0.9 ? 'yes' : 'no'],
      [`export: 3 audiences / none, 1,000 pages (${exportRounds} rounds)`, exported.toFixed(3), '≤ 1.150', exported <= 1.15 ? 'yes' : 'no'],
    ],
  );
} finally {
  for (const fn of cleanups.reverse()) await fn();
}

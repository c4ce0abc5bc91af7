/**
 * Renders each docs folder given on the command line into a temporary folder and prints what
 * a renderer change must not regress: pages rendered/expected, pages that fell back, unknown
 * components, broken internal links and missing images. Broken links and missing images are
 * always listed in full (page → target, and why), so each can be checked against the source.
 * It also lists pages no tab bar, menu, switcher or sidebar links to, and pages whose text
 * shows Markdown that was never rendered.
 *   npm run conformance -- ../shared/corpora/starter ../shared/corpora/mcp
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { openFolderSink } from '../src/bundle/openFolderSink.js';
import { renderSite } from '../src/render/index.js';
import { checkNavReachability } from './conformance/checkNavReachability.js';
import { findRawMarkdown } from './conformance/findRawMarkdown.js';

const dirs = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const verbose = process.argv.includes('--verbose');
if (dirs.length === 0) {
  console.error('usage: npm run conformance -- <docs dir>… [--verbose]');
  process.exit(2);
}
let problems = 0;
for (const dir of dirs) {
  const out = await mkdtemp(join(tmpdir(), 'enclave-conformance-'));
  const started = performance.now();
  try {
    const r = await renderSite({
      sourceDir: resolve(dir),
      out: await openFolderSink(join(out, 'site')),
      domain: 'docs.example.com',
      jobId: 'conformance',
      now: new Date(),
      generatorVersion: 'conformance',
    });
    const seconds = (performance.now() - started) / 1000;
    const rep = r.report;
    const limit = (list: string[]) =>
      verbose ? list : list.slice(0, 25).concat(list.length > 25 ? [`… ${list.length - 25} more (--verbose)`] : []);
    console.log(`\n== ${basename(resolve(dir))} (${dir})`);
    console.log(
      `pages rendered: ${rep.pages.rendered}/${rep.pages.expected} in ${seconds.toFixed(1)} s (${(r.pageCount / seconds).toFixed(0)} pages/s)`,
    );
    for (const f of rep.pages.failed) console.log(`  FAILED /${f.path}: ${f.reason}`);
    console.log(`declared by the navigation but not generated: ${rep.pages.missing}`);
    for (const m of rep.missingInputs) console.log(`  ${m.input} (${m.reason}): ${limit(m.pages).join(', ')}`);
    console.log(`pages that fell back: ${r.fallbackPages?.length ?? 0}`);
    for (const p of limit(r.fallbackPages ?? [])) console.log(`  ${p}`);
    const unknown = Object.entries(rep.unknownComponents).sort((a, b) => b[1] - a[1]);
    console.log(`unknown components: ${unknown.length ? unknown.map(([n, c]) => `${n}: ${c}`).join(', ') : 'none'}`);
    console.log(`broken internal links: ${rep.brokenLinks.length}`);
    for (const b of rep.brokenLinks) console.log(`  /${b.page} -> ${b.href}  (${b.reason})`);
    console.log(`missing images: ${rep.missingImages.length}`);
    for (const m of rep.missingImages) console.log(`  /${m.page} -> ${m.src}`);
    console.log(`warnings: ${rep.warnings.length}`);
    if (verbose) for (const w of rep.warnings) console.log(`  ${w.page ? `/${w.page}: ` : ''}${w.message}`);
    const nav = await checkNavReachability(resolve(dir), join(out, 'site'));
    console.log(
      `navigation entries not reachable from the tab bar, menus, switchers or sidebar: ${nav.unreachable.length} of ${nav.declared}`,
    );
    for (const page of limit(nav.unreachable)) console.log(`  ${page}`);
    console.log(`pages outside the navigation (reached by links only, as hosted): ${nav.outsideNavigation.length}`);
    if (verbose) for (const page of nav.outsideNavigation) console.log(`  ${page}`);
    const raw = await findRawMarkdown(join(out, 'site'));
    console.log(`pages with raw Markdown in their text: ${raw.length}`);
    for (const r of limit(raw.map((m) => `${m.page}: …${m.text}…`))) console.log(`  ${r}`);
    problems += rep.pages.failed.length + unknown.length + nav.unreachable.length + raw.length;
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
process.exitCode = problems ? 1 : 0;

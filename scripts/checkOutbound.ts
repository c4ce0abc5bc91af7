/**
 * The zero-outbound rule on real sites: exports each docs folder given on the command line,
 * opens every page in Chromium from file:// and from a plain static server on 127.0.0.1, and
 * counts requests to any other origin (each is aborted and listed), console errors, and what the
 * export removed (report.json `removedRemote`).
 *   npx tsx scripts/checkOutbound.ts ../shared/corpora/starter ../shared/corpora/mcp [--limit N]
 */
import { readdir, readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openFolderSink } from '../src/bundle/openFolderSink.js';
import { type BuildReport, renderSite } from '../src/render/index.js';
import { launchBrowser } from '../test/helpers/browser.js';
import { recordOffOrigin } from '../test/helpers/recordOffOrigin.js';
import { serveStaticFolder } from '../test/helpers/serveStaticFolder.js';

const args = process.argv.slice(2);
const limit = Number(args[args.indexOf('--limit') + 1]) || Infinity;
const dirs = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--limit');
if (dirs.length === 0) {
  console.error('usage: npx tsx scripts/checkOutbound.ts <docs dir>… [--limit N]');
  process.exit(2);
}

/** Every .html page of a bundle, bundle-relative. */
async function htmlPages(root: string, dir = root): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory() && e.name !== '_assets' && e.name !== '_enclave') out.push(...(await htmlPages(root, full)));
    else if (e.isFile() && e.name.endsWith('.html')) out.push(relative(root, full));
  }
  return out.sort();
}

const browser = await launchBrowser();
let failures = 0;
console.log('corpus          pages  removed  outbound file://  outbound http  console errors');
for (const dir of dirs) {
  const work = await mkdtemp(join(tmpdir(), 'enclave-outbound-'));
  const site = join(work, 'site');
  try {
    await renderSite({
      sourceDir: resolve(dir),
      out: await openFolderSink(site),
      domain: 'docs.example.com',
      jobId: 'outbound',
      now: new Date(),
      generatorVersion: 'outbound',
    });
    const report = JSON.parse(await readFile(join(site, '_enclave/report.json'), 'utf8')) as BuildReport;
    const pages = (await htmlPages(site)).slice(0, limit);
    const server = await serveStaticFolder(site);
    const counts: Record<string, number> = {};
    const errors: string[] = [];
    for (const [mode, base] of [
      ['file://', pathToFileURL(`${site}/`).href],
      ['http', server.url],
    ] as const) {
      const context = await browser.newContext();
      const { outbound } = await recordOffOrigin(context, mode === 'file://' ? 'file://' : server.url);
      // 404.html links from the server root (it is served at any depth), so only servers can show it.
      for (const rel of pages.filter((p) => mode === 'http' || p !== '404.html')) {
        // A tab per page: a redirect stub's meta refresh fires after `load` and would interrupt the next goto.
        const page = await context.newPage();
        page.on('console', (m) => {
          if (m.type() === 'error') errors.push(`${mode} ${page.url()}: ${m.text()}`);
        });
        await page.goto(new URL(rel.split('/').map(encodeURIComponent).join('/'), base).href, { waitUntil: 'load', timeout: 60_000 });
        await page.close();
      }
      counts[mode] = outbound.length;
      for (const url of new Set(outbound)) console.log(`  ${mode} outbound: ${url}`);
      await context.close();
    }
    await server.close();
    failures += counts['file://'] + counts.http;
    console.log(
      `${basename(dir).padEnd(14)} ${String(pages.length).padStart(6)} ${String(report.removedRemote.length).padStart(8)} ${String(counts['file://']).padStart(16)} ${String(counts.http).padStart(14)} ${String(errors.length).padStart(15)}`,
    );
    // Grouped by page: one page with hundreds of errors would otherwise hide every other page's.
    const byPage = new Map<string, string[]>();
    for (const e of errors) {
      const at = e.indexOf(': ');
      byPage.set(e.slice(0, at), [...(byPage.get(e.slice(0, at)) ?? []), e.slice(at + 2)]);
    }
    for (const [where, texts] of [...byPage].sort((a, b) => b[1].length - a[1].length).slice(0, 20))
      console.log(`  ${texts.length} × ${where}: ${texts[0].trim()}`);
    if (byPage.size > 20) console.log(`  … ${byPage.size - 20} more pages with console errors`);
    const kinds = new Map<string, number>();
    for (const r of report.removedRemote) kinds.set(`${r.kind} → ${r.action}`, (kinds.get(`${r.kind} → ${r.action}`) ?? 0) + 1);
    if (kinds.size) console.log(`  removed: ${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ')}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
await browser.close();
process.exit(failures === 0 ? 0 : 1);

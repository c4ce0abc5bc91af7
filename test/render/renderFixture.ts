import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ExecutionContext } from 'ava';
import type { BundleSink } from '../../src/bundle/BundleSink.js';
import { createZipSink } from '../../src/bundle/zip/createZipSink.js';
import { openFolderSink } from '../../src/bundle/openFolderSink.js';
import { renderSite, type RenderSiteOptions, type RenderSiteResult } from '../../src/render/renderSite.js';

/** Writes `files` (path → content) into a fresh temp docs folder, removed when the test ends. */
export async function writeDocs(t: ExecutionContext, files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'enclave-render-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const src = join(root, 'src');
  for (const [rel, content] of Object.entries(files)) {
    await mkdir(dirname(join(src, rel)), { recursive: true });
    await writeFile(join(src, rel), content);
  }
  await mkdir(src, { recursive: true });
  return src;
}

/** The fixed job metadata every fixture render uses, then `extra`. */
function renderInto(src: string, out: BundleSink, extra: Partial<RenderSiteOptions>): Promise<RenderSiteResult> {
  return renderSite({
    sourceDir: src,
    out,
    domain: 'docs.example.com',
    jobId: 'job-1',
    now: new Date('2026-03-04T05:06:07.000Z'),
    generatorVersion: '9.9.9',
    ...extra,
  });
}

/** Renders a docs folder into a sibling `out` folder with fixed job metadata. */
export async function renderDocs(src: string, extra: Partial<RenderSiteOptions> = {}): Promise<{ out: string; result: RenderSiteResult }> {
  const out = join(dirname(src), `out-${Math.random().toString(36).slice(2, 8)}`);
  const result = await renderInto(src, await openFolderSink(out), extra);
  return { out, result };
}

/** Renders an inline site into a folder and into a bundle zip beside it (browser tests serve one or deploy the other). */
export async function renderFilesAndZip(
  t: ExecutionContext,
  files: Record<string, string>,
  extra: Partial<RenderSiteOptions> = {},
): Promise<{ src: string; out: string; zip: string }> {
  const src = await writeDocs(t, files);
  const { out } = await renderDocs(src, extra);
  const sink = createZipSink();
  await renderInto(src, sink, extra);
  const zip = join(dirname(src), 'site.zip');
  await sink.finish(zip, new Date());
  return { src, out, zip };
}

/** Renders an inline site in one step. */
export async function renderFiles(t: ExecutionContext, files: Record<string, string>, extra: Partial<RenderSiteOptions> = {}) {
  const src = await writeDocs(t, files);
  return { src, ...(await renderDocs(src, extra)) };
}

/** Renders an inline site for a whole test file (from `test.before`); `remove` deletes it (from `test.after.always`). */
export async function renderFilesForSuite(
  files: Record<string, string>,
  extra: Partial<RenderSiteOptions> = {},
): Promise<{ src: string; out: string; result: RenderSiteResult; remove(): Promise<void> }> {
  const cleanup: (() => Promise<void>)[] = [];
  const suite = { teardown: (fn: () => Promise<void>) => void cleanup.push(fn) } as unknown as ExecutionContext;
  const src = await writeDocs(suite, files);
  const { out, result } = await renderDocs(src, extra);
  return {
    src,
    out,
    result,
    remove: async () => {
      for (const fn of cleanup) await fn();
    },
  };
}

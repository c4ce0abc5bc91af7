import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import type { ExecutionContext } from 'ava';
import type { RenderSiteOptions } from '../../src/render/renderSite.js';
import { renderDocs } from './renderFixture.js';

/** The folder holding the render fixtures (one small docs site per folder). */
export const FIXTURES_DIR = join(import.meta.dirname, 'fixtures');

/**
 * Renders `test/render/fixtures/<name>` from a temp copy (the render writes next to its source);
 * `edit` may change the copy first.
 */
export async function renderFixtureDir(
  t: ExecutionContext,
  name: string,
  extra: Partial<RenderSiteOptions> = {},
  edit?: (src: string) => Promise<void>,
) {
  const root = await mkdtemp(join(tmpdir(), `enclave-${name}-`));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  await cp(join(FIXTURES_DIR, name), join(root, 'src'), { recursive: true });
  await edit?.(join(root, 'src'));
  return renderDocs(join(root, 'src'), extra);
}

/** Every exported HTML page under `out`, as [path relative to out, html]. */
export async function exportedPages(out: string): Promise<[string, string][]> {
  const files = await readdir(out, { recursive: true });
  const pages = files.filter((f) => f.endsWith('.html')).sort();
  return Promise.all(
    pages.map(async (f): Promise<[string, string]> => [relative(out, join(out, f)), await readFile(join(out, f), 'utf8')]),
  );
}

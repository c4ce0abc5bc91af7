import anyTest, { type TestFn } from 'ava';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderDocs, renderFilesForSuite } from './renderFixture.js';

/** What every test of a browser suite gets: the rendered site's folder and one shared browser. */
export interface BrowserSuiteContext {
  out: string;
  browser: Browser;
  remove(): Promise<void>;
}

/**
 * The `test` of a file whose tests all look at one site in one browser: the site is rendered
 * from `files`, or from a copy of the fixture folder `source` names; both are made before the
 * first test and closed and removed after the last.
 */
export function browserSuite(source: Record<string, string> | string): TestFn<BrowserSuiteContext> {
  const test = anyTest as TestFn<BrowserSuiteContext>;
  test.before(async (t) => {
    const { out, remove } = typeof source === 'string' ? await renderFixtureCopy(source) : await renderFilesForSuite(source);
    t.context = { out, browser: await launchBrowser(), remove };
  });
  test.after.always(async (t) => {
    await t.context.browser?.close();
    await t.context.remove?.();
  });
  return test;
}

/** Renders a temp copy of a fixture folder (the renderer may write beside its source). */
async function renderFixtureCopy(fixture: string): Promise<{ out: string; remove(): Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'enclave-browser-suite-'));
  await cp(fixture, join(root, 'src'), { recursive: true });
  const { out } = await renderDocs(join(root, 'src'));
  return { out, remove: () => rm(root, { recursive: true, force: true }) };
}

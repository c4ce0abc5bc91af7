import anyTest, { type TestFn } from 'ava';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.js';
import { renderFilesForSuite } from './renderFixture.js';

/** What every test of a browser suite gets: the rendered site's folder and one shared browser. */
export interface BrowserSuiteContext {
  out: string;
  browser: Browser;
  remove(): Promise<void>;
}

/**
 * The `test` of a file whose tests all look at one site rendered from `files` in one browser:
 * both are made before the first test and closed and removed after the last.
 */
export function browserSuite(files: Record<string, string>): TestFn<BrowserSuiteContext> {
  const test = anyTest as TestFn<BrowserSuiteContext>;
  test.before(async (t) => {
    const { out, remove } = await renderFilesForSuite(files);
    t.context = { out, browser: await launchBrowser(), remove };
  });
  test.after.always(async (t) => {
    await t.context.browser?.close();
    await t.context.remove?.();
  });
  return test;
}

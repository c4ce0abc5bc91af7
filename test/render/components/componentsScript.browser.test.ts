import test from 'ava';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { toHtml } from 'hast-util-to-html';
import { chromium, type Browser } from 'playwright-core';
import type { ElementContent } from '../../../src/render/types.js';
import { builtInComponents } from '../../../src/render/components/index.js';
import { createCodeHighlighter } from '../../../src/render/code/createCodeHighlighter.js';
import { featureAssets } from '../../../src/render/components/featureAssets.js';
import { fakeRenderContext } from './fakeRenderContext.js';

// A real browser drives components.js from file://, as a downloaded bundle would be opened.
const CHROMIUM = '/usr/bin/chromium';
const assetsDir = fileURLToPath(new URL('../../../src/render/components/assets/', import.meta.url));
const run = existsSync(CHROMIUM) ? test.serial : test.skip;

let browser: Browser | undefined;
test.before(async () => {
  if (existsSync(CHROMIUM)) browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});
test.after.always(async () => {
  await browser?.close();
});

/** Writes a page with the given body, components.css/js (and optionally mermaid) into a temp dir; returns its file:// URL. */
async function writePage(body: string, withMermaid = false): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'enclave-script-'));
  await mkdir(path.join(dir, '_assets'));
  await copyFile(`${assetsDir}components.css`, path.join(dir, '_assets/components.css'));
  await copyFile(`${assetsDir}components.js`, path.join(dir, '_assets/components.js'));
  let mermaidTag = '';
  if (withMermaid) {
    const [m] = featureAssets('mermaid');
    await mkdir(path.join(dir, '_assets/mermaid'));
    await copyFile(m.source, path.join(dir, m.target));
    mermaidTag = `<script src="${m.target}"></script>`;
  }
  await writeFile(
    path.join(dir, 'index.html'),
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>t</title><link rel="stylesheet" href="_assets/components.css"></head><body>${body}<script src="_assets/components.js"></script>${mermaidTag}</body></html>`,
  );
  return pathToFileURL(path.join(dir, 'index.html')).href;
}

async function codeTabsPage(): Promise<string> {
  const h = await createCodeHighlighter({});
  const ctx = fakeRenderContext();
  const group = (n: number) =>
    builtInComponents.CodeGroup(
      {},
      [
        h.highlight({ lang: 'bash', meta: 'npm', value: `npm install x${n}` }, ctx),
        h.highlight({ lang: 'bash', meta: 'yarn', value: `yarn add x${n}` }, ctx),
        h.highlight({ lang: 'bash', meta: 'pnpm', value: `pnpm add x${n}` }, ctx),
      ],
      ctx,
    ) as ElementContent;
  const long = h.highlight({ lang: 'text', meta: 'expandable', value: Array.from({ length: 30 }, (_, i) => `row ${i}`).join('\n') }, ctx);
  const tip = builtInComponents.Tooltip({ tip: 'hint text' }, [{ type: 'text', value: 'term' }], ctx) as ElementContent;
  const views = ['Python', 'Node'].map(
    (title) =>
      builtInComponents.View(
        { title },
        [{ type: 'element', tagName: 'p', properties: { className: ['v'] }, children: [{ type: 'text', value: `${title} body` }] }],
        ctx,
      ) as ElementContent,
  );
  return writePage([group(1), group(2), long, tip, ...views].map((n) => toHtml(n as never)).join('\n'));
}

const selectedLabels = () =>
  Array.from(document.querySelectorAll('[role="tab"][aria-selected="true"]')).map((b) => b.getAttribute('data-label'));
const visiblePanels = () =>
  Array.from(document.querySelectorAll('[role="tabpanel"]:not([hidden])')).map((p) => p.getAttribute('data-label'));

run('tabs switch on click, stay in sync across the page, and are remembered after reload', async (t) => {
  const page = await browser!.newPage();
  await page.goto(await codeTabsPage());
  t.deepEqual(await page.evaluate(selectedLabels), ['npm', 'npm']);
  await page.locator('[role="tab"][data-label="yarn"]').first().click();
  t.deepEqual(await page.evaluate(selectedLabels), ['yarn', 'yarn']);
  t.deepEqual(await page.evaluate(visiblePanels), ['yarn', 'yarn']);
  await page.reload();
  t.deepEqual(await page.evaluate(selectedLabels), ['yarn', 'yarn'], 'the choice survives a reload');
  await page.close();
});

run('arrow keys, Home and End move between tabs with roving focus', async (t) => {
  const page = await browser!.newPage();
  await page.goto(await codeTabsPage());
  await page.locator('[role="tab"][data-label="npm"]').first().focus();
  await page.keyboard.press('ArrowRight');
  t.is(await page.evaluate(() => document.activeElement?.getAttribute('data-label')), 'yarn');
  t.deepEqual(await page.evaluate(selectedLabels), ['yarn', 'yarn']);
  await page.keyboard.press('End');
  t.is(await page.evaluate(() => document.activeElement?.getAttribute('data-label')), 'pnpm');
  await page.keyboard.press('ArrowRight');
  t.is(await page.evaluate(() => document.activeElement?.getAttribute('data-label')), 'npm', 'wraps around');
  t.deepEqual(
    await page.evaluate(() =>
      Array.from(document.querySelectorAll('[role="tab"]'))
        .slice(0, 3)
        .map((b) => (b as HTMLElement).tabIndex),
    ),
    [0, -1, -1],
  );
  await page.close();
});

run('copy buttons copy the code, expandable code opens, tooltips show on focus, views switch', async (t) => {
  const page = await browser!.newPage();
  await page.goto(await codeTabsPage());
  // Record what gets copied, whichever clipboard path the script takes.
  await page.evaluate(() => {
    (window as unknown as { copied: string[] }).copied = [];
    document.addEventListener('copy', () => (window as unknown as { copied: string[] }).copied.push(String(document.getSelection())));
    navigator.clipboard.writeText = (text: string) => {
      (window as unknown as { copied: string[] }).copied.push(text);
      return Promise.resolve();
    };
  });
  await page.locator('[data-enclave-copy]').first().click();
  await page.waitForSelector('[data-enclave-copy][data-copied]');
  t.deepEqual(await page.evaluate(() => (window as unknown as { copied: string[] }).copied), ['npm install x1']);

  const figure = page.locator('figure.expandable');
  t.true(await figure.evaluate((f) => f.classList.contains('collapsed')));
  await page.locator('[data-enclave-expand]').click();
  t.false(await figure.evaluate((f) => f.classList.contains('collapsed')));
  t.is(await page.locator('[data-enclave-expand]').getAttribute('aria-expanded'), 'true');

  t.false(await page.locator('[role="tooltip"]').isVisible());
  await page.locator('.enclave-tooltip-trigger').focus();
  t.true(await page.locator('[role="tooltip"]').isVisible());
  await page.keyboard.press('Escape');
  t.false(await page.locator('[role="tooltip"]').isVisible(), 'Escape dismisses');

  t.deepEqual(
    await page.evaluate(() =>
      Array.from(document.querySelectorAll('p.v'))
        .filter((p) => (p as HTMLElement).offsetParent !== null)
        .map((p) => p.textContent),
    ),
    ['Python body'],
  );
  await page.selectOption('#enclave-view-select', 'Node');
  t.deepEqual(
    await page.evaluate(() =>
      Array.from(document.querySelectorAll('p.v'))
        .filter((p) => (p as HTMLElement).offsetParent !== null)
        .map((p) => p.textContent),
    ),
    ['Node body'],
  );
  await page.close();
});

run('mermaid diagrams render from the bundled library and re-render when the theme flips', async (t) => {
  const ctx = fakeRenderContext();
  const diagram = toHtml(builtInComponents.Mermaid({ chart: 'graph TD; A-->B' }, [], ctx) as never);
  const page = await browser!.newPage();
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(await writePage(diagram, true));
  await page.waitForSelector('[data-enclave-mermaid][data-rendered] svg', { timeout: 20_000 });
  const first = await page.locator('.enclave-mermaid-svg svg').getAttribute('id');
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
  await page.waitForFunction((old) => document.querySelector('.enclave-mermaid-svg svg')?.getAttribute('id') !== old, first, {
    timeout: 20_000,
  });
  t.is(await page.locator('.enclave-mermaid-svg').count(), 1, 'the old rendering is replaced, not duplicated');
  t.deepEqual(
    requests.filter((u) => !u.startsWith('file:')),
    [],
    'no request leaves the bundle',
  );
  await page.close();
});

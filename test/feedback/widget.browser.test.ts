import test, { type ExecutionContext } from 'ava';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import type { SiteRequest } from '../../src/http/SiteRequestHandler.js';
import type { Browser, Page } from 'playwright-core';
import { renderFilesAndZip } from '../render/renderFixture.js';
import { launchBrowser } from '../helpers/browser.js';
import { makeTempDir, startTestAppliance } from '../helpers/testAppliance.js';
import { startFeedbackHarness } from './feedbackHarness.js';

const DOMAIN = 'feedback-docs.test';

/** Where the widget runs: a URL serving the rendered site, and the analytics API behind it. */
interface ServedDocs {
  url: string;
  feedback(): Promise<Entry[]>;
}

/** A tiny docs source with a code block, rendered by the real renderer into a folder and into a zip. */
function renderDocs(t: ExecutionContext): Promise<{ src: string; out: string; zip: string }> {
  const docsJson = {
    name: 'Feedback Docs',
    theme: 'mint',
    colors: { primary: '#16A34A' },
    navigation: { groups: [{ group: 'Start', pages: ['index', 'guides/start'] }] },
  };
  return renderFilesAndZip(
    t,
    {
      'docs.json': JSON.stringify(docsJson),
      'index.mdx': '---\ntitle: Welcome\n---\n\nHello readers.\n',
      'guides/start.mdx':
        '---\ntitle: Getting started\n---\n\nInstall it:\n\n```bash install.sh\nnpm install enclave\n```\n\nThen run it.\n',
    },
    { domain: DOMAIN },
  );
}

/** The whole appliance: the bundle packed and activated by the deployment module, as in production. */
async function deployedDocs(t: ExecutionContext): Promise<ServedDocs> {
  const { src, zip } = await renderDocs(t);
  const app = await startTestAppliance({ serveSample: false });
  t.teardown(() => app.close());
  await app.control.sites.upsert({ domain: DOMAIN, source: src, ref: null, projectId: app.projectId, createdAt: new Date().toISOString() });
  await app.features.deployments.activateBundleFile(zip, { source: 'test' });
  return {
    url: app.url,
    feedback: async () => ((await (await app.api(`/v1/analytics/${app.projectId}/feedback`)).json()) as { feedback: Entry[] }).feedback,
  };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** The rendered output served by Enclave's app next to the feedback module (no deployment step). */
async function renderedDocs(t: ExecutionContext): Promise<ServedDocs> {
  const { out } = await renderDocs(t);
  async function serveRendered({ path, res }: SiteRequest): Promise<void> {
    const rel = normalize(decodeURIComponent(path)).replace(/^\/+/, '');
    for (const candidate of rel.startsWith('..') ? [] : [rel, `${rel}.html`, join(rel, 'index.html')]) {
      try {
        const body = await readFile(join(out, candidate || 'index.html'));
        // X-Enclave-Site: the mark the appliance's site handler sends, which the widget looks for.
        res.writeHead(200, {
          'Content-Type': TYPES[extname(candidate || 'index.html')] ?? 'application/octet-stream',
          'X-Enclave-Site': '1',
        });
        res.end(body);
        return;
      } catch {
        // try the next form of the path
      }
    }
    res.writeHead(404).end();
  }
  const h = await startFeedbackHarness({ siteHandler: serveRendered, pages: ['/', '/guides/start'] });
  t.teardown(() => h.close());
  return { url: h.url, feedback: async () => ((await (await h.api('/feedback')).json()) as { feedback: Entry[] }).feedback };
}

const SERVERS = { deployed: deployedDocs, 'rendered output': renderedDocs };

interface Entry {
  path: string;
  source: string;
  helpful?: boolean;
  comment: string | null;
  contact?: string | null;
  code?: string;
  filename?: string | null;
  lang?: string | null;
}

async function openPage(browser: Browser, url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return { page, errors };
}

for (const [label, serve] of Object.entries(SERVERS)) {
  test(`${label}: page rating: "No", a comment and an e-mail, keyboard only → the analytics API returns it`, async (t) => {
    const app = await serve(t);
    const browser = await launchBrowser();
    t.teardown(() => browser.close());
    const { page, errors } = await openPage(browser, `${app.url}/guides/start`);
    const no = page.getByRole('button', { name: 'No', exact: true });
    await no.waitFor({ timeout: 15_000 });
    t.is(await page.getByText('Was this page helpful?').count(), 1);
    await no.focus();
    await page.keyboard.press('Enter');
    t.is(await no.getAttribute('aria-pressed'), 'true');
    await page.keyboard.type('Step 2 <b>is</b> missing');
    await page.getByLabel(/e-mail/i).fill('reader@example.com');
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('status').filter({ hasText: 'Thank you' }).first().waitFor({ timeout: 10_000 });
    const [entry] = await app.feedback();
    t.like(entry, {
      source: 'contextual',
      path: '/guides/start',
      helpful: false,
      comment: 'Step 2 <b>is</b> missing',
      contact: 'reader@example.com',
    });
    t.deepEqual(errors, []);
  });

  test(`${label}: code-snippet feedback on a code block → stored with code, filename and lang`, async (t) => {
    const app = await serve(t);
    const browser = await launchBrowser();
    t.teardown(() => browser.close());
    const { page, errors } = await openPage(browser, `${app.url}/guides/start`);
    const button = page.locator('figure[data-enclave-code] .enclave-code-feedback-button').first();
    await button.waitFor({ timeout: 15_000 });
    await button.click();
    t.is(await button.getAttribute('aria-expanded'), 'true');
    await page.getByLabel('What is wrong with this code? (optional)').fill('needs sudo');
    await page.locator('.enclave-code-feedback').getByRole('button', { name: 'Send' }).click();
    await page.getByText('Thank you for your feedback on this code.').waitFor({ timeout: 10_000 });
    const [entry] = await app.feedback();
    t.is(entry.source, 'code_snippet');
    t.is(entry.path, '/guides/start');
    t.is(entry.comment, 'needs sudo');
    t.true(entry.code!.includes('npm install enclave'));
    t.is(entry.lang, 'bash');
    t.is(entry.filename, 'install.sh');
    t.deepEqual(errors, []);
  });

  test(`${label}: the control stays hidden where no Enclave answers (file://) and never throws`, async (t) => {
    const app = await serve(t);
    const browser = await launchBrowser();
    t.teardown(() => browser.close());
    const html = await (await fetch(`${app.url}/guides/start`)).text();
    const dir = await makeTempDir('enclave-fb-file-');
    t.teardown(() => rm(dir, { recursive: true, force: true }));
    await writeFile(join(dir, 'page.html'), html);
    const { page, errors } = await openPage(browser, `file://${join(dir, 'page.html')}`);
    await page.waitForTimeout(500);
    t.is(await page.getByText('Was this page helpful?').count(), 0);
    t.is(await page.locator('.enclave-code-feedback-button').count(), 0);
    t.deepEqual(errors, []);
  });
}

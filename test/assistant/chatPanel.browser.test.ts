import anyTest, { type TestFn } from 'ava';
import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import { CHROMIUM_PATH } from '../helpers/browser.js';
import { type OpenAiStandIn, startOpenAiStandIn } from '../helpers/openAiStandIn.js';
import { ASK_SITE } from './askSite.js';
import { ASK_DOMAIN, type AssistantHarness, startAssistantHarness } from './assistantHarness.js';

// The "Ask AI" panel of a real export, served by a real appliance, in real Chromium, answered
// by the OpenAI stand-in. The browser maps the site's host name to the appliance.
type Context = { harness: AssistantHarness; standIn: OpenAiStandIn; browser: Browser; site: string };
const test = anyTest as TestFn<Context>;

test.before(async (t) => {
  const standIn = await startOpenAiStandIn();
  const harness = await startAssistantHarness(ASK_SITE, {
    overrides: { assistant: { enabled: true, endpoint: standIn.url, model: 'tiny', messagesPerAddressPerMinute: 1000 } },
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', `--host-resolver-rules=MAP ${ASK_DOMAIN} 127.0.0.1`],
  });
  t.context = { harness, standIn, browser, site: `http://${ASK_DOMAIN}:${new URL(harness.app.url).port}` };
});
test.after.always(async (t) => {
  await t.context.browser?.close();
  await t.context.harness?.close();
  await t.context.standIn?.close();
});

test.serial('ask with Ctrl+I, the answer streams as Markdown, the citation lands on the section, follow up, rate', async (t) => {
  const { browser, site, standIn, harness } = t.context;
  const page = await browser.newPage();
  await page.goto(`${site}/guides/limits`);
  const button = page.locator('.enclave-ask-button');
  await button.waitFor({ state: 'visible' });
  t.is(await button.evaluate((b) => b.previousElementSibling?.className), 'enclave-search-button', 'next to search');
  standIn.script({ deltas: ['Wait **the seconds** ', 'Retry-After names [1].'] }, { deltas: ['At most a minute [1].'] });
  await page.keyboard.press('Control+I');
  const dialog = page.locator('#enclave-ask');
  await dialog.waitFor({ state: 'visible' });
  t.true(await page.locator('#enclave-ask textarea').evaluate((el) => el === document.activeElement), 'focus goes to the question');
  await page.keyboard.type('How long is the quokkadelay?');
  await page.keyboard.press('Enter');
  const cite = page.locator('.enclave-ask-a .enclave-ask-cite').first();
  await cite.waitFor();
  t.is(await page.locator('.enclave-ask-a strong').first().textContent(), 'the seconds');
  t.is(await cite.getAttribute('href'), '/guides/limits#waiting-after-a-refusal');
  t.is(await page.locator('.enclave-ask-sources a').first().textContent(), 'Request budgets › Waiting after a refusal');
  // The question went to the model with the page the reader is on.
  t.regex(JSON.stringify(standIn.requests.at(-1)!.body.messages), /reader is on the page \/guides\/limits/);

  // Copy works on a plain-http intranet host too (no clipboard API there: it copies by selection).
  t.false(await page.evaluate(() => window.isSecureContext), 'the site is not a secure context');
  const copy = page.locator('.enclave-ask-actions button').first();
  t.is(await copy.textContent(), 'Copy');
  await copy.click();
  await page.waitForFunction(() => document.querySelector('.enclave-ask-actions button')?.textContent === 'Copied');
  await page.locator('.enclave-ask-actions button[aria-label="Helpful answer"]').first().click();
  await page.locator('#enclave-ask textarea').fill('And the quokkadelay at most?');
  await page.keyboard.press('Enter');
  await page.locator('.enclave-ask-a').nth(1).locator('.enclave-ask-actions').waitFor();
  const followUp = standIn.requests.at(-1)!.body.messages as { role: string; content: string }[];
  t.deepEqual(
    followUp.slice(1, -1).map((m) => m.role),
    ['user', 'assistant'],
    'the first turn went along as history',
  );
  const turns = harness.app.features.assistant.threads.all();
  t.is(turns.length, 2);
  t.is(turns[0]!.threadId, turns[1]!.threadId, 'one thread');
  t.is(turns[0]!.caller, 'web');

  await cite.click();
  await page.waitForURL(/#waiting-after-a-refusal$/);
  t.is(await page.locator('#waiting-after-a-refusal').count(), 1, 'the section exists where the link lands');

  const projectId = turns[0]!.projectId;
  const feedback = (await (await harness.app.api(`/v1/analytics/${projectId}/feedback?source=agent`)).json()) as {
    feedback?: { helpful?: boolean; comment?: string }[];
  };
  t.like(feedback.feedback?.[0], { helpful: true, comment: `Ask AI answer, thread ${turns[0]!.threadId}` });
  await page.close();
});

test.serial('keyboard: Escape closes and focus returns; phone width and dark theme', async (t) => {
  const { browser, site } = t.context;
  const page = await browser.newPage({ viewport: { width: 375, height: 700 } });
  await page.goto(`${site}/guides/limits`);
  await page.locator('.enclave-ask-button').waitFor({ state: 'visible' });
  await page.locator('.enclave-ask-button').focus();
  await page.keyboard.press('Enter');
  await page.locator('#enclave-ask').waitFor({ state: 'visible' });
  const width = await page.locator('.enclave-ask-panel').evaluate((p) => p.getBoundingClientRect().width);
  t.is(width, 375, 'the panel takes the phone’s width');
  const light = await page.locator('.enclave-ask-panel').evaluate((p) => getComputedStyle(p).backgroundColor);
  await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
  const dark = await page.locator('.enclave-ask-panel').evaluate((p) => getComputedStyle(p).backgroundColor);
  t.not(light, dark, 'the panel follows the theme');
  await page.keyboard.press('Escape');
  await page.locator('#enclave-ask').waitFor({ state: 'hidden' });
  t.true(await page.locator('.enclave-ask-button').evaluate((b) => b === document.activeElement));
  await page.close();
});

test.serial('off: no button and no message request when the assistant is off for this host', async (t) => {
  const { browser, harness } = t.context;
  // 127.0.0.1 is not a site host: the probe says off (a served page on another host, as a static host would be).
  const page = await browser.newPage();
  const asked: string[] = [];
  page.on('request', (r) => asked.push(new URL(r.url()).pathname));
  await page.goto(`${harness.app.url}/guides/limits`);
  await page.waitForLoadState('networkidle');
  t.is(await page.locator('.enclave-ask-button').count(), 0);
  t.false(asked.includes('/_enclave/assistant/message'));
  await page.close();
});

test.serial('from file:// nothing of the panel appears, and no request leaves the folder', async (t) => {
  const { browser, harness } = t.context;
  // The deployed export as files on disk, opened the way a reader opens an unzipped bundle.
  const pageFile = readdirSync(harness.app.dataDir, { recursive: true, encoding: 'utf8' }).find((f) =>
    f.endsWith(`files${sep}guides${sep}limits.html`),
  );
  t.truthy(pageFile, 'the deployed page is on disk');
  const page = await browser.newPage();
  const asked: string[] = [];
  page.on('request', (r) => asked.push(r.url()));
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(join(harness.app.dataDir, pageFile!)).href);
  await page.waitForLoadState('load');
  // The panel's script is on every page: it loaded, so staying hidden is its own decision.
  t.true(asked.some((u) => /\/_assets\/askAi\.[0-9a-f]+\.js$/.test(u)));
  t.is(await page.locator('.enclave-ask-button').count(), 0);
  await page.keyboard.press('Control+I');
  t.is(await page.locator('#enclave-ask').count(), 0, 'the shortcut opens nothing');
  t.deepEqual(
    asked.filter((u) => !u.startsWith('file:')),
    [],
    'no probe, no message, nothing outside the folder',
  );
  t.deepEqual(errors, []);
  await page.close();
});

test.serial('dashboard Assistant view: questions over time, unanswered, top cited pages, thread reader', async (t) => {
  const { browser, harness } = t.context;
  const asked = await harness.post(`/v2/assistant/${ASK_DOMAIN}/message`, {
    fp: 'f',
    messages: [{ role: 'user', content: 'xylophonequery nothing' }],
  });
  await asked.text();
  const page = await browser.newPage();
  await page.goto(`${harness.app.dashboardUrl}/_enclave/admin`);
  await page.locator('#key').fill(harness.app.key);
  await page.locator('#key').press('Enter');
  await page.locator('#dashboard').waitFor({ state: 'visible' });
  await page.locator('#assistant-view summary').click();
  await page.locator('#assistant-unanswered tbody tr td button').first().waitFor();
  t.regex((await page.locator('#assistant-totals').textContent()) ?? '', /^3 questions, 1 unanswered$/);
  t.is(await page.locator('#assistant-unanswered tbody tr td').nth(1).textContent(), 'xylophonequery nothing');
  t.deepEqual(await page.locator('#assistant-cited tbody tr td').allTextContents(), ['/guides/limits', '2']);
  // Every question was asked today (two days if the test straddles midnight UTC).
  t.true(Number(await page.locator('#assistant-chart').getAttribute('data-points')) >= 1);
  // The oldest recent question is the panel's first; its thread holds both turns.
  await page.locator('#assistant-recent tbody tr').last().locator('button').click();
  await page.locator('#assistant-thread .turn').nth(3).waitFor();
  const turns = await page.locator('#assistant-thread .turn').allTextContents();
  t.regex(turns[0]!, /^Reader · .*: How long is the quokkadelay\?$/);
  t.regex(turns[3]!, /^Assistant · .*: At most a minute \[1\]\.$/);
  await page.close();
});

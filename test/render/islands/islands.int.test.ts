import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { renderFiles } from '../renderFixture.js';
import { ISLAND_SITE } from './islandSite.js';

test('components that need a browser become islands: static first render, module script, runtime files', async (t) => {
  const { out, result } = await renderFiles(t, ISLAND_SITE);
  const home = await readFile(join(out, 'index.html'), 'utf8');
  t.regex(
    home,
    /<enclave-island data-module="index\.mdx" data-name="Counter" data-props="\{&#x22;start&#x22;:2,&#x22;label&#x22;:&#x22;Clicks&#x22;\}"/,
  );
  t.regex(home, /<button type="button" class="counter">Clicks: 2<\/button>/, 'the first render is in the page');
  t.regex(home, /data-name="WindowWidth"[^>]*>[\s\S]*?Width: unknown/);
  t.regex(
    home,
    /data-module="snippets\/setup\.jsx" data-name="Setup"[^>]*><template data-enclave-children="">Read the <strong>guide<\/strong> first.<\/template>/,
  );
  t.regex(home, /<script>\(function \(m\) \{\nm\["index\.mdx"\] = function/);
  t.regex(home, /m\["snippets\/setup\.jsx"\] = function/);
  for (const s of ['preact.min.js', 'hooks.js', 'islands.js']) t.true(home.includes(`_assets/islands/${s}"></script>`), s);
  t.deepEqual((await readdir(join(out, '_assets/islands'))).sort(), ['hooks.js', 'islands.js', 'preact.min.js']);

  // A component importing a package can't run: it is reported and keeps its static render.
  const warnings = JSON.stringify(result.report);
  t.regex(
    warnings,
    /component Live cannot run in the browser: it uses Chart, imported from \\"some-chart-package\\", which is not in the bundle/,
  );
  // An MDX snippet imported by the page doesn't stop its live components.
  t.true(home.includes('An MDX snippet the page imports'));
  const widgets = await readFile(join(out, 'widgets.html'), 'utf8');
  t.false(widgets.includes('<enclave-island'));
  t.false(widgets.includes('_assets/islands/'));

  // A page without such components pays nothing.
  const plain = await readFile(join(out, 'plain.html'), 'utf8');
  t.false(plain.includes('islands'));
});

test('a page with a Try it form keeps its components static: no author code runs with its wider policy', async (t) => {
  const spec = {
    openapi: '3.1.0',
    info: { title: 'P', version: '1' },
    servers: [{ url: 'https://api.example.com' }],
    paths: { '/pets': { get: { responses: { '200': { description: 'ok' } } } } },
  };
  const { out, result } = await renderFiles(t, {
    'docs.json': JSON.stringify({ name: 'X', navigation: { pages: ['api/list'] } }),
    'openapi.json': JSON.stringify(spec),
    'api/list.mdx': [
      '---',
      'openapi: GET /pets',
      '---',
      '',
      'export const Counter = () => {',
      '  const [n, setN] = useState(1);',
      '  return <button onClick={() => setN(n + 1)}>{n}</button>;',
      '};',
      '',
      '<Counter />',
    ].join('\n'),
  });
  const html = await readFile(join(out, 'api/list.html'), 'utf8');
  t.true(html.includes('<button>1</button>'), 'the first render is shown');
  t.false(html.includes('__enclaveIslandModules'));
  t.false(html.includes('_assets/islands/'));
  t.true(result.report.warnings.some((w) => w.page === 'api/list' && w.message.includes('stay static on this page')));
});

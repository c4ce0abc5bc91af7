import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { renderFiles } from '../renderFixture.js';

const read = (out: string, rel: string) => readFile(join(out, rel), 'utf8');
const content = (html: string) => html.slice(html.indexOf('<div class="enclave-content">'), html.indexOf('<div id="enclave-feedback"'));

const SITE = {
  'docs.json': JSON.stringify({ name: 'Components', colors: { primary: '#0D9373' }, navigation: { pages: ['index', 'hooks'] } }),
  'index.mdx': [
    '---',
    'title: Home',
    '---',
    '',
    '<Visibility for="humans">',
    '  Click the **Launch** button in the corner.',
    '</Visibility>',
    '',
    '<Visibility for="agents">',
    '  Call `POST /v1/launch` with the rocket id.',
    '</Visibility>',
    '',
    'Both audiences read this line.',
    '',
    '```mdx',
    '<Visibility for="humans">kept inside code</Visibility>',
    '```',
    '',
    '<Columns cols={2}>',
    '  <Column>',
    '    Left cell',
    '  </Column>',
    '  <Column>',
    '    Right cell',
    '  </Column>',
    '</Columns>',
    '',
    '<GitHub.Repo repo="https://github.com/acme/rocket-kit" variant="flat" description="Rockets for everyone" />',
    '',
    '<FileTree>',
    '- app/',
    '  - main.ts entry point',
    '  - ^vendor/',
    '    - lib.js',
    '- README.md',
    '</FileTree>',
    '',
    '<FileTree items={["top.txt", { name: "docs", items: ["a.md"], note: "all docs" }]} />',
    '',
    '<Icon icon="chart-line-up" />',
    '<Icon icon="zzqx-wobble" />',
    '',
  ].join('\n'),
  'snippets/remote.jsx': [
    "import { load } from 'remote-data-lib';",
    'export const Remote = () => {',
    '  const [rows, setRows] = useState([]);',
    '  useEffect(() => { load().then(setRows); }, []);',
    '  return <ul>{rows.map((r) => <li>{r}</li>)}</ul>;',
    '};',
  ].join('\n'),
  'hooks.mdx': [
    '---',
    'title: Hooks',
    '---',
    '',
    "import { Remote } from '/snippets/remote.jsx';",
    '',
    'export const Counter = ({ start = 1 }) => {',
    '  const [count, setCount] = useState(() => start * 2);',
    '  const label = React.useMemo(() => `Clicked ${count} times`, [count]);',
    '  return <button onClick={() => setCount(count + 1)}>{label}</button>;',
    '};',
    '',
    'export const Live = () => {',
    '  const [rows, setRows] = useState([]);',
    '  useEffect(() => { fetch("/api/rows").then((r) => r.json()).then(setRows); }, []);',
    '  return <ul>{rows.map((r) => <li>{r}</li>)}</ul>;',
    '};',
    '',
    '<Counter start={3} />',
    '',
    '<Live />',
    '',
    '<Remote />',
    '',
  ].join('\n'),
};

test('Visibility: readers get humans content only; the Markdown copy and llms-full.txt get agents content only; search never sees agents content', async (t) => {
  const { out } = await renderFiles(t, SITE);
  const html = content(await read(out, 'index.html'));
  t.true(html.includes('<strong>Launch</strong>'));
  t.false(html.includes('/v1/launch'));
  t.false(/<visibility/i.test(html), 'no wrapper element');
  const md = await read(out, 'index.md');
  t.true(md.includes('Call `POST /v1/launch` with the rocket id.'));
  t.true(md.split('\n').includes('Call `POST /v1/launch` with the rocket id.'), 'not left indented (that would be a code block)');
  t.false(md.includes('Launch** button'));
  t.false(md.includes('<Visibility for="agents">'));
  t.is(md.split('<Visibility').length, 2, 'only the one inside the code block is left');
  t.true(md.includes('Both audiences read this line.'));
  t.true(md.includes('<Visibility for="humans">kept inside code</Visibility>'), 'code examples are left alone');
  const full = await read(out, 'llms-full.txt');
  t.true(full.includes('/v1/launch'));
  t.false(full.includes('Launch** button'));
  const index = (await readdir(join(out, '_assets'))).find((f) => f.startsWith('search-index.'))!;
  const search = await read(out, `_assets/${index}`);
  t.true(search.includes('Launch'));
  t.false(search.includes('/v1/launch'));
});

test('Column cells, a static GitHub.Repo card and FileTree in list and items form', async (t) => {
  const { out, result } = await renderFiles(t, SITE);
  const html = content(await read(out, 'index.html'));
  t.regex(html, /<div class="enclave-column">[\s\S]*Left cell[\s\S]*<\/div>[\s\S]*<div class="enclave-column">[\s\S]*Right cell/);
  t.regex(
    html,
    /<a class="enclave-github-repo enclave-github-repo-flat" href="https:\/\/github\.com\/acme\/rocket-kit" rel="noopener noreferrer">/,
  );
  t.regex(html, /acme \/ <\/span><strong>rocket-kit<\/strong>/);
  t.true(html.includes('Rockets for everyone'));
  t.false(/<img[^>]+github/.test(html), 'no remote image or API call: the card is built from the props');
  // List form: folders from trailing slashes and nesting, comments after names, ^ for closed.
  t.regex(
    html,
    /<details open><summary>.*?<span class="enclave-tree-name">app<\/span><\/summary><ul><li class="enclave-tree-file">.*?<span class="enclave-tree-name">main\.ts<\/span><span class="enclave-tree-comment">entry point<\/span>/,
  );
  t.regex(html, /<details><summary>.*?<span class="enclave-tree-name">vendor<\/span>/);
  t.regex(html, /<span class="enclave-tree-name">README\.md<\/span>/);
  t.regex(
    html,
    /<span class="enclave-tree-name">top\.txt<\/span>[\s\S]*?<span class="enclave-tree-name">docs<\/span>[\s\S]*?<span class="enclave-tree-name">a\.md<\/span>/,
  );
  t.deepEqual(result.report.unknownComponents, {});
});

test('Font Awesome names outside the free set: the nearest free icon, or a neutral glyph, each with a warning', async (t) => {
  const { out, result } = await renderFiles(t, SITE);
  const html = content(await read(out, 'index.html'));
  t.regex(html, /<svg[^>]*data-icon="chart-line-up"/);
  t.regex(html, /<span class="enclave-icon enclave-icon-missing" aria-hidden="true" data-icon="zzqx-wobble"><\/span>/);
  const warnings = result.report.warnings.filter((w) => w.page === 'index').map((w) => w.message);
  t.true(warnings.includes('Icon "chart-line-up" is not in the bundled free icon sets; shown as "chart-line"'));
  t.true(warnings.some((w) => w.startsWith('Unknown icon "zzqx-wobble"') && w.includes('neutral glyph')));
});

test('components using React hooks run as islands over their first render; one that cannot run gets a placeholder naming it', async (t) => {
  const { out, result } = await renderFiles(t, SITE);
  const html = content(await read(out, 'hooks.html'));
  t.regex(html, /<enclave-island data-module="hooks\.mdx" data-name="Counter"[^>]*><button>Clicked 6 times<\/button><\/enclave-island>/);
  t.regex(html, /<enclave-island data-module="hooks\.mdx" data-name="Live"[^>]*><ul><\/ul><\/enclave-island>/);
  t.regex(
    html,
    /<div class="enclave-interactive-placeholder" role="note" data-component="Remote">The interactive “Remote” component is not available in this offline copy\.<\/div>/,
  );
  const warnings = result.report.warnings.filter((w) => w.page === 'hooks').map((w) => w.message);
  t.false(
    warnings.some((w) => /component (Counter|Live)/.test(w)),
    warnings.join('\n'),
  );
  t.true(
    warnings.includes(
      'component Remote cannot run in the browser: it uses load, imported from "remote-data-lib", which is not in the bundle; its static render is shown',
    ),
    warnings.join('\n'),
  );
  t.true(
    warnings.includes(
      'component Remote uses React hooks (useEffect, useState) and has no static output (its content is produced in the browser); a placeholder stands in for it',
    ),
  );
});

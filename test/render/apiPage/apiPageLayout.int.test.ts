import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { renderFiles } from '../renderFixture.js';

const DESCRIPTION = [
  'Lists the pets. Filters:',
  '',
  '- by *kind*',
  '- by `age`',
  '',
  '1. first',
  '2. second',
  '',
  '| Field | Meaning |',
  '| ----- | ------- |',
  '| name  | the name |',
  '',
  '```json',
  '{"a": 1}',
  '```',
  '',
  'See [the guide](/guide) and <img src=x onerror="alert(1)"><script>alert(2)</script>.',
].join('\n');

const SPEC = {
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1' },
  servers: [{ url: 'https://api.example.com' }],
  paths: {
    '/pets': {
      get: {
        description: DESCRIPTION,
        parameters: [
          { name: 'limit', in: 'query', description: 'At most:\n\n- 10 by default\n- **100** at most', schema: { type: 'integer' } },
        ],
        responses: {
          '200': {
            description: 'The *pets*',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { name: { type: 'string', description: 'Either:\n\n* `cat`\n* `dog`' } } },
              },
            },
          },
        },
      },
    },
  },
};

const FILES = {
  'docs.json': JSON.stringify({ name: 'X', navigation: { pages: ['guide', 'api/list'] } }),
  'openapi.json': JSON.stringify(SPEC),
  'guide.mdx': '# Guide\n\nText.\n',
  'api/list.mdx': '---\ntitle: List pets\nopenapi: GET /pets\n---\n\nThe page author wrote this paragraph.\n',
};

/** The `<main>` part of an exported page. */
const main = (html: string) => html.slice(html.indexOf('<main'), html.indexOf('</main>'));

test('an API page shows the method bar under the title, then the page text, then the generated sections', async (t) => {
  const { out } = await renderFiles(t, FILES);
  const html = main(await readFile(join(out, 'api/list.html'), 'utf8'));
  const title = html.indexOf('List pets');
  const bar = html.indexOf('class="enclave-api-endpoint"');
  const own = html.indexOf('The page author wrote this paragraph.');
  const params = html.indexOf('id="query-parameters"');
  t.true(title >= 0 && bar >= 0 && own >= 0 && params >= 0, 'all four parts are on the page');
  t.true(title < bar, 'the title comes before the method bar');
  t.true(bar < own, 'the method bar comes before the page text');
  t.true(own < params, 'the page text comes before the parameters');
});

test('spec descriptions render as Markdown: lists, tables, code, emphasis and links; raw HTML stays text', async (t) => {
  const { out } = await renderFiles(t, FILES);
  const html = main(await readFile(join(out, 'api/list.html'), 'utf8'));
  t.regex(html, /<ul>\s*<li>by <em>kind<\/em><\/li>\s*<li>by <code>age<\/code><\/li>\s*<\/ul>/);
  t.regex(html, /<ol>\s*<li>first<\/li>\s*<li>second<\/li>\s*<\/ol>/);
  t.regex(html, /<table>[\s\S]*<th>Field<\/th>[\s\S]*<td>the name<\/td>[\s\S]*<\/table>/);
  t.regex(html, /<pre><code class="language-json">\{"a": 1\}\n<\/code><\/pre>/);
  t.regex(html, /<a href="\.\.\/guide\.html">the guide<\/a>/, 'a spec link is resolved like the page links');
  // Parameter, property and response descriptions get the same treatment.
  t.regex(html, /<li>10 by default<\/li>\s*<li><strong>100<\/strong> at most<\/li>/);
  t.regex(html, /<li><code>cat<\/code><\/li>\s*<li><code>dog<\/code><\/li>/);
  t.regex(html, /200<\/span> The <em>pets<\/em>/);
  t.false(html.includes('- by'), 'no list item is left as "- item" text');
  // Raw HTML in a spec is shown as text, never parsed into elements.
  t.false(/<img src="x"|<script>alert/.test(html));
  t.true(html.includes('&#x3C;img src=x onerror="alert(1)">') || html.includes('&lt;img src=x onerror="alert(1)"&gt;'));
});

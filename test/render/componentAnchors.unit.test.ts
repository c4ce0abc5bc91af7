import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { fieldAnchor, titleAnchor } from '../../src/render/components/componentAnchors.js';
import { renderFiles } from './renderFixture.js';

const docsJson = JSON.stringify({ name: 'Fixture', colors: { primary: '#0D9373' }, navigation: { pages: ['index', 'api'] } });

// Mintlify gives Accordions (title, or `id`), Steps (title) and ParamField/ResponseField (name,
// decamelized, or `id`) their own `#anchors`; links to them are valid on the hosted product.
const SITE = {
  'docs.json': docsJson,
  'index.mdx': [
    '---',
    'title: Home',
    '---',
    '',
    '## Install',
    '',
    'Heading first.',
    '',
    '<Accordion title="Install">Same slug as the heading: the heading keeps it.</Accordion>',
    '',
    '<Accordion title="Getting logs, quickly">Body.</Accordion>',
    '',
    '<Accordion title="Anything" id="custom-target">Body.</Accordion>',
    '',
    '<Steps>',
    '  <Step title="Create a project">Do it.</Step>',
    '</Steps>',
    '',
    '[a](#getting-logs-quickly) [b](#custom-target) [c](#create-a-project) [d](#install)',
    '[e](/api#user-id) [f](/api#created-at) [g](/api#page-token) [h](#nowhere)',
    '',
  ].join('\n'),
  'api.mdx': [
    '---',
    'title: API',
    '---',
    '',
    '<ParamField path="userId" type="string">Who.</ParamField>',
    '',
    '<ResponseField name="created_at" type="string">When.</ResponseField>',
    '',
    '<ParamField query="cursor" id="page-token" type="string">Paging.</ParamField>',
    '',
  ].join('\n'),
};

test('accordion, step and field anchors are link targets; headings keep their slugs', async (t) => {
  const { out, result } = await renderFiles(t, SITE);
  t.deepEqual(
    result.report.brokenLinks.map((b) => `${b.page} ${b.href}`),
    ['index #nowhere'],
  );
  const home = await readFile(join(out, 'index.html'), 'utf8');
  t.regex(home, /<h2 id="install">Install/);
  t.is(home.match(/id="install"/g)?.length, 1, 'an anchor a heading already uses is not repeated');
  t.regex(home, /<details class="enclave-accordion" id="getting-logs-quickly">/);
  t.regex(home, /<details class="enclave-accordion" id="custom-target">/);
  t.regex(home, /<li class="enclave-step" data-enclave-step="" id="create-a-project">/);
  t.notRegex(home, /data-enclave-anchor/, 'the anchor request is not left in the page');
  const api = await readFile(join(out, 'api.html'), 'utf8');
  for (const id of ['user-id', 'created-at', 'page-token']) t.regex(api, new RegExp(`<div class="enclave-field" id="${id}">`), id);
});

test('a fragment repaired to the real heading id is repaired in the page even when it has characters HTML escapes', async (t) => {
  // Written as `#q&#x26;a` in the page: the repair must look for it the way the page spells it.
  const { out, result } = await renderFiles(t, {
    'docs.json': JSON.stringify({ name: 'Fixture', navigation: { pages: ['index'] } }),
    'index.mdx': ['---', 'title: Home', '---', '', '## Q&A', '', 'Text.', '', '[faq](#q&a) [again](#Q_A)', ''].join('\n'),
  });
  t.deepEqual(result.report.brokenLinks, []);
  const home = await readFile(join(out, 'index.html'), 'utf8');
  t.regex(home, /<h2 id="qa">/);
  t.regex(home, /href="#qa">faq</, 'the link with `&` points at the heading');
  t.regex(home, /href="#qa">again</);
  t.notRegex(home, /href="#q&/i, 'no unrepaired link is left');
});

test('field anchors split camelCase and acronyms like Mintlify; an explicit id wins', (t) => {
  const cases: [string, string][] = [
    ['userId', 'user-id'],
    ['user_id', 'user-id'],
    ['APIKey', 'api-key'],
    ['X-Request-ID', 'x-request-id'],
    ['listAPIs', 'list-apis'],
    ['data.items[].name', 'data-items-name'],
    ['café', 'cafe'],
  ];
  for (const [name, id] of cases) t.is(fieldAnchor({}, name), id, name);
  t.is(fieldAnchor({}, '***'), undefined);
  t.is(fieldAnchor({ id: 'mine' }, 'userId'), 'mine');
  t.is(titleAnchor({ title: 'I am an Accordion.' }), 'i-am-an-accordion');
  t.is(titleAnchor({ title: 'x', id: 'install' }), 'install');
  t.is(titleAnchor({}), undefined);
});

import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import test from 'ava';
import { findUnknownPages } from '../../src/render/index.js';

const navSite = join(fileURLToPath(new URL('.', import.meta.url)), '../render/fixtures/nav-site');

test('page files and pages generated from OpenAPI operations are pages; anything else is named as written', async (t) => {
  const asked = [
    'en/install',
    '/en/concepts/nodes.mdx',
    'api-reference/users/list-users',
    'en/nowhere',
    'api-reference/users/delete-user',
    'docs.json',
  ];
  t.deepEqual(await findUnknownPages(navSite, asked), ['en/nowhere', 'api-reference/users/delete-user', 'docs.json']);
});

test('only page files asked: no unknown pages', async (t) => {
  t.deepEqual(await findUnknownPages(navSite, ['en/index', 'fr/index']), []);
});

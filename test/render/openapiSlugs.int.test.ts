import { access, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { renderFiles } from './renderFixture.js';

const ok = { responses: { 200: { description: 'ok' } } };
const shop = {
  openapi: '3.0.3',
  info: { title: 'Shop', version: '1' },
  paths: {
    '/users/{id}': { get: { summary: 'Get a user (by ID)', tags: ['User Accounts', 'Other'], ...ok } },
    '/users/{id}/posts': { get: { operationId: 'listPosts', ...ok } },
    '/orders': { post: { summary: 'Search & list orders', tags: ['Orders'], ...ok } },
    '/legacy': { get: { summary: 'Legacy', 'x-mint': { href: '/deprecated-endpoints/legacy-endpoint' }, ...ok } },
    '/special': { post: { summary: 'Special', 'x-mint': { href: '/guides/special' }, ...ok } },
    '/a': { get: { summary: 'Ping', ...ok } },
    '/b': { get: { summary: 'Ping', ...ok } },
  },
};
const admin = {
  openapi: '3.0.3',
  info: { title: 'Admin', version: '1' },
  paths: { '/stats': { get: { summary: 'Daily stats', tags: ['Metrics'], ...ok } } },
};

const SITE = {
  'docs.json': JSON.stringify({
    name: 'Slugs',
    navigation: {
      groups: [
        { group: 'Guides', pages: ['index'] },
        {
          group: 'Shop API',
          openapi: 'specs/shop.json',
          pages: ['GET /users/{id}', 'GET /users/{id}/posts', 'POST /orders', 'GET /legacy', 'POST /special', 'GET /a', 'GET /b'],
        },
        { group: 'Admin API', openapi: { source: 'specs/admin.json', directory: 'Admin-API' }, pages: ['GET /stats'] },
      ],
    },
  }),
  'index.mdx': '---\ntitle: Home\n---\n\nHome.\n',
  'guides/special.mdx': '---\ntitle: The special endpoint\n---\n\nWritten by hand.\n',
  'specs/shop.json': JSON.stringify(shop),
  'specs/admin.json': JSON.stringify(admin),
};

test("nav-level operation pages get Mintlify's URLs: directory, first tag, summary slug (or method and path), x-mint href", async (t) => {
  const { out } = await renderFiles(t, SITE);
  const home = await readFile(join(out, 'index.html'), 'utf8');
  const sidebar = /<nav id="enclave-sidebar"[\s\S]*?<\/nav>\n<main/.exec(home)?.[0] ?? '';
  const hrefs = [...sidebar.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]);
  t.deepEqual(hrefs, [
    'index.html',
    'api-reference/user-accounts/get-a-user-by-id.html',
    'api-reference/get-users-posts.html',
    'api-reference/orders/search-&amp;-list-orders.html',
    'deprecated-endpoints/legacy-endpoint.html',
    'guides/special.html',
    'api-reference/ping.html',
    'api-reference/ping-1.html',
    'admin-api/metrics/daily-stats.html',
  ]);
  for (const href of hrefs) await t.notThrowsAsync(access(join(out, href.replace('&amp;', '&'))), href);
  t.regex(await readFile(join(out, 'api-reference/ping-1.html'), 'utf8'), /<span class="enclave-api-path">\/b<\/span>/);
  t.regex(await readFile(join(out, 'guides/special.html'), 'utf8'), /Written by hand\./, 'x-mint href to a page of its own leads there');
});

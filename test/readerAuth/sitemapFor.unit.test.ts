import test from 'ava';
import { sitemapFor } from '../../src/features/deployments/site/sitemapFor.js';

const SITEMAP = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
  '  <url><loc>https://docs.test/</loc></url>',
  '  <url><loc>https://docs.test/guides/start</loc></url>',
  '  <url><loc>https://docs.test/team/caf%C3%A9?a=1&amp;b=2</loc></url>',
  '  <url><loc>not a url</loc></url>',
  '  <url><loc>https://docs.test/x</loc></url><url><loc>https://docs.test/y</loc></url>',
  '</urlset>',
  '',
].join('\n');

test('entries of hidden pages go, home is the index page, unreadable entries are dropped', (t) => {
  const asked: string[] = [];
  const out = sitemapFor(SITEMAP, (page) => {
    asked.push(page);
    return page === 'guides/start' || page === 'team/café';
  });
  t.deepEqual(asked, ['index', 'guides/start', 'team/café']);
  t.is(
    out,
    [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
      '  <url><loc>https://docs.test/</loc></url>',
      '</urlset>',
      '',
    ].join('\n'),
  );
});

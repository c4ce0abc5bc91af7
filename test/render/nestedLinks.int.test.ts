import { readdir } from 'node:fs/promises';
import test from 'ava';
import { findNestedLinks } from './findNestedLinks.js';
import { exportedPages, FIXTURES_DIR, renderFixtureDir } from './renderFixtureDir.js';

test('the nesting check finds a link in a link and passes flat links', (t) => {
  t.deepEqual(findNestedLinks('<a href="x"><div><a href="y">in</a></div></a>'), ['<a href="y">']);
  t.deepEqual(findNestedLinks('<a href="x">a</a><a href="y">b</a><script>"<a><a>"</script>'), []);
});

test('links inside linked cards and headings inside JSX links become boxes with a stretched link', async (t) => {
  const { out } = await renderFixtureDir(t, 'nested-links');
  const [, html] = (await exportedPages(out)).find(([p]) => p === 'index.html') ?? ['', ''];
  t.deepEqual(findNestedLinks(html), []);
  // The linked card with a link inside is a box; its own link covers it; the inner link stays.
  t.regex(
    html,
    /<div class="enclave-card enclave-card-linked enclave-stretched"><a class="enclave-stretched-link" href="other\.html" aria-label="First See the guide first\."><\/a>[\s\S]*?<a href="guide\.html">the guide<\/a>/,
  );
  // A linked card with no link inside stays one link.
  t.regex(html, /<a class="enclave-card enclave-card-linked" href="guide\.html">/);
  // The heading keeps its id and its anchor; the JSX link around it becomes a stretched box.
  t.regex(
    html,
    /<div class="enclave-stretched"><a class="enclave-stretched-link" href="other\.html"[^>]*><\/a>\s*(?:<p>)?<h3 id="a-heading-inside-a-link">/,
  );
  // An inline link around a link becomes an inline box.
  t.regex(
    html,
    /<span class="enclave-stretched"><a class="enclave-stretched-link" href="guide\.html" aria-label="Inline inner text"><\/a>Inline <a href="other\.html">inner<\/a> text<\/span>/,
  );
});

test('no exported page of any render fixture has a link inside a link', async (t) => {
  const names = (await readdir(FIXTURES_DIR, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  t.true(names.includes('nested-links'));
  for (const name of names) {
    const { out } = await renderFixtureDir(t, name);
    const pages = await exportedPages(out);
    t.true(pages.length > 0, name);
    for (const [path, html] of pages) t.deepEqual(findNestedLinks(html), [], `${name}/${path}`);
  }
});

import test from 'ava';
import { buildUtilityCss } from '../../../src/render/style/buildUtilityCss.js';
import { exportedPages, renderFixtureDir } from '../renderFixtureDir.js';

/** Every class name on an exported page, inside the content or outside it. */
function classNames(html: string): Set<string> {
  const names = new Set<string>();
  for (const m of html.matchAll(/\sclass="([^"]*)"/g)) for (const n of m[1].split(/\s+/)) if (n) names.add(n);
  return names;
}

// The fixture uses every built-in component in every variant and writes no class of its own,
// so every class on its pages comes from the renderer.
test('no class the renderer emits is a Tailwind utility', async (t) => {
  const { out, result } = await renderFixtureDir(t, 'builtin-classes');
  const pages = await exportedPages(out);
  t.true(pages.length >= 7, 'index, more, five API pages');
  const all = new Set<string>();
  for (const [, html] of pages) for (const n of classNames(html)) all.add(n);
  // The variants the fixture exercises are really on the pages (a test of nothing would pass too).
  for (const n of [
    'enclave-badge-size-lg',
    'enclave-badge-color-orange',
    'enclave-card-group-cols-6',
    'enclave-math-inline',
    'enclave-api-method-delete',
    'enclave-api-status-s5',
  ])
    t.true(all.has(n), n);
  const { matched } = await buildUtilityCss(all, { primary: '#0D9373' });
  t.deepEqual(matched, []);
  t.deepEqual(result.report.unknownComponents, {});
  t.deepEqual(result.report.pages.failed, []);
});

test('an author utility that shares a name with an old built-in modifier no longer styles built-ins', async (t) => {
  const { matched } = await buildUtilityCss(['size-md', 'color-orange', 'cols-3', 'inline'], { primary: '#0D9373' });
  // These stay utilities for author markup: the built-ins just no longer carry them.
  t.deepEqual(matched, ['color-orange', 'cols-3', 'inline', 'size-md']);
});

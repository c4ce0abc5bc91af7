import test from 'ava';
import { stripHiddenLinks } from '../../src/features/deployments/site/stripHiddenLinks.js';
import { readerGroups } from '../../src/platform/oidc/readerGroups.js';
import { safeReturnTo } from '../../src/features/readerAuth/safeReturnTo.js';

test('groups are read as the hosted product documents: arrays as they are, strings split only on the delimiter', (t) => {
  t.deepEqual(readerGroups(['a', ' b ', '', 'a']), ['a', 'b']);
  t.deepEqual(readerGroups(['a,b']), ['a,b'], 'an array entry is never split');
  t.deepEqual(readerGroups(' a, b ,,c ', ','), ['a', 'b', 'c']);
  t.deepEqual(readerGroups('a,b'), ['a,b'], 'no delimiter: one group');
  t.deepEqual(readerGroups({ groups: ['a'] }), []);
  t.deepEqual(readerGroups(42), []);
});

test('returnTo keeps same-site paths only', (t) => {
  t.is(safeReturnTo('/guides/start?x=1#y'), '/guides/start?x=1#y');
  for (const bad of [
    '//evil.example',
    'https://evil.example/',
    '/\\evil.example',
    '\\\\evil',
    'javascript:alert(1)',
    '/a\nb',
    '/_enclave/admin',
    '',
    42,
  ])
    t.is(safeReturnTo(bad), '/', String(bad));
});

test('links to hidden pages leave a page, wherever they are, and other links stay', (t) => {
  const html =
    '<nav><li><a class="x" href="../team/notes">Team notes</a></li><li><a href="hello">Hello</a></li></nav>' +
    '<link rel="next" href="/oncall/runbook.html"><p>See <a href="../oncall/">the on-call index</a> or <a href="https://x.example/team/notes">x</a>.</p>';
  const hidden = new Set(['team/notes', 'oncall/runbook', 'oncall/index']);
  const out = stripHiddenLinks(html, '/open/hello', (p) => hidden.has(p));
  t.is(out, '<nav><li></li><li><a href="hello">Hello</a></li></nav><p>See  or <a href="https://x.example/team/notes">x</a>.</p>');
});

import test from 'ava';
import type { Element } from 'hast';
import type { PageContext } from '../../src/render/links/createPageContext.js';
import { isScriptUrl, neutraliseActiveContent } from '../../src/render/page/neutraliseActiveContent.js';
import type { RemovedActive } from '../../src/render/report/BuildReport.js';

test('script URLs as a browser reads them: case, tabs, newlines and leading controls do not hide them', (t) => {
  for (const url of [
    'javascript:alert(1)',
    'JaVaScRiPt:x',
    ' javascript:x',
    '\u0001javascript:x',
    'java\tscript:x',
    'java\nscr\ript:x',
    'vbscript:x',
  ])
    t.true(isScriptUrl(url), JSON.stringify(url));
  for (const url of [
    'https://example.com/javascript:x',
    '/guides/javascript',
    'javascript',
    '#javascript:x',
    'mailto:a@b',
    'data:text/plain,x',
  ])
    t.false(isScriptUrl(url), JSON.stringify(url));
});

function context(opts: { scripts?: boolean; keepRemote?: boolean } = {}): { ctx: PageContext; removed: RemovedActive[] } {
  const removed: RemovedActive[] = [];
  const ctx = {
    pagePath: 'p',
    allowsAuthorScripts: opts.scripts ?? false,
    keepsRemote: opts.keepRemote ?? false,
    report: { removedActive: (e: RemovedActive) => removed.push(e) },
  } as unknown as PageContext;
  return { ctx, removed };
}

const el = (tagName: string, properties: Element['properties'], text = ''): Element => ({
  type: 'element',
  tagName,
  properties,
  children: text ? [{ type: 'text', value: text }] : [],
});

test('one element at a time: what goes, what stays, what is reported', (t) => {
  const { ctx, removed } = context();
  t.false(neutraliseActiveContent(el('script', {}, 'x()'), ctx), 'a script goes');
  const img = el('img', { src: 'a.png', onError: 'x()', alt: 'A' });
  t.true(neutraliseActiveContent(img, ctx));
  t.deepEqual(img.properties, { src: 'a.png', alt: 'A' });
  const form = el('form', { action: 'ht\ttps://evil.example/c', method: 'post' });
  t.true(neutraliseActiveContent(form, ctx));
  t.deepEqual(form.properties, { method: 'post' });
  const local = el('form', { action: '/search' });
  neutraliseActiveContent(local, ctx);
  t.deepEqual(local.properties, { action: '/search' });
  const frame = el('iframe', { srcDoc: '<script>x()</script>' });
  neutraliseActiveContent(frame, ctx);
  t.deepEqual(frame.properties, {});
  t.deepEqual(
    removed.map((r) => [r.kind, r.where]),
    [
      ['script', 'script'],
      ['event-handler', 'img onerror'],
      ['remote-form', 'form action'],
      ['script', 'iframe srcdoc'],
    ],
  );
});

test('allowed author scripts keep scripts and handlers; keepRemote keeps remote form targets', (t) => {
  const { ctx, removed } = context({ scripts: true, keepRemote: true });
  t.true(neutraliseActiveContent(el('script', {}, 'x()'), ctx));
  const a = el('a', { href: 'javascript:x()', onClick: 'y()' });
  neutraliseActiveContent(a, ctx);
  t.deepEqual(a.properties, { href: 'javascript:x()', onClick: 'y()' });
  const form = el('form', { action: 'https://api.example/c' });
  neutraliseActiveContent(form, ctx);
  t.deepEqual(form.properties, { action: 'https://api.example/c' });
  t.deepEqual(removed, []);
});

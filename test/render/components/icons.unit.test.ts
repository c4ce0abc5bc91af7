import test from 'ava';
import { toHtml } from 'hast-util-to-html';
import { renderIcon } from '../../../src/render/icons/renderIcon.js';
import { fakeRenderContext } from './fakeRenderContext.js';

const html = (name: string, lib = 'fontawesome', opts = {}) => {
  const ctx = fakeRenderContext({ iconLibrary: lib });
  return { html: toHtml(renderIcon(name, ctx, opts) as never), ctx };
};

test('Font Awesome names render as inline SVG: solid, brands, regular and official aliases', (t) => {
  for (const name of ['rocket', 'code', 'book-open', 'github', 'python', 'docker']) {
    const { html: out, ctx } = html(name);
    t.regex(
      out,
      /^<svg viewBox="0 0 \d+ \d+" class="enclave-icon enclave-icon-fontawesome" aria-hidden="true" focusable="false" data-icon="[a-z-]+"><path/,
      name,
    );
    t.deepEqual(ctx.warnings, [], name);
  }
  const solid = html('star').html;
  const regular = html('star', 'fontawesome', { iconType: 'regular' }).html;
  t.not(solid, regular, 'iconType picks the regular style');
  // `search` is Font Awesome's alias of magnifying-glass.
  t.is(html('search').html.replace('data-icon="search"', ''), html('magnifying-glass').html.replace('data-icon="magnifying-glass"', ''));
  // A Pro-only name used by Mintlify docs gets the closest free icon instead of a hole.
  t.deepEqual(html('square-terminal').ctx.warnings, []);
});

test('only the used icon ends up in the output', (t) => {
  const out = html('rocket').html;
  t.is((out.match(/<svg/g) ?? []).length, 1);
  t.true(out.length < 2000);
  t.notRegex(out, /<!--|License/);
});

test('lucide library is used when the docs config asks for it', (t) => {
  const out = html('rocket', 'lucide').html;
  t.regex(out, /class="enclave-icon enclave-icon-lucide"/);
  t.regex(out, /stroke="currentColor"/);
  t.regex(out, /viewBox="0 0 24 24"/);
});

test('an unknown icon gives a neutral placeholder and a warning, never a throw', (t) => {
  const { html: out, ctx } = html('definitely-not-an-icon');
  t.is(out, '<span class="enclave-icon enclave-icon-missing" aria-hidden="true" data-icon="definitely-not-an-icon"></span>');
  t.deepEqual(ctx.warnings, [
    'Unknown icon "definitely-not-an-icon": not in the bundled free icon sets (Font Awesome Free, Lucide); shown as a neutral glyph',
  ]);
});

test('names that look like paths never read files outside the icon sets', (t) => {
  for (const name of ['..%2Fpackage', '../../package', 'a/../../b', '']) {
    const ctx = fakeRenderContext();
    t.notThrows(() => renderIcon(name, ctx));
  }
  // Traversal attempts are either URL/path icons (-> img via assetUrl) or unknown names; no SVG is produced.
  t.notRegex(html('..%2Fpackage').html, /<svg/);
});

test('an icon given as a URL or path is an image through ctx.assetUrl', (t) => {
  const { html: out, ctx } = html('/images/logo.svg', 'fontawesome', { size: 20 });
  t.is(
    out,
    '<img src="asset:/images/logo.svg" alt="" class="enclave-icon enclave-icon-img" style="width:20px;height:20px" loading="lazy">',
  );
  t.deepEqual(ctx.assetsAsked, ['/images/logo.svg']);
  t.regex(html('https://cdn.example.com/i.png').html, /src="asset:https:\/\/cdn.example.com\/i.png"/);
});

test('colour and size are applied only when safe', (t) => {
  t.regex(html('rocket', 'fontawesome', { size: 32, color: 'rgb(1, 2, 3)' }).html, /style="width:32px;height:32px;color:rgb\(1, 2, 3\)"/);
  t.notRegex(html('rocket', 'fontawesome', { color: 'red;background:url(x)' }).html, /url\(/);
  t.notRegex(html('rocket', 'fontawesome', { size: -5 }).html, /width:/);
});

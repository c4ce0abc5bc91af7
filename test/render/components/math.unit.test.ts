import test from 'ava';
import { toHtml } from 'hast-util-to-html';
import { renderMath } from '../../../src/render/math/renderMath.js';
import { fakeRenderContext } from './fakeRenderContext.js';

test('TeX is typeset at build time (HTML + MathML) and requests the katex assets', (t) => {
  const ctx = fakeRenderContext();
  const inline = toHtml(renderMath('\\frac{a}{b}', false, ctx) as never);
  t.regex(inline, /^<span class="enclave-math enclave-math-inline"><span class="katex">/);
  t.regex(inline, /<math xmlns="http:\/\/www.w3.org\/1998\/Math\/MathML"/);
  t.regex(inline, /class="mfrac"/);
  t.true(ctx.features.has('katex'));
  const display = toHtml(renderMath('\\sum_{i=1}^n i', true, ctx) as never);
  t.regex(display, /^<div class="enclave-math enclave-math-display"><span class="katex-display">/);
  t.deepEqual(ctx.warnings, []);
});

test('invalid TeX shows its source as a visible error and is reported, without throwing', (t) => {
  const ctx = fakeRenderContext();
  let out = '';
  t.notThrows(() => {
    out = toHtml(renderMath('\\frac{a}{', false, ctx) as never);
  });
  t.regex(out, /^<span class="enclave-math-error" role="note" title="[^"]+"><code>\\frac\{a\}\{<\/code><\/span>$/);
  t.is(ctx.warnings.length, 1);
  t.regex(ctx.warnings[0], /^Invalid TeX: KaTeX parse error/);
  const display = toHtml(renderMath('\\undefinedmacro', true, ctx) as never);
  t.regex(display, /^<div class="enclave-math-error"/);
  t.is(ctx.warnings.length, 2);
});

test('untrusted commands are not honoured and huge input is refused', (t) => {
  const ctx = fakeRenderContext();
  const out = toHtml(renderMath('\\href{javascript:alert(1)}{x}', false, ctx) as never);
  t.notRegex(out, /href=/);
  t.notRegex(out, /<a /);
  const big = toHtml(renderMath('x'.repeat(30_000), false, ctx) as never);
  t.regex(big, /enclave-math-error/);
});

test('a repeated formula renders the same and returns independent trees', (t) => {
  const ctx = fakeRenderContext();
  const a = renderMath('e^{i\\pi}+1=0', false, ctx);
  const b = renderMath('e^{i\\pi}+1=0', false, ctx);
  t.not(a, b);
  t.is(toHtml(a as never), toHtml(b as never));
});

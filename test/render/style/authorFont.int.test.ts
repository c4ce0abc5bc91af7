import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { bundledFontAliases } from '../../../src/render/theme/bundledFontAliases.js';
import { requestedFontFamilies } from '../../../src/render/theme/requestedFontFamilies.js';
import { renderFixtureDir } from '../renderFixtureDir.js';

test('a stylesheet asks for the first family of each declaration and defines its local faces', (t) => {
  const found = requestedFontFamilies(
    "@font-face{font-family:'A';src:url(a.woff2)}@font-face{font-family:B;src:none}/* font-family: C */" +
      'p{font-family:"Inter",sans-serif} :root{--font-size:14px;--mono-font:\'Mono X\',monospace} h1{font-family:var(--x),Serif Y}',
  );
  t.deepEqual(found.defined, ['A']);
  t.deepEqual(found.wanted, ['Inter', 'Mono X', 'Serif Y']);
});

test('aliases repeat the bundled faces under the name asked for, once, and never for the bundled name itself', (t) => {
  const bundled =
    "@font-face {\n  font-family: 'Inter Variable';\n  src: url(inter/a.woff2);\n}\n@font-face {\n  font-family: 'Other';\n  src: url(b.woff2);\n}";
  const css = bundledFontAliases(['Inter', 'inter', 'Inter Variable', 'Poppins'], bundled);
  t.is(css, "@font-face {\n  font-family: 'Inter';\n  src: url(inter/a.woff2);\n}");
});

test('"Inter" maps to the bundled Inter; fonts asked for and not available are reported', async (t) => {
  const { out, result } = await renderFixtureDir(t, 'author-font');
  const interCss = (await readdir(join(out, '_assets'))).find((f) => /^inter\.[0-9a-f]+\.css$/.test(f));
  t.truthy(interCss);
  const css = await readFile(join(out, '_assets', interCss ?? ''), 'utf8');
  t.regex(css, /font-family: 'Inter';[^}]*url\(inter\/inter-latin-wght-normal\.woff2\)/);
  const fonts = result.report.warnings.map((w) => w.message).filter((m) => m.startsWith('font '));
  t.deepEqual(fonts.sort(), [
    'font "Fira Code" (asked for in style.css) is not in the export: neither bundled nor given as a local font file, so pages show a fallback font',
    'font "JetBrains Mono" (asked for in style.css) is not in the export: neither bundled nor given as a local font file, so pages show a fallback font',
    'font "Poppins" (asked for in docs.json) is not in the export: neither bundled nor given as a local font file, so pages show a fallback font',
  ]);
});

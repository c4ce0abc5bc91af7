/**
 * Family names authors write for the fonts Enclave bundles, lower-cased, mapped to the bundled
 * family. Sites load Inter from Google Fonts or rsms.me as "Inter" or "Inter var"; with that
 * remote `@import` gone only "Inter Variable" (fontsource's name) is in the bundle.
 */
const ALIASES: Record<string, string> = {
  inter: 'Inter Variable',
  'inter var': 'Inter Variable',
  'inter variable': 'Inter Variable',
  intervariable: 'Inter Variable',
  'inter-variable': 'Inter Variable',
};

/** The bundled family a name stands for (`"Inter"` → `"Inter Variable"`), or undefined. */
export function bundledFamilyFor(name: string): string | undefined {
  return ALIASES[name.trim().toLowerCase()];
}

/**
 * `@font-face` rules that give each requested alias of a bundled family the bundled faces: the
 * bundled stylesheet's rules repeated under the alias, so the same files serve both names and
 * an author's `font-family: "Inter"` renders in Inter, not in the fallback.
 */
export function bundledFontAliases(requested: Iterable<string>, bundledCss: string): string {
  const rules: string[] = [];
  const done = new Set<string>();
  for (const name of requested) {
    const family = bundledFamilyFor(name);
    const key = name.trim().toLowerCase();
    if (!family || key === family.toLowerCase() || done.has(key)) continue;
    done.add(key);
    const alias = name.trim().replace(/["'\\]/g, '');
    for (const m of bundledCss.matchAll(/@font-face\s*\{[^}]*\}/g)) {
      const face = m[0];
      const named = /font-family:\s*(['"])([^'"]+)\1/.exec(face);
      if (named?.[2] === family) rules.push(face.replace(named[0], `font-family: '${alias}'`));
    }
  }
  return rules.join('\n');
}

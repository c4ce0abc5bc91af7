/** A stylesheet with its remote loads removed, and what was removed. */
export interface StrippedCss {
  css: string;
  removed: { kind: 'font' | 'stylesheet' | 'image'; url: string }[];
}

const IMPORT = /@import\s+(?:url\(\s*)?(['"]?)((?:https?:)?\/\/[^'")\s;]+)\1\s*\)?[^;]*;/gi;
const URL_FN = /url\(\s*(['"]?)((?:https?:)?\/\/[^'")]+)\1\s*\)/gi;

/**
 * Removes what would make a stylesheet load from another origin: remote `@import`s (web fonts,
 * mostly) go entirely, and any other remote `url(…)` becomes `none`, which drops an
 * `@font-face` source or a background image without breaking the rest of the rule.
 */
export function stripRemoteCss(css: string): StrippedCss {
  const removed: StrippedCss['removed'] = [];
  let out = css.replace(IMPORT, (_m, _q, url: string) => {
    removed.push({ kind: /font/i.test(url) ? 'font' : 'stylesheet', url });
    return `/* removed for offline use: @import ${url.replace(/\*\//g, '')} */`;
  });
  const source = out;
  out = source.replace(URL_FN, (_m, _q, url: string, offset: number) => {
    const face = source.toLowerCase().lastIndexOf('@font-face', offset);
    const inFontFace = face >= 0 && !source.slice(face, offset).includes('}');
    removed.push({ kind: inFontFace ? 'font' : 'image', url });
    return 'none';
  });
  return { css: out, removed };
}

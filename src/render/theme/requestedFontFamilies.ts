/** What a stylesheet asks of fonts: the first family of each `font-family`, and the families it defines. */
export interface FontRequests {
  /** The family each `font-family` declaration (or `--*font*` custom property) wants first. */
  wanted: string[];
  /** Families an `@font-face` here defines with a source the export kept (local, not `none`). */
  defined: string[];
}

const DECLARATION = /(?:^|[;{\s])(font-family|--[\w-]*font[\w-]*)\s*:\s*([^;}]+)/gi;
const FACE = /@font-face\s*\{([^}]*)\}/gi;

/** Unquoted family names of a `font-family` value, in order (`var(…)` left out). */
function familiesOf(value: string): string[] {
  return value
    .replace(/!important/i, '')
    .split(',')
    .map((f) =>
      f
        .trim()
        .replace(/^(['"])(.*)\1$/, '$2')
        .trim(),
    )
    .filter((f) => f && !/^var\(/i.test(f));
}

/**
 * Reads the font families a stylesheet (an author's custom CSS, after remote loads were taken
 * out) asks for and defines, so the export can map the bundled ones and report the rest.
 */
export function requestedFontFamilies(css: string): FontRequests {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, '');
  const wanted: string[] = [];
  const defined: string[] = [];
  const faces = [...text.matchAll(FACE)];
  for (const face of faces) {
    const body = face[1];
    const family = /font-family\s*:\s*([^;]+)/i.exec(body);
    const src = /(?:^|;)\s*src\s*:\s*([^;]+)/i.exec(body);
    if (family && src && /(?:url|local)\(/i.test(src[1])) defined.push(...familiesOf(family[1]).slice(0, 1));
  }
  const outside = text.replace(FACE, '');
  for (const m of outside.matchAll(DECLARATION)) {
    const first = familiesOf(m[2])[0];
    // A custom property may hold something other than a family list (a size, a weight).
    if (first && (m[1].toLowerCase() === 'font-family' || !/^[\d.]|^(?:normal|bold|italic)$/i.test(first))) wanted.push(first);
  }
  return { wanted, defined };
}

/** A fence opening line: ``` or ~~~ (possibly indented or quoted), then the language word. */
const FENCE = /^[ \t>]*(?:`{3,}|~{3,})[ \t]*([A-Za-z0-9_#+.-]+)/gm;

/** Languages every site may need even without a fence naming them (generated API examples). */
const ALWAYS = ['bash', 'json'];

/**
 * The fence languages one text names, lower-cased, in order of first use: kept per file in the
 * source record, so an export needn't read an unchanged file to know them.
 */
export function fenceLanguagesOf(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(FENCE)) found.add(m[1].toLowerCase());
  return [...found];
}

/**
 * The fence languages used in the given docs texts, so the highlighter compiles only those
 * grammars: compiling one costs tens of milliseconds, and most sites use a handful.
 */
export function scanFenceLanguages(texts: Iterable<string>): string[] {
  const perText: string[][] = [];
  for (const text of texts) perText.push(fenceLanguagesOf(text));
  return mergeFenceLanguages(perText);
}

/** scanFenceLanguages from each text's own languages (fenceLanguagesOf), given in the texts' order. */
export function mergeFenceLanguages(perText: Iterable<readonly string[]>): string[] {
  const found = new Set(ALWAYS);
  for (const languages of perText) for (const language of languages) found.add(language);
  return [...found];
}

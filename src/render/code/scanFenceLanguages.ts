/** A fence opening line: ``` or ~~~ (possibly indented or quoted), then the language word. */
const FENCE = /^[ \t>]*(?:`{3,}|~{3,})[ \t]*([A-Za-z0-9_#+.-]+)/gm;

/** Languages every site may need even without a fence naming them (generated API examples). */
const ALWAYS = ['bash', 'json'];

/**
 * The fence languages used in the given docs texts, so the highlighter compiles only those
 * grammars: compiling one costs tens of milliseconds, and most sites use a handful.
 */
export function scanFenceLanguages(texts: Iterable<string>): string[] {
  const found = new Set(ALWAYS);
  for (const text of texts) for (const m of text.matchAll(FENCE)) found.add(m[1].toLowerCase());
  return [...found];
}

/**
 * The `<a>` start tags that open while another `<a>` is still open, read from the serialized
 * HTML as written (a real HTML parser would split them apart, hiding the nesting this looks
 * for). Scripts, styles, templates and comments are skipped: their text is not markup.
 */
export function findNestedLinks(html: string): string[] {
  const markup = html.replace(/<(script|style|template)\b[\s\S]*?<\/\1>|<!--[\s\S]*?-->/gi, '');
  const nested: string[] = [];
  let depth = 0;
  for (const m of markup.matchAll(/<(\/?)a(?=[\s>/])[^>]*>/gi)) {
    if (m[1]) depth = Math.max(0, depth - 1);
    else {
      if (depth > 0) nested.push(m[0]);
      depth++;
    }
  }
  return nested;
}

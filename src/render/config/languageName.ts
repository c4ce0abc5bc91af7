/** Codes docs.json accepts that are not BCP 47 tags, mapped to the tag they stand for. */
const ALIASES: Record<string, string> = {
  cn: 'zh-Hans',
  jp: 'ja',
  'zh-TW': 'zh-Hant',
  'zh-CN': 'zh-Hans',
  ua: 'uk',
  kr: 'ko',
  br: 'pt-BR',
};

/**
 * The name a reader of a language knows it by (`fr` → `Français`, `cn` → `中文（简体）`), for the
 * language switcher. Uses the runtime's own locale data (Node ships full ICU), so no list to keep;
 * an unknown code is returned as written.
 */
export function languageName(code: string): string {
  const tag = ALIASES[code] ?? code;
  try {
    // `fallback: 'none'`: a code the locale data doesn't know comes back undefined, not as "Xx (UNKNOWN)".
    const name = new Intl.DisplayNames([tag], { type: 'language', fallback: 'none' }).of(tag);
    if (!name || name.toLowerCase() === tag.toLowerCase()) return code;
    return name.charAt(0).toLocaleUpperCase(tag) + name.slice(1);
  } catch {
    return code;
  }
}

/** The BCP 47 tag for a docs.json language code (for `<html lang>`). */
export function languageTag(code: string): string {
  return ALIASES[code] ?? code;
}

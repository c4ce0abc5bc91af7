import { ENGLISH_INTERFACE, INTERFACE_TRANSLATIONS, type InterfaceText } from './interfaceTranslations.js';

/** Tags whose script decides the translation (`zh-TW` is written in traditional characters). */
const BY_REGION: Record<string, string> = {
  zh: 'zh-Hans',
  'zh-cn': 'zh-Hans',
  'zh-sg': 'zh-Hans',
  'zh-tw': 'zh-Hant',
  'zh-hk': 'zh-Hant',
  'zh-mo': 'zh-Hant',
};

/**
 * The interface text for a page in the language `tag` (a BCP 47 tag such as `fr`, `pt-BR`,
 * `zh-Hant`): its own translation, else its base language's, else English.
 */
export function interfaceText(tag: string | undefined): InterfaceText {
  if (!tag) return ENGLISH_INTERFACE;
  const lower = tag.toLowerCase();
  const exact = Object.keys(INTERFACE_TRANSLATIONS).find((k) => k.toLowerCase() === lower) ?? BY_REGION[lower];
  return INTERFACE_TRANSLATIONS[exact ?? lower.split('-')[0]] ?? ENGLISH_INTERFACE;
}

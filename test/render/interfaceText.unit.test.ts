import test from 'ava';
import { interfaceText } from '../../src/render/theme/interfaceText.js';
import { ENGLISH_INTERFACE, INTERFACE_TRANSLATIONS } from '../../src/render/theme/interfaceTranslations.js';

test('a page language picks its translation, its base language, its script, or English', (t) => {
  t.is(interfaceText('fr').onThisPage, 'Sur cette page');
  t.is(interfaceText('pt-BR').next, 'Próximo', 'region falls back to the base language');
  t.is(interfaceText('fr-CA').previous, 'Précédent');
  t.is(interfaceText('zh-Hans').onThisPage, '本页内容');
  t.is(interfaceText('zh-TW').onThisPage, '本頁內容', 'Taiwan reads traditional characters');
  t.is(interfaceText('zh').search, '搜索…');
  t.is(interfaceText('ZH-hant').search, '搜尋…', 'tags are case-insensitive');
  t.is(interfaceText('xx-unknown'), ENGLISH_INTERFACE);
  t.is(interfaceText(undefined), ENGLISH_INTERFACE);
});

test('every translation fills every key, keeps the search placeholders, and is not English left in place', (t) => {
  for (const [lang, text] of Object.entries(INTERFACE_TRANSLATIONS)) {
    for (const key of Object.keys(ENGLISH_INTERFACE) as (keyof typeof ENGLISH_INTERFACE)[]) {
      t.true(typeof text[key] === 'string' && text[key].trim() !== '', `${lang}.${key}`);
    }
    t.true(text.manyResults.includes('{n}') && text.oneResult.includes('{n}') && text.noResults.includes('{q}'), lang);
    for (const key of ['onThisPage', 'search', 'previous', 'next', 'helpful', 'send'] as const)
      t.not(text[key], ENGLISH_INTERFACE[key], `${lang}.${key} is translated`);
  }
});

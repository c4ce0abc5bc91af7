import { languageTag } from '../config/languageName.js';
import type { ResolvedNavigation } from './resolveNavigation.js';

/**
 * The language tag of a page (`fr`, `zh-Hans`): the language the navigation puts it under, else,
 * for a page outside the navigation, the site's default language; undefined on a site without
 * languages.
 */
export function pageLanguageTag(nav: Pick<ResolvedNavigation, 'locations' | 'root'>, path: string): string | undefined {
  const placed = nav.locations.get(path)?.divisions.find((d) => d.kind === 'language');
  const language =
    placed ?? nav.root.divisions.find((d) => d.kind === 'language' && d.isDefault) ?? nav.root.divisions.find((d) => d.kind === 'language');
  return language?.code ? languageTag(language.code) : undefined;
}

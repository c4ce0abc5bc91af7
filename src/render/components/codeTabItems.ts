import type { ElementContent } from '../types.js';
import { languageDisplayName } from '../code/codeLanguages.js';
import type { TabItem } from './buildTabs.js';
import { elementNodes } from './contentNodes.js';

/** Turns highlighted code figures into tab items labelled by filename/title, else by language. */
export function codeTabItems(children: ElementContent[]): TabItem[] {
  return elementNodes(children).map((child, i) => {
    const p = child.properties;
    const filename = typeof p.dataFilename === 'string' && p.dataFilename !== '' ? p.dataFilename : undefined;
    const lang = typeof p.dataLang === 'string' ? p.dataLang : undefined;
    const label =
      filename ?? (p.dataEnclaveCode !== undefined ? languageDisplayName(lang) : String(p.dataTitle ?? '') || `Example ${i + 1}`);
    return { label, panel: [child] };
  });
}

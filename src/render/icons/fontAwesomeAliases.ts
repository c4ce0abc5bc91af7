import { readFileSync } from 'node:fs';

/** Pro-only names Mintlify docs use a lot, mapped to the closest free icon (the bundle ships only the free set). */
const PRO_FALLBACKS: Record<string, string> = {
  browser: 'window-maximize',
  'square-terminal': 'terminal',
  'rectangle-terminal': 'terminal',
  stars: 'star',
  'file-plus': 'file-circle-plus',
  'book-open-cover': 'book-open',
  'microchip-ai': 'microchip',
  'file-certificate': 'file-contract',
  'text-size': 'text-height',
  files: 'copy',
  outlet: 'plug',
  'square-k': 'k',
  'square-c': 'c',
  'square-code': 'code',
  'brackets-curly': 'code',
  'house-chimney': 'house',
  'message-bot': 'robot',
  'gear-complex': 'gear',
  'arrow-up-right': 'arrow-up-right-from-square',
  sparkles: 'wand-magic-sparkles',
  webhook: 'link',
  api: 'code',
  'bolt-lightning': 'bolt',
  'flask-vial': 'flask',
  'lightbulb-on': 'lightbulb',
};

let aliasMap: Map<string, string> | undefined;

/** Reads the free package's alias table once, on the first name that has no file of its own. */
function loadAliases(metadataFile: string): Map<string, string> {
  const map = new Map<string, string>();
  let text: string;
  try {
    text = readFileSync(metadataFile, 'utf8');
  } catch {
    return map;
  }
  // A line scan of the YAML is enough: top-level keys are icon names, and only
  // the `aliases.names` list under each one matters here. Parsing the whole ~1 MB
  // document with a YAML library would cost far more.
  let icon = '';
  let inNames = false;
  for (const line of text.split('\n')) {
    const top = /^([a-z0-9-]+):\s*$/.exec(line);
    if (top) {
      icon = top[1];
      inNames = false;
      continue;
    }
    if (/^ {4}names:\s*$/.test(line)) {
      inNames = true;
      continue;
    }
    const item = inNames ? /^ {6}- ['"]?([a-z0-9-]+)['"]?\s*$/.exec(line) : null;
    if (item) map.set(item[1], icon);
    else if (!/^ {6}/.test(line)) inNames = false;
  }
  return map;
}

/** The free Font Awesome name to try for a name that has no file: an official alias or a Pro stand-in. */
export function fontAwesomeAlias(name: string, metadataFile: string): string | undefined {
  aliasMap ??= loadAliases(metadataFile);
  return aliasMap.get(name) ?? PRO_FALLBACKS[name];
}

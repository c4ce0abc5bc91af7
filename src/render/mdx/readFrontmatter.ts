import { parse as parseYaml } from 'yaml';
import { frontmatterText } from './parseSource.js';
import { readSimpleYaml } from './readSimpleYaml.js';

/** Frontmatter keys the renderer understands (others are kept but unused). */
export interface Frontmatter {
  title?: string;
  sidebarTitle?: string;
  description?: string;
  icon?: string;
  mode?: string;
  hidden?: boolean;
  noindex?: boolean;
  openapi?: string;
  tag?: string;
  [key: string]: unknown;
}

/** Parses the YAML frontmatter of page text; invalid YAML is reported via `warn` and ignored. */
export function readFrontmatter(text: string, warn: (message: string) => void): Frontmatter {
  const raw = frontmatterText(text);
  if (raw === null) return {};
  let data: unknown = readSimpleYaml(raw);
  try {
    data ??= parseYaml(raw, { maxAliasCount: 50 });
  } catch (err) {
    warn(`invalid frontmatter YAML: ${(err as Error).message.split('\n')[0]}`);
    return {};
  }
  if (!data || typeof data !== 'object' || Array.isArray(data)) return {};
  const fm = data as Record<string, unknown>;
  const s = (v: unknown) => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
  return {
    ...fm,
    title: s(fm.title),
    sidebarTitle: s(fm.sidebarTitle),
    description: s(fm.description),
    icon: s(fm.icon),
    mode: s(fm.mode),
    hidden: fm.hidden === true,
    noindex: fm.noindex === true || (fm.seo && typeof fm.seo === 'object' && (fm.seo as { noindex?: unknown }).noindex === true) === true,
    openapi: s(fm.openapi),
    tag: s(fm.tag),
  };
}

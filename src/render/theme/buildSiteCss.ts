import type { SiteConfig } from '../config/SiteConfig.js';

type Rgb = [number, number, number];

const LIGHT_BG: Rgb = [255, 255, 255];
const DARK_BG: Rgb = [14, 17, 22];

/**
 * The site's own stylesheet: brand colours from the config, adjusted so links and focus rings
 * keep at least 4.5:1 contrast even on tinted backgrounds in both schemes (brand greens and yellows often don't), plus
 * `@font-face` rules for local font files.
 */
export function buildSiteCss(config: SiteConfig, fontUrl: (src: string) => string | null): string {
  const primary = parseHex(config.colors.primary) ?? [13, 147, 115];
  const lightBg = parseHex(config.colors.background?.light ?? '') ?? LIGHT_BG;
  const darkBg = parseHex(config.colors.background?.dark ?? '') ?? DARK_BG;
  const darkBase = parseHex(config.colors.light ?? '') ?? primary;
  const linkLight = ensureContrast(primary, lightBg, [0, 0, 0]);
  const linkDark = ensureContrast(darkBase, darkBg, [255, 255, 255]);
  const lines = [
    `:root{--enclave-primary:${hex(primary)};--enclave-link:${hex(linkLight)};--enclave-focus:${hex(linkLight)};` +
      `--enclave-primary-soft:${rgba(primary, 0.1)};--enclave-button-bg:${hex(linkLight)};--enclave-button-fg:${hex(pickText(linkLight))};` +
      (config.colors.background?.light ? `--enclave-bg:${hex(lightBg)};` : '') +
      '}',
    `:root[data-theme="dark"]{--enclave-primary:${hex(darkBase)};--enclave-link:${hex(linkDark)};--enclave-focus:${hex(linkDark)};` +
      `--enclave-primary-soft:${rgba(darkBase, 0.16)};--enclave-button-bg:${hex(linkDark)};--enclave-button-fg:${hex(pickText(linkDark))};` +
      (config.colors.background?.dark ? `--enclave-bg:${hex(darkBg)};` : '') +
      '}',
  ];
  for (const font of config.fonts) {
    const url = font.source ? fontUrl(font.source) : null;
    const family = font.family.replace(/["\\]/g, '');
    if (url)
      lines.push(
        `@font-face{font-family:"${family}";src:url("${url}")${font.format ? ` format("${font.format}")` : ''};font-display:swap;${font.weight ? `font-weight:${font.weight};` : ''}}`,
      );
    // The bundled Inter stands in when the family is neither bundled nor installed (a remote font left out).
    lines.push(`:root{--enclave-font:"${family}","Inter Variable",system-ui,sans-serif}`);
  }
  return `${lines.join('\n')}\n`;
}

function parseHex(s: string): Rgb | null {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(s.trim());
  if (!m) return null;
  const h =
    m[1].length === 3
      ? m[1]
          .split('')
          .map((c) => c + c)
          .join('')
      : m[1];
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

const hex = (c: Rgb) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
const rgba = (c: Rgb, a: number) => `rgba(${c.map(Math.round).join(',')},${a})`;

function luminance(c: Rgb): number {
  const [r, g, b] = c.map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** WCAG contrast ratio between two colours. */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

/** Mixes `color` toward `toward` in small steps until it reaches 5.2:1 against `bg` (headroom for tinted backgrounds such as the current sidebar item) (bounded). */
function ensureContrast(color: Rgb, bg: Rgb, toward: Rgb): Rgb {
  let c = color;
  for (let i = 0; i < 40 && contrastRatio(c, bg) < 5.2; i++) c = c.map((v, k) => v + (toward[k] - v) * 0.08) as Rgb;
  return c;
}

function pickText(bg: Rgb): Rgb {
  return contrastRatio(bg, [255, 255, 255]) >= contrastRatio(bg, [0, 0, 0]) ? [255, 255, 255] : [0, 0, 0];
}

import { createGenerator, type UnoGenerator } from '@unocss/core';
import presetWind3 from '@unocss/preset-wind3';

/** The site's brand colours, which Mintlify's Tailwind names `primary`, `primary-light`, `primary-dark`. */
export interface BrandColors {
  primary: string;
  light?: string;
  dark?: string;
}

const generators = new Map<string, Promise<UnoGenerator>>();

/**
 * The Tailwind-compatible engine for one set of brand colours, created once per process and
 * colour set. Utilities are scoped under `.enclave-content` so they outrank the theme's element
 * rules (`.enclave-content img`) the way they outrank Tailwind's preflight on the hosted site,
 * and `dark:` keys on the theme's own switch (`<html data-theme="dark">`, set by
 * theme-init.js), not on the OS preference. Colours are the config's hex values, not CSS
 * variables, so opacity modifiers (`bg-primary/10`) work.
 */
function utilityEngine(colors: BrandColors): Promise<UnoGenerator> {
  const primary = { DEFAULT: colors.primary, light: colors.light ?? colors.primary, dark: colors.dark ?? colors.primary };
  const key = JSON.stringify(primary);
  let generator = generators.get(key);
  if (!generator) {
    generator = createGenerator({
      presets: [
        presetWind3({
          dark: { dark: '[data-theme="dark"]', light: '[data-theme="light"]' },
          preflight: 'on-demand',
          important: '.enclave-content',
        }),
      ],
      theme: { colors: { primary } },
    });
    generators.set(key, generator);
  }
  return generator;
}

/**
 * Hosted Tailwind resets every border to `0 solid`, so a bare `border` class draws a 1px line;
 * without that reset the browser's `border-style: none` hides it. Zero specificity, so any
 * utility (`border-dashed`, `border-2`) still wins.
 */
const BORDER_RESET = ':where(.enclave-content [class*="border"]){border-style:solid;border-width:0}';

/**
 * Generates exactly the utility CSS for the given class names (the ones the exported pages
 * use); names that are not utilities produce nothing. Returns '' when none is a utility.
 */
export async function buildUtilityCss(classes: Iterable<string>, colors: BrandColors): Promise<{ css: string; matched: string[] }> {
  const names = new Set(classes);
  if (names.size === 0) return { css: '', matched: [] };
  const uno = await utilityEngine(colors);
  const result = await uno.generate(names, { preflights: true, minify: true });
  if (result.matched.size === 0) return { css: '', matched: [] };
  const matched = [...result.matched].sort();
  const border = matched.some((n) => /(?:^|:)border/.test(n)) ? `${BORDER_RESET}\n` : '';
  return { css: `${border}${result.css}\n`, matched };
}

import type { ComponentRenderer } from '../types.js';

/** Built-in Mintlify components by JSX name (placeholder until the component library lands). */
export const builtInComponents: Record<string, ComponentRenderer> = {};

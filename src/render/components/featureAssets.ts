/** Files a runtime feature needs inside the bundle (placeholder: none yet). */
export function featureAssets(feature: 'mermaid' | 'katex' | 'openapi'): { source: string; target: string }[] {
  void feature;
  return [];
}

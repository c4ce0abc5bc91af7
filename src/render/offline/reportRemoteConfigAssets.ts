import type { SiteConfig } from '../config/SiteConfig.js';
import type { ReportCollector } from '../types.js';
import { isRemoteUrl } from './isRemoteUrl.js';

/**
 * Reports the config's remote fonts, logos and favicon, which the theme leaves out of an offline
 * export (the bundled Inter and the site name stand in): listed under the config file's name.
 */
export function reportRemoteConfigAssets(config: SiteConfig, report: ReportCollector): void {
  const page = config.configFile;
  for (const f of config.fonts)
    if (f.source && isRemoteUrl(f.source)) report.removedRemote({ page, kind: 'font', url: f.source, action: 'removed' });
  const favicon = typeof config.favicon === 'string' ? config.favicon : config.favicon?.light;
  for (const src of new Set([config.logo?.light, config.logo?.dark, favicon])) {
    if (src && isRemoteUrl(src)) report.removedRemote({ page, kind: 'image', url: src, action: 'removed' });
  }
}

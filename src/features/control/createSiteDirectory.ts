import type { ControlStore } from './ControlStore.js';
import type { SiteDirectory } from './SiteDirectory.js';

/** The read-only view of sites and projects that app/ hands to the other features. */
export function createSiteDirectory(control: Pick<ControlStore, 'sites' | 'projects'>): SiteDirectory {
  return {
    find: (domain) => control.sites.find(domain),
    list: () => control.sites.list(),
    project: (id) => control.projects.find(id),
    onChange: (listener) => control.sites.onChange(listener),
  };
}

import type { Config } from '../../config/schema.js';
import { AdminKeyRepository } from './AdminKeyRepository.js';
import { openControlDocument, type ControlData } from './controlDocument.js';
import type { JsonStore } from '../../platform/store/JsonStore.js';
import { ProjectRepository } from './ProjectRepository.js';
import { SiteRepository } from './SiteRepository.js';

/** The control-plane repositories over `control.json`. */
export interface ControlStore {
  document: JsonStore<ControlData>;
  projects: ProjectRepository;
  keys: AdminKeyRepository;
  sites: SiteRepository;
}

/** Opens control.json in the data directory and builds its repositories. */
export async function openControlStore(config: Pick<Config, 'dataDir' | 'sites'>): Promise<ControlStore> {
  const document = await openControlDocument(config.dataDir);
  return {
    document,
    projects: new ProjectRepository(document),
    keys: new AdminKeyRepository(document),
    sites: new SiteRepository(document, config.sites, config.dataDir),
  };
}

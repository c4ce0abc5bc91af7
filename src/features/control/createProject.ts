import type { Clock } from '../../platform/Clock.js';
import { randomId } from '../../platform/randomId.js';
import type { ProjectRecord } from './controlDocument.js';
import type { ControlStore } from './ControlStore.js';

/** Creates a project with default features (static export on). */
export async function createProject(control: ControlStore, clock: Clock, name: string): Promise<ProjectRecord> {
  const project: ProjectRecord = {
    id: randomId('proj_'),
    name,
    features: { staticExport: true },
    createdAt: clock.now().toISOString(),
  };
  await control.projects.insert(project);
  return project;
}

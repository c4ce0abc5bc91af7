import type { Clock } from '../Clock.js';
import { randomId } from '../randomId.js';
import type { ProjectRecord } from '../../store/controlDocument.js';
import type { ControlStore } from '../../store/ControlStore.js';

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

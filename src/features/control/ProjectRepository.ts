import type { JsonStore } from '../../platform/store/JsonStore.js';
import type { ControlData, ProjectRecord } from './controlDocument.js';

/** Projects in the control-plane store. */
export class ProjectRepository {
  constructor(private readonly store: JsonStore<ControlData>) {}

  /** The project with `id`, or undefined. */
  find(id: string): ProjectRecord | undefined {
    return this.store.data.projects.find((p) => p.id === id);
  }

  /** Every project. */
  list(): ProjectRecord[] {
    return this.store.data.projects;
  }

  /** The project used when a site or key names none. */
  defaultProjectId(): string | null {
    return this.store.data.defaultProjectId;
  }

  /** Adds a project durably; the first one becomes the default. */
  async insert(project: ProjectRecord): Promise<void> {
    await this.store.update((d) => {
      d.projects.push(project);
      d.defaultProjectId ??= project.id;
    });
  }

  /** Renames a project or switches features durably; undefined when there is no such project. */
  async update(id: string, change: { name?: string; features?: Partial<ProjectRecord['features']> }): Promise<ProjectRecord | undefined> {
    return this.store.update((d) => {
      const project = d.projects.find((p) => p.id === id);
      if (!project) return undefined;
      if (change.name !== undefined) project.name = change.name;
      for (const [feature, on] of Object.entries(change.features ?? {})) {
        if (on !== undefined) project.features[feature as keyof ProjectRecord['features']] = on;
      }
      return project;
    });
  }
}

import { z } from 'zod';
import type { ProjectRecord } from '../controlDocument.js';

/** The public shape of a project. */
export const projectSchema = z.object({
  id: z.string(),
  name: z.string(),
  features: z.object({ staticExport: z.boolean() }),
  createdAt: z.iso.datetime(),
});

/** Whitelists the fields of a project record that clients see. */
export function presentProject(p: ProjectRecord): z.infer<typeof projectSchema> {
  return { id: p.id, name: p.name, features: { staticExport: p.features.staticExport }, createdAt: p.createdAt };
}

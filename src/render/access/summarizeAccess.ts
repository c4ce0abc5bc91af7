import type { AccessMap } from '../../platform/access/PageAccess.js';
import type { BuildReport } from '../report/BuildReport.js';

/** The export report's account of reader access: how many pages carry a restriction, and of which kind. */
export function summarizeAccess(map: AccessMap, audienceFiles: boolean): NonNullable<BuildReport['access']> {
  const values = Object.values(map.pages);
  const publicPages = values.filter((a) => a === 'public').length;
  const groupPages = values.filter((a) => Array.isArray(a)).length;
  return {
    publicPages,
    signedInPages: values.length - publicPages - groupPages,
    groupPages,
    restrictedPages: values.length - publicPages,
    audiences: audienceFiles ? map.audiences.map((a) => a.id) : [],
  };
}

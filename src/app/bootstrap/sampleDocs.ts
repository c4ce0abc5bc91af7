import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Host name of the bundled sample docs site. */
export const SAMPLE_DOMAIN = 'sample.enclave.internal';

/** The sample docs shipped with the appliance (found from src/ and dist/ alike). */
export const sampleDocsDir = resolve(dirname(fileURLToPath(import.meta.url)), '../../../examples/sample-docs');

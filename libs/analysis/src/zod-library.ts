import type * as Zod from 'zod';

/**
 * zod, required when a schema is first built, not when a module loads: @schedlab/analysis builds
 * its zod schemas (run options, the timeline document) on first use, so the CLI's commands, which
 * validate neither, never load zod.
 */
export const zodLibrary = (): typeof Zod.z => (require('zod') as typeof Zod).z;

import { packageVersion } from './package-root.js';

/** The package version, read once from the package's package.json. */
export const VERSION: string = packageVersion();

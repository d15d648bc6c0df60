// tsc does not keep the executable bit; the bin entry needs it when linked by npm.
import { chmodSync } from 'node:fs';
chmodSync(new URL('../dist/cli/main.js', import.meta.url), 0o755);

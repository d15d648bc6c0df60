// Bundles the CLI (our modules and the packages they import) into dist/cli/main.js plus
// shared chunks in dist/cli/chunks/, one per lazily imported command and what they share.
//
// Why: a cold start of the unbundled build resolves, reads and compiles ~140 ES modules
// (zod alone is 95 files) before a command does anything; every judge and grader subprocess
// pays that again. Bundled, a command loads a handful of files. tsc's per-module output stays
// in dist/ beside it (benchmarks and tools import single modules from there); only the bin
// entry is replaced. Not minified, so a stack trace under DEBUG=1 stays readable.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = `${root}dist/cli`;

rmSync(`${outdir}/chunks`, { recursive: true, force: true });
rmSync(`${outdir}/main.js.map`, { force: true });

// commander requires node:child_process (and with it net, dgram, …) when it loads, for
// subcommands that are separate executables, which this CLI has none of; spawn is looked up
// when such a subcommand would run instead. Fails the build if commander stops matching.
const COMMANDER_CHILD_PROCESS = "const childProcess = require('node:child_process');";
const commanderWithoutEagerChildProcess = {
  name: 'commander-lazy-child-process',
  setup(bundle) {
    bundle.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes(COMMANDER_CHILD_PROCESS))
        throw new Error(
          `${args.path} no longer has the line the bundle replaces: ${COMMANDER_CHILD_PROCESS}`,
        );
      return {
        contents: source.replace(
          COMMANDER_CHILD_PROCESS,
          "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
        ),
        loader: 'js',
      };
    });
  },
};

const REQUIRE_SHIM = [
  "import { createRequire as __autoresearchRequire } from 'node:module';",
  'const require = __autoresearchRequire(import.meta.url);',
];
const FILENAME_SHIM = [
  "import { fileURLToPath as __autoresearchPath } from 'node:url';",
  'const __filename = __autoresearchPath(import.meta.url);',
];

/**
 * Drops the banner's shims from an output file whose code never names `require` or
 * `__filename` (most chunks: only the few holding CommonJS packages or esbuild's __require
 * helper use them). Each shim costs a createRequire or a URL parse when the file loads, in
 * every command and subprocess. A mention in a comment or string keeps the shim: harmless.
 */
function keepShimWhereUsed(file) {
  const text = readFileSync(file, 'utf8');
  const banner = [...REQUIRE_SHIM, ...FILENAME_SHIM].join('\n');
  const at = text.indexOf(banner);
  if (at < 0) throw new Error(`${file} does not start with the bundle's banner`);
  const body = text.slice(at + banner.length);
  const shims = [
    ...(/\brequire\b/.test(body) ? REQUIRE_SHIM : []),
    ...(body.includes('__filename') ? FILENAME_SHIM : []),
  ];
  writeFileSync(file, text.slice(0, at) + shims.join('\n') + body);
}

const result = await build({
  absWorkingDir: root,
  // The CLI, and the entry the runner starts its built-in judge and grader with.
  entryPoints: ['src/cli/main.ts', 'src/cli/builtin-main.ts'],
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // Bundled CommonJS packages (commander, write-file-atomic, …) call require() for Node's
  // own modules and read __filename; an ES module has neither, so each file gets both
  // (then taken out again of the files that use neither: see keepShimWhereUsed).
  banner: { js: [...REQUIRE_SHIM, ...FILENAME_SHIM].join('\n') },
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  plugins: [commanderWithoutEagerChildProcess],
});
if (result.errors.length > 0) process.exit(1);
for (const file of Object.keys(result.metafile.outputs))
  if (file.endsWith('.js')) keepShimWhereUsed(`${root}${file}`);

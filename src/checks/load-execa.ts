/**
 * execa for the checks that start programs (`command`, `javascript` with file://), imported the
 * first time one runs: most experiments have neither, and an `eval` or a judge process then
 * never loads it (it is the largest package the checks use).
 */
let execaModule: Promise<typeof import('execa')> | undefined;

export async function loadExeca(): Promise<typeof import('execa')['execa']> {
  execaModule ??= import('execa');
  return (await execaModule).execa;
}

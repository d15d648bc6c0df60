/**
 * An agent case's output as a folder (docs/design/judge-protocol.md "Agent outputs"): what a judge
 * or grader of an agent experiment finds at `outputs/output_NN/`. Three names sit at its top, and
 * only these, so no path of the workspace can collide with them:
 *
 * - `final-message.md`: the agent's last message, as it wrote it;
 * - `listing.json`: every path the run created, changed or deleted, with its kind, size and
 *   whether its text is under `files/` (and if not, why);
 * - `files/<path>`: each created or changed text file that was kept, whole, at its workspace path.
 *
 * The runner plans the folder from memory; `autoresearch judge`/`grade` read it back with
 * readOutputFolder, and what the built-in judge shows a model (presentOutputFolder) is a function of
 * the folder alone, so a batch built in memory asks exactly what the sandboxed judge asks.
 */
import { lstat, readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import * as z from 'zod';
import { fence } from './delimit.js';

export const FINAL_MESSAGE_FILE = 'final-message.md';
export const LISTING_FILE = 'listing.json';
export const FOLDER_FILES_DIR = 'files';

/** A relative path that stays inside the folder (a hand-made listing could name `../x`). */
const InsidePath = z
  .string()
  .min(1)
  .refine((path) => !path.startsWith('/') && !path.split('/').includes('..'), {
    error: 'expected a relative path inside the folder',
  });

export const FolderFile = z.object({
  path: InsidePath,
  status: z.enum(['created', 'changed', 'deleted']),
  kind: z.enum(['file', 'link', 'other']),
  size: z.number().int().min(0).optional(),
  /** A link's target. */
  target: z.string().optional(),
  /** Its text is under `files/<path>`. */
  shown: z.boolean(),
  /** Why it is not shown (too large, not text, …). */
  skipped: z.string().optional(),
});
export type FolderFile = z.infer<typeof FolderFile>;

/** `listing.json`. */
export const FolderListing = z.object({
  files: z.array(FolderFile),
  /** The workspace held more entries than were compared. */
  truncated: z.boolean(),
});
export type FolderListing = z.infer<typeof FolderListing>;

export interface OutputFolder {
  finalMessage: string;
  listing: FolderListing;
  /** The shown files' texts, by path. */
  texts: ReadonlyMap<string, string>;
}

/** What an agent case left, as its capture or record holds it: a file with `text` was kept. */
export interface LeftFile {
  path: string;
  status: FolderFile['status'];
  kind: FolderFile['kind'];
  size?: number;
  target?: string;
  skipped?: string;
  text?: string;
}

export function outputFolderOf(
  finalMessage: string,
  files: readonly LeftFile[],
  truncated: boolean,
): OutputFolder {
  const texts = new Map<string, string>();
  const listed = files.map(({ text, ...file }): FolderFile => {
    const shown = text !== undefined && file.status !== 'deleted';
    if (shown) texts.set(file.path, text);
    return { ...file, shown };
  });
  return { finalMessage, listing: { files: listed, truncated }, texts };
}

/** The folder's files, paths under `dir` (e.g. `outputs/output_03`). */
export function planOutputFolder(dir: string, folder: OutputFolder): { path: string; text: string }[] {
  return [
    { path: `${dir}/${FINAL_MESSAGE_FILE}`, text: folder.finalMessage },
    { path: `${dir}/${LISTING_FILE}`, text: `${JSON.stringify(folder.listing, null, 2)}\n` },
    ...folder.listing.files
      .filter((file) => file.shown)
      .map((file) => ({
        path: `${dir}/${FOLDER_FILES_DIR}/${file.path}`,
        text: folder.texts.get(file.path) ?? '',
      })),
  ];
}

/**
 * A folder as planOutputFolder laid it out. Without `listing.json` (a folder made by hand) every
 * file under `files/` is taken as created and shown.
 */
export async function readOutputFolder(dir: string): Promise<OutputFolder> {
  const finalMessage = await readFile(join(dir, FINAL_MESSAGE_FILE), 'utf8').catch(() => '');
  const listingText = await readFile(join(dir, LISTING_FILE), 'utf8').catch(() => undefined);
  const listing =
    listingText === undefined
      ? { files: await listFiles(join(dir, FOLDER_FILES_DIR)), truncated: false }
      : FolderListing.parse(JSON.parse(listingText));
  const texts = new Map<string, string>();
  for (const file of listing.files)
    if (file.shown) texts.set(file.path, await readFile(join(dir, FOLDER_FILES_DIR, file.path), 'utf8'));
  return { finalMessage, listing, texts };
}

async function listFiles(root: string): Promise<FolderFile[]> {
  const found: FolderFile[] = [];
  const walk = async (dir: string): Promise<void> => {
    const names = (await readdir(dir).catch(() => [] as string[])).sort();
    for (const name of names) {
      const full = join(dir, name);
      const info = await lstat(full);
      if (info.isDirectory()) await walk(full);
      else if (info.isFile())
        found.push({
          path: relative(root, full).split(sep).join('/'),
          status: 'created',
          kind: 'file',
          size: info.size,
          shown: true,
        });
    }
  };
  await walk(root);
  return found;
}

/**
 * The folder as one text for a model (the built-in judge's OUTPUT): the final message, each shown
 * file whole under its path, then the paths listed only. Each part is fenced with a tag of its own
 * content, so no file can pose as another or as the message.
 */
export function presentOutputFolder(folder: OutputFolder): string {
  const { files, truncated } = folder.listing;
  const message = folder.finalMessage.trim();
  const lines = ['The agent’s final message:', message === '' ? '(none)' : fence('MESSAGE', message), ''];
  const shown = files.filter((f) => f.shown);
  lines.push(
    shown.length === 0
      ? 'It created or changed no file that can be shown.'
      : `The files it created or changed, each whole (${shown.length}):`,
  );
  for (const file of shown)
    lines.push(
      '',
      `File: ${file.path} (${describeFile(file)})`,
      fence('FILE', folder.texts.get(file.path) ?? ''),
    );
  const listed = files.filter((f) => !f.shown);
  if (listed.length > 0) {
    lines.push('', 'Listed only, without their content:');
    for (const file of listed) lines.push(`- ${file.path} (${describeFile(file)})`);
  }
  if (truncated)
    lines.push('', 'The workspace held more entries than were compared: the list may be incomplete.');
  return lines.join('\n');
}

function describeFile(file: FolderFile): string {
  if (file.status === 'deleted') return 'deleted';
  const parts: string[] = [file.status];
  if (file.kind === 'link') parts.push(`a link to ${file.target ?? '?'}`);
  else if (file.kind === 'other') parts.push('not a regular file');
  if (file.size !== undefined) parts.push(`${file.size} bytes`);
  if (!file.shown && file.skipped !== undefined) parts.push(`not shown: ${file.skipped}`);
  return parts.join(', ');
}

import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  FolderListing,
  outputFolderOf,
  planOutputFolder,
  presentOutputFolder,
  readOutputFolder,
} from '../../../src/protocol/output-folder.js';
import { inputFileName, isInOutputFolder, outputFolderName } from '../../../src/protocol/review-files.js';
import { useTempDir } from '../../helpers/temp-dir.js';

const tmp = useTempDir('output-folder-');

// What an agent left: a written file, a file named like the folder's own entries, a binary one,
// a link, a file too large to keep, and a deleted one.
const folder = outputFolderOf(
  'Done: wrote NOTES.md.',
  [
    { path: 'NOTES.md', status: 'created', kind: 'file', size: 12, text: '# Notes\nok\n' },
    { path: 'final-message.md', status: 'created', kind: 'file', size: 9, text: 'not mine\n' },
    { path: 'logo.png', status: 'created', kind: 'file', size: 2048, skipped: 'not UTF-8 text' },
    { path: 'latest', status: 'created', kind: 'link', target: 'NOTES.md' },
    {
      path: 'big.log',
      status: 'changed',
      kind: 'file',
      size: 2_000_000,
      skipped: 'larger than 1048576 bytes',
    },
    { path: 'old.txt', status: 'deleted', kind: 'file' },
  ],
  false,
);

async function writePlanned(root: string, files: readonly { path: string; text: string }[]) {
  for (const file of files) {
    await mkdir(dirname(join(root, file.path)), { recursive: true });
    await writeFile(join(root, file.path), file.text);
  }
}

async function pathsUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) out.push(relative(dir, join(entry.parentPath, entry.name)));
  return out.sort();
}

describe('an output folder', () => {
  it('holds the final message, the listing and the shown files under files/, so no workspace path collides', () => {
    const planned = planOutputFolder('outputs/output_03', folder);
    expect(planned.map((f) => f.path)).toEqual([
      'outputs/output_03/final-message.md',
      'outputs/output_03/listing.json',
      'outputs/output_03/files/NOTES.md',
      'outputs/output_03/files/final-message.md',
    ]);
    expect(planned[0]?.text).toBe('Done: wrote NOTES.md.');
    expect(planned[3]?.text).toBe('not mine\n');
    const listing = FolderListing.parse(JSON.parse(planned[1]?.text ?? ''));
    expect(listing.files.map((f) => [f.path, f.shown])).toEqual([
      ['NOTES.md', true],
      ['final-message.md', true],
      ['logo.png', false],
      ['latest', false],
      ['big.log', false],
      ['old.txt', false],
    ]);
    expect(listing.files[2]).toMatchObject({ size: 2048, skipped: 'not UTF-8 text' });
    expect(listing.files[3]).toMatchObject({ kind: 'link', target: 'NOTES.md' });
  });

  it('reads back as it was planned, and is presented to a model the same from disk as from memory', async () => {
    await writePlanned(tmp(), planOutputFolder('outputs/output_03', folder));
    const read = await readOutputFolder(join(tmp(), 'outputs/output_03'));
    expect(read.finalMessage).toBe(folder.finalMessage);
    expect(read.listing).toEqual(folder.listing);
    expect([...read.texts]).toEqual([...folder.texts]);
    const shown = presentOutputFolder(read);
    expect(shown).toBe(presentOutputFolder(folder));
    expect(shown).toContain('Done: wrote NOTES.md.');
    expect(shown).toContain('File: NOTES.md (created, 12 bytes)');
    expect(shown).toContain('# Notes\nok');
    expect(shown).toContain('- logo.png (created, 2048 bytes, not shown: not UTF-8 text)');
    expect(shown).toContain('- latest (created, a link to NOTES.md)');
    expect(shown).toContain('- old.txt (deleted)');
  });

  it('without a listing takes every file under files/ as created and shown', async () => {
    await writePlanned(tmp(), [
      { path: 'by-hand/final-message.md', text: 'hi' },
      { path: 'by-hand/files/a/b.md', text: 'deep' },
    ]);
    const read = await readOutputFolder(join(tmp(), 'by-hand'));
    expect(read.listing.files).toEqual([
      { path: 'a/b.md', status: 'created', kind: 'file', size: 4, shown: true },
    ]);
    expect(read.texts.get('a/b.md')).toBe('deep');
    expect(await pathsUnder(join(tmp(), 'by-hand'))).toEqual(['files/a/b.md', 'final-message.md']);
  });

  it('refuses a listing that names a path outside the folder', async () => {
    const listing = {
      files: [{ path: '../secret', status: 'created', kind: 'file', shown: true }],
      truncated: false,
    };
    await writePlanned(tmp(), [{ path: 'evil/listing.json', text: JSON.stringify(listing) }]);
    await expect(readOutputFolder(join(tmp(), 'evil'))).rejects.toThrow(/inside the folder/);
  });

  it('is named output_NN, its input input_NN.txt', () => {
    expect(outputFolderName(3, 12)).toBe('output_03');
    expect(outputFolderName(7, 150)).toBe('output_007');
    expect(inputFileName('output_03')).toBe('input_03.txt');
    expect(inputFileName('output_03.txt')).toBe('input_03.txt');
    expect(isInOutputFolder('outputs/output_03/files/a.md')).toBe(true);
    expect(isInOutputFolder('outputs/output_03.txt')).toBe(false);
  });
});

/**
 * A calibrate run's calibration.json for `show` (docs/design/judge-reliability.md): the file as
 * written, or null when the run never got that far (stopped, crashed) or the file is not one this
 * build reads — the caller then shows the run's journal instead.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isErrno } from '../run/errno.js';
import { CALIBRATION_FILE, CalibrationFile } from './calibration-file.js';

export async function readCalibration(runDir: string): Promise<CalibrationFile | null> {
  let text: string;
  try {
    text = await readFile(join(runDir, CALIBRATION_FILE), 'utf8');
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return null;
    throw error;
  }
  try {
    const parsed = CalibrationFile.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

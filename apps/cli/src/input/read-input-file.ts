import { readFileSync } from 'node:fs';
import { InputFileError } from './errors';

/** Reads a user-named file as UTF-8, turning "no such file" and friends into a named input error. */
export function readInputFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const detail =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a directory, expected a file'
          : (error as Error).message;
    throw new InputFileError(file, `cannot read: ${detail}`);
  }
}

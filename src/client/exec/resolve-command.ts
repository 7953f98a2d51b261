/**
 * Finds the program of an exec command on the host (raw_exec), as execvp would, so that a typo is a
 * clear refusal before the session starts instead of a spawn failure after it.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { ExecCommandError } from '../errors.js';

function executable(p: string): boolean {
  try {
    if (!statSync(p).isFile()) return false;
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function resolveCommand(command: string, envPath: string, cwd: string): string {
  if (command.includes('/')) {
    const full = path.resolve(cwd, command);
    if (!executable(full)) throw new ExecCommandError(`fork/exec ${command}: no such file or directory, or not executable`);
    return full;
  }
  for (const dir of envPath.split(':')) {
    const full = path.resolve(cwd, dir || '.', command);
    if (executable(full)) return full;
  }
  throw new ExecCommandError(`exec: "${command}": executable file not found in $PATH`);
}

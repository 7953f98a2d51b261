/**
 * Every generated documentation file, as relative path → content: the man pages and the completion
 * scripts. `npm run gen` writes them; the contract tests compare them with the committed files.
 */
import { fullRegistry } from '../registry.js';
import { FLAG_SETS } from '../flags/common.js';
import { isHidden, manPageName, renderGroupManPage, renderManPage, renderRootManPage } from './man.js';
import { renderCompletion, SHELLS } from './completions.js';

/** Directories whose generated files are replaced as a whole: anything else in them is stale. */
export const GENERATED_DIRS = ['man/man1', 'completions'];

export async function generateAll(): Promise<Record<string, string>> {
  const { commands, groups } = await fullRegistry();
  const files: Record<string, string> = {};
  const add = (file: string, content: string) => {
    if (file in files) throw new Error(`two generated documents would be written to ${file}`);
    files[file] = content;
  };
  add('man/man1/svc.1', renderRootManPage(commands, groups, FLAG_SETS));
  for (const group of groups) add(`man/man1/${manPageName(group.path)}.1`, renderGroupManPage(group, commands, groups));
  for (const spec of commands) {
    if (!isHidden(spec)) add(`man/man1/${manPageName(spec.path)}.1`, renderManPage(spec, FLAG_SETS, groups));
  }
  for (const shell of SHELLS) add(`completions/svc.${shell}`, renderCompletion(shell, commands, groups, FLAG_SETS));
  return files;
}

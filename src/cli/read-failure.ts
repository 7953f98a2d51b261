/**
 * Why a file named on the command line could not be read, in the words a user acts on ("no such file")
 * rather than Node's (`ENOENT: no such file or directory, open '/x'`), which repeat the path the message
 * already names.
 */
export function readFailure(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a directory';
  if (code === 'EACCES') return 'permission denied';
  return (err as Error).message;
}

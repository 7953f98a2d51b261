import { defineCommand } from '../../define.js';
import { ALLOC_ARG, BY_JOB_FLAGS, TAIL_SIZE_FLAGS } from './read-flags.js';

export default defineCommand({
  path: ['alloc', 'fs'],
  synopsis: 'Inspect the contents of an allocation directory',
  usage: 'svc alloc fs [options] ALLOC [PATH]',
  description:
    "Lists a directory of the allocation's directory (alloc/ and one per task) or prints a file of it; " +
    'PATH defaults to its root. -stat prints the file information, -tail the last -n lines (10) or -c ' +
    'bytes, and -f keeps printing what is appended until the allocation is done, or Ctrl-C.',
  examples: [{ command: 'svc alloc fs 9f2c alloc/logs' }, { command: 'svc alloc fs -tail -f 9f2c web/local/app.log' }],
  exitCodes: { 0: 'success', 1: 'an error, an unknown allocation or path' },
  family: 'scheduler',
  flagSets: ['http'],
  flags: [
    { name: 'machine', aliases: ['H'], type: 'bool', description: "Sizes in bytes, not KiB, MiB … (Nomad's -H)." },
    { name: 'stat', type: 'bool', description: 'Print the file information.' },
    { name: 'f', type: 'bool', description: 'Follow the file.' },
    { name: 'tail', type: 'bool', description: 'Print the end: the last -n lines (10) or -c bytes.' },
    ...TAIL_SIZE_FLAGS,
    ...BY_JOB_FLAGS,
  ],
  args: [
    ALLOC_ARG,
    { name: 'path', description: 'A path in the allocation directory.' },
  ],
  run: async (ctx) => (await import('./fs.run.js')).allocFs(ctx),
});

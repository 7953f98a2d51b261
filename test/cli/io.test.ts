/** The terminal policy of src/cli/io.ts: colour per stream, and when a question may be asked. */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createIo, type ColorOptions } from '../../src/cli/io.js';

const stream = (isTTY: boolean) => Object.assign(new PassThrough(), { isTTY });

function io(ttys: { stdin?: boolean; stdout?: boolean; stderr?: boolean }, env: NodeJS.ProcessEnv = {}, opts: ColorOptions = {}) {
  return createIo({ stdin: stream(ttys.stdin ?? false), stdout: stream(ttys.stdout ?? false), stderr: stream(ttys.stderr ?? false) }, env, opts);
}

describe('createIo', () => {
  it('colours each of stdout and stderr when that stream is a terminal', () => {
    expect(io({ stdout: true, stderr: true })).toMatchObject({ color: true, errColor: true });
    expect(io({ stdout: false, stderr: true })).toMatchObject({ color: false, errColor: true });
    expect(io({ stdout: true, stderr: false })).toMatchObject({ color: true, errColor: false });
  });

  it('colours nothing with NO_COLOR, SVC_CLI_NO_COLOR or -no-color; everything with -force-color', () => {
    const both = { stdout: true, stderr: true };
    for (const env of [{ NO_COLOR: '1' }, { SVC_CLI_NO_COLOR: 'true' }, { SVC_CLI_NO_COLOR: '1' }]) {
      expect(io(both, env)).toMatchObject({ color: false, errColor: false });
    }
    expect(io(both, { NO_COLOR: '' })).toMatchObject({ color: true, errColor: true });
    expect(io(both, {}, { noColor: true })).toMatchObject({ color: false, errColor: false });
    expect(io({}, { NO_COLOR: '1' }, { forceColor: true })).toMatchObject({ color: true, errColor: true });
  });

  it('may ask a question only with stdin and stdout on a terminal, and never with -non-interactive', () => {
    expect(io({ stdin: true, stdout: true }).canPrompt).toBe(true);
    expect(io({ stdin: true, stdout: false }).canPrompt).toBe(false);
    expect(io({ stdin: false, stdout: true }).canPrompt).toBe(false);
    expect(io({ stdin: true, stdout: true }, {}, { nonInteractive: true }).canPrompt).toBe(false);
  });
});

/**
 * Exec sessions on the node, without the WebSocket: every byte of a command's output reaches the reader,
 * also under a pseudo-terminal whose reader pauses and resumes while the command exits (the kernel and
 * node-pty both drop a terminal's last output when its slave side closes too early).
 */
import { describe, expect, it } from 'vitest';
import { startExecSession } from '../../src/client/exec/session.js';

const SIZE = 1_000_000;
const spec = { file: '/bin/sh', args: ['-c', `head -c ${SIZE} /dev/zero | tr '\\0' y`], cwd: '/tmp', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } };

describe('exec session output', () => {
  for (const tty of [true, false]) {
    it(`${tty ? 'a terminal' : 'pipes'}: nothing lost when the reader pauses at random and the command exits at once`, async () => {
      const counts: number[] = [];
      for (let round = 0; round < 2; round++) {
        const sessions = await Promise.all(Array.from({ length: 6 }, () => startExecSession(spec, { tty })));
        const got = sessions.map(() => 0);
        sessions.forEach((s, i) =>
          s.onOutput((_stream, data) => {
            got[i] += data.length;
            if (data[0] % 3 === 0 || Math.random() < 0.3) {
              s.pause();
              setTimeout(() => s.resume(), 20);
            }
          }),
        );
        const exits = await Promise.all(sessions.map((s) => s.exited));
        expect(exits.every((e) => e.exitCode === 0)).toBe(true);
        counts.push(...got);
      }
      expect(counts).toEqual(counts.map(() => SIZE));
    });
  }
});

/**
 * bin/svc's stdout and stderr (src/cli/stdio.ts): text goes straight to a file, pipe or socket, and Node's
 * stream is made only when something needs more than write() and isTTY; from then on everything goes
 * through it, in order. Real descriptors: a temporary file, /dev/null, a read-only file for a failing write.
 */
import { createWriteStream, closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lazyStdio } from '../../src/cli/stdio.js';
import { makeTempDir } from '../support/server.js';

let dir: string;
const opened: number[] = [];

beforeEach(async () => {
  dir = await makeTempDir('svc-stdio-');
});

afterEach(async () => {
  for (const fd of opened.splice(0)) closeSync(fd);
  await rm(dir, { recursive: true, force: true });
});

function open(name: string, flags: string): number {
  const fd = openSync(name, flags);
  opened.push(fd);
  return fd;
}

/** A descriptor of a new file, the stream `create` makes on it, and the calls made of `create`. */
function onFile() {
  const file = path.join(dir, 'out');
  const fd = open(file, 'w');
  const made: NodeJS.WriteStream[] = [];
  const errors: NodeJS.ErrnoException[] = [];
  const stdio = lazyStdio(
    fd,
    () => {
      const stream = createWriteStream('', { fd, autoClose: false }) as unknown as NodeJS.WriteStream;
      made.push(stream);
      return stream;
    },
    (err) => errors.push(err),
  );
  return { file, stdio, made, errors };
}

describe('lazyStdio', () => {
  it('writes text and bytes to a file without making a stream, and says it is no terminal', async () => {
    const { file, stdio, made } = onFile();
    expect(stdio.stream.isTTY).toBe(false);
    expect(stdio.stream.write('héllo ')).toBe(true);
    stdio.stream.write(Buffer.from('bytes '));
    await new Promise<void>((resolve) => stdio.stream.write('with a callback', () => resolve()));
    expect(readFileSync(file, 'utf8')).toBe('héllo bytes with a callback');
    expect(made).toEqual([]);
  });

  it('makes the stream at the first use of anything else, and sends every later write through it, in order', async () => {
    const { file, stdio, made } = onFile();
    stdio.stream.write('direct ');
    const drained = new Promise<void>((resolve) => stdio.stream.once('finish', () => resolve()));
    expect(made).toHaveLength(1);
    stdio.stream.write('then streamed');
    stdio.stream.end();
    await drained;
    expect(readFileSync(file, 'utf8')).toBe('direct then streamed');
    expect(made).toHaveLength(1);
  });

  it('settle() makes the stream at once, for a process that also writes to it directly', () => {
    const { stdio, made } = onFile();
    stdio.settle();
    expect(made).toHaveLength(1);
  });

  it('leaves a character device (a terminal, /dev/null) to the stream from the first write', () => {
    const fd = open('/dev/null', 'w');
    const made: string[] = [];
    const stdio = lazyStdio(fd, () => (made.push('stream'), createWriteStream('', { fd, autoClose: false }) as unknown as NodeJS.WriteStream), () => undefined);
    stdio.stream.write('x');
    expect(made).toEqual(['stream']);
  });

  it('hands a failed write to onError, as the stream\'s error event would', () => {
    const file = path.join(dir, 'read-only');
    writeFileSync(file, '');
    const fd = open(file, 'r');
    const errors: NodeJS.ErrnoException[] = [];
    const stdio = lazyStdio(fd, () => {
      throw new Error('no stream expected');
    }, (err) => errors.push(err));
    expect(stdio.stream.write('x')).toBe(false);
    expect(errors.map((e) => e.code)).toEqual(['EBADF']);
  });
});

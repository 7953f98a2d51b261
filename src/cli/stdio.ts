/**
 * process.stdout and process.stderr for bin/svc, created only when a command needs them. Node builds
 * each on first use, which for a pipe loads node:net and node:stream: some 4 ms of `svc version`'s start
 * (bench/limits.mjs), more than the command itself. Most commands only write text, which goes straight to
 * the file descriptor when it is a pipe, a file or a socket, synchronously as Node writes to those on
 * Linux. The first use of anything else (a listener, `destroyed`, a spinner, a prompt) creates Node's
 * stream, and from then on every write goes through it, so the output keeps its order. A terminal (or
 * /dev/null) gets Node's stream from the start: telling them apart takes node:tty, and so does a
 * terminal's width.
 */
import { fstatSync, writeSync } from 'node:fs';

export interface LazyStdio {
  stream: NodeJS.WriteStream;
  /** Node's stream from now on, for a process that also writes to it directly (a daemon's log) */
  settle(): void;
}

type WriteCallback = (err?: Error | null) => void;

/**
 * A file descriptor (1 or 2) as a stream: written to directly, or through Node's stream (`create`, the
 * getter of process.stdout or process.stderr) once needed. `onError` gets a failed write (EPIPE: the
 * reader went away) as the stream's 'error' listener would.
 */
export function lazyStdio(fd: number, create: () => NodeJS.WriteStream, onError: (err: NodeJS.ErrnoException) => void): LazyStdio {
  let stream: NodeJS.WriteStream | undefined;
  let direct: boolean | undefined;
  const node = (): NodeJS.WriteStream => {
    if (!stream) {
      stream = create();
      stream.on('error', onError);
    }
    return stream;
  };
  const writesDirectly = (): boolean => {
    if (direct === undefined) {
      try {
        const stat = fstatSync(fd);
        direct = stat.isFIFO() || stat.isFile() || stat.isSocket();
      } catch {
        direct = false;
      }
    }
    return direct && !stream;
  };

  function write(chunk: string | Uint8Array, encoding?: BufferEncoding | WriteCallback, callback?: WriteCallback): boolean {
    const done = typeof encoding === 'function' ? encoding : callback;
    const charset = typeof encoding === 'string' ? encoding : undefined;
    if (!writesDirectly()) return node().write(chunk, charset ?? 'utf8', done);
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, charset) : chunk;
    let written = 0;
    try {
      while (written < bytes.length) written += writeSync(fd, bytes, written);
    } catch (err) {
      // A descriptor some other process made non-blocking: Node's stream waits until it takes the rest.
      if ((err as NodeJS.ErrnoException).code === 'EAGAIN') return node().write(bytes.subarray(written), done);
      onError(err as NodeJS.ErrnoException);
      return false;
    }
    if (done) process.nextTick(done);
    return true;
  }

  const proxy = new Proxy({} as NodeJS.WriteStream, {
    get(_target, key) {
      if (key === 'write') return stream ? stream.write.bind(stream) : write;
      if (key === 'isTTY' && writesDirectly()) return false;
      const real = node();
      const value: unknown = Reflect.get(real, key, real);
      return typeof value === 'function' ? value.bind(real) : value;
    },
    set: (_target, key, value) => Reflect.set(node(), key, value),
    has: (_target, key) => key in node(),
    deleteProperty: (_target, key) => Reflect.deleteProperty(node(), key),
    getPrototypeOf: () => Reflect.getPrototypeOf(node()),
  });
  return { stream: proxy, settle: () => void node() };
}

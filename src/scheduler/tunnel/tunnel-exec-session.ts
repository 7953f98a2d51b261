/**
 * An exec session running on a node, seen through its tunnel as the session of a node in this process
 * (ExecSession). The node speaks Nomad's exec frames on the WebSocket (src/scheduler/wire/exec-stream.ts
 * runs there); its close frame, when it ends without an exit, carries the error the session ended with.
 */
import type { WebSocket } from 'ws';
import type { ExecExit, ExecSession, ExecStream, TerminalSize } from '../wire/exec.js';
import type { ExecOutputFrame } from '../wire/exec-stream.js';
import { NodeAnswer } from '../wire/tunnel-protocol.js';
import { InternalError } from '../../shared/errors.js';
import { CLOSE_GOING_AWAY, CLOSE_POLICY } from '../../shared/ws-close.js';

type Delivery = { kind: 'output'; stream: ExecStream; data: Buffer } | { kind: 'closed'; stream: ExecStream } | { kind: 'exit'; exit: ExecExit };

export class TunnelExecSession implements ExecSession {
  readonly exited: Promise<ExecExit>;
  /** what came before the listeners did, in order: output is never lost, nor delivered after the exit */
  private readonly queue: Delivery[] = [];
  private outputListener?: (stream: ExecStream, data: Buffer) => void;
  private closedListener?: (stream: ExecStream) => void;
  private exitCame = false;
  private settle: (exit: ExecExit) => void = () => undefined;
  private fail: (err: Error) => void = () => undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly nodeId: string,
  ) {
    this.exited = new Promise((resolve, reject) => {
      this.settle = resolve;
      this.fail = reject;
    });
    // A session nobody waits on (the client left first) must not fail unheard.
    this.exited.catch(() => undefined);
    ws.on('message', (data: Buffer) => this.receive(data));
    ws.on('error', () => undefined);
    ws.once('close', (code: number, reason: Buffer) => {
      if (!this.exitCame) this.fail(this.closedWith(code, reason.toString()));
    });
  }

  /** Tells the node to start the command (with the terminal size to start at); answers the session. */
  start(size?: TerminalSize): ExecSession {
    this.ws.send(JSON.stringify({ start: size ?? null }));
    return this;
  }

  onOutput(listener: (stream: ExecStream, data: Buffer) => void): void {
    this.outputListener = listener;
    this.deliver();
  }

  onOutputClosed(listener: (stream: ExecStream) => void): void {
    this.closedListener = listener;
    this.deliver();
  }

  write(data: Buffer): void {
    this.send({ stdin: { data: data.toString('base64') } });
  }

  closeStdin(): void {
    this.send({ stdin: { close: true } });
  }

  resize(size: TerminalSize): void {
    this.send({ tty_size: { height: size.rows, width: size.cols } });
  }

  /** The node's output waits in the connection (TCP's window) until resumed, which pauses the command there. */
  pause(): void {
    this.ws.pause();
  }

  resume(): void {
    this.ws.resume();
  }

  kill(): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.close();
    else this.ws.terminate();
  }

  private send(frame: object): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(frame));
  }

  private receive(data: Buffer): void {
    let frame: ExecOutputFrame;
    try {
      frame = JSON.parse(data.toString()) as ExecOutputFrame;
    } catch {
      return;
    }
    for (const stream of ['stdout', 'stderr'] as const) {
      const part = frame[stream];
      if (part?.data) this.queue.push({ kind: 'output', stream, data: Buffer.from(part.data, 'base64') });
      if (part?.close) this.queue.push({ kind: 'closed', stream });
    }
    if (frame.exited) {
      this.exitCame = true;
      this.queue.push({ kind: 'exit', exit: { exitCode: frame.result?.exit_code ?? 0, signal: frame.result?.signal ?? 0 } });
    }
    this.deliver();
  }

  private deliver(): void {
    while (this.queue.length > 0) {
      const next = this.queue[0];
      if (next.kind === 'output') {
        if (!this.outputListener) return;
        this.outputListener(next.stream, next.data);
      } else if (next.kind === 'closed') {
        if (!this.closedListener) return;
        this.closedListener(next.stream);
      } else {
        this.settle(next.exit);
      }
      this.queue.shift();
    }
  }

  /** Why the node ended the session without an exit: its close frame's reason, as the error it was. */
  private closedWith(code: number, reason: string): Error {
    if (code === CLOSE_POLICY) return new NodeAnswer(400, reason);
    if (code === CLOSE_GOING_AWAY) return new InternalError(`node ${this.nodeId} is shutting down`);
    if (reason) return new InternalError(reason);
    return new InternalError(`the connection to node ${this.nodeId} was lost during the exec session`);
  }
}

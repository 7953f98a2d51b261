/**
 * The session part the exec-like commands share: the streams from the command's Io, the token for the
 * handshake, and a failed session reported as Nomad words it ("failed to exec into task: …", exit 1).
 */
import type { CommandContext } from '../define.js';
import type { ApiClient } from '../../api/http/client.js';
import { CommandFailure } from '../command-failure.js';
import { runSession } from './session.js';
import type { StreamOptions } from './options.js';
import type { Spinner } from '../spinner.js';

/** Answers the remote command's exit code. */
export async function runStreamingSession(ctx: CommandContext, client: ApiClient, url: URL, streams: StreamOptions, spinner: Spinner): Promise<number> {
  try {
    return await runSession({
      url,
      token: client.config.token,
      tls: url.protocol === 'wss:' ? { options: await client.tlsOptions(), settings: client.config.tls } : undefined,
      tty: streams.tty,
      stdin: streams.stdin ? ctx.io.stdin : undefined,
      stdout: ctx.io.stdout,
      stderr: ctx.io.stderr,
      escape: streams.escape,
      onOpen: () => spinner.stop(),
    });
  } catch (err) {
    spinner.stop();
    throw new CommandFailure(`failed to exec into task: ${(err as Error).message}`);
  }
}

/**
 * The error hierarchy. Handlers throw these; one responder per API side maps them to a status and a body,
 * and src/main.ts maps them to exit codes. Messages are shown to users as they are, so they must say what
 * to change and must never contain secret values.
 */
export class SvcError extends Error {
  readonly statusCode: number = 500;
  readonly code: string = 'internal';
}

/** The caller sent something wrong: 400, with a message that names the field. */
export class UserError extends SvcError {
  override readonly statusCode: number = 400;
  override readonly code: string = 'bad_request';
}

/** The token may not do this: 403. The default message is the one existing clients look for. */
export class PermissionDenied extends SvcError {
  override readonly statusCode = 403;
  override readonly code = 'permission_denied';
  constructor(message = 'permission denied') {
    super(message);
  }
}

/** 404. An empty message renders as `{"errors":[]}` on the secrets side, as Vault answers a read miss. */
export class NotFound extends SvcError {
  override readonly statusCode = 404;
  override readonly code = 'not_found';
  constructor(message = '') {
    super(message);
  }
}

/** A check-and-set or uniqueness conflict the caller can resolve by re-reading: 409. */
export class Conflict extends SvcError {
  override readonly statusCode = 409;
  override readonly code = 'conflict';
}

/** The path exists but not for this method: 405. */
export class UnsupportedOperation extends SvcError {
  override readonly statusCode = 405;
  override readonly code = 'unsupported_operation';
  constructor(message = 'unsupported operation') {
    super(message);
  }
}

/** The request body is larger than the server accepts: 413. */
export class PayloadTooLarge extends SvcError {
  override readonly statusCode = 413;
  override readonly code = 'payload_too_large';
}

/**
 * Something the server depends on (the state's database) failed or is away: 503, with Retry-After. The
 * request may be repeated as it was; the message says whether it may have been applied.
 */
export class Unavailable extends SvcError {
  override readonly statusCode = 503;
  override readonly code = 'unavailable';
}

/** Something on our side failed; the message is logged in full and shown to the caller. */
export class InternalError extends SvcError {}

/**
 * No server leads the cluster now, while one is elected: Nomad's 500 "No cluster leader". Not logged per
 * request: the cluster logs the change of leader, and every node's heartbeat through an election would
 * otherwise be a stack trace.
 */
export class NoLeader extends SvcError {
  override readonly code = 'no_leader';
}

/** A failure in the client: bad flags, missing files. Never produced by the server. */
export class UsageError extends Error {}

/** The client could not reach the server. Counts as a server error for exit codes. */
export class ConnectionError extends Error {}

/** An HTTP error answered by a server, as the API client sees it. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly errors: string[],
    readonly url: string,
  ) {
    super(`Error making API request.\n\nURL: ${url}\nCode: ${statusCode}. Errors:\n\n${errors.map((e) => `* ${e}`).join('\n')}`);
  }
}

/**
 * Not a failure: -output-curl-string stopped the first request before it was sent. Thrown from the API
 * client so no command needs code of its own; src/main.ts prints `curl` and exits 0, as Vault does.
 */
export class CurlStringRequested extends Error {
  constructor(readonly curl: string) {
    super('the request was printed as a curl command instead of being sent');
  }
}

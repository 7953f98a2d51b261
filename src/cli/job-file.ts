/**
 * Reading a job file for the job commands (validate now; run and plan later): the file or `-` for stdin,
 * with -var, -var-file and the NOMAD_VAR_/SVC_VAR_ environment applied, giving the API job and the
 * JobSubmission that `job run` sends next to it.
 *
 * The jobspec parser is loaded on first use: command modules are imported on every CLI start.
 */
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Readable } from 'node:stream';
import { UserError } from '../shared/errors.js';
import type { ApiJob, JobSubmission } from '../jobspec/index.js';
import { CommandFailure } from './command-failure.js';
import { readFailure } from './read-failure.js';
import type { CommandContext } from './define.js';

export interface JobFileOptions {
  /** a file path, or `-` to read stdin */
  path: string;
  /** `-var` flags as typed: `name=value` */
  vars?: string[];
  /** `-var-file` paths, in command-line order */
  varFiles?: string[];
  /** the process environment: NOMAD_VAR_<name> and SVC_VAR_<name> are read from it */
  env?: NodeJS.ProcessEnv;
  stdin?: Readable;
  /** the file is API JSON (`-json`): variables make no sense for it */
  json?: boolean;
}

export interface LoadedJobFile {
  job: ApiJob;
  submission: JobSubmission;
  /** the name errors and the submission refer to: the path, or "stdin" */
  filename: string;
}

/**
 * The job file a job command names (its first argument), read with the command's -var, -var-file and
 * -json flags; what is wrong with it is reported as Nomad words it.
 */
export function loadJobFileOfCommand(ctx: CommandContext): Promise<LoadedJobFile> {
  return loadJobFile({
    path: ctx.args[0],
    vars: (ctx.flags.var as string[] | undefined) ?? [],
    varFiles: (ctx.flags['var-file'] as string[] | undefined) ?? [],
    env: ctx.env,
    stdin: ctx.io.stdin,
    json: ctx.flags.json === true,
  }).catch((err: unknown) => {
    throw err instanceof UserError ? new CommandFailure(`Error getting job struct: ${err.message}`) : err;
  });
}

/** `-var name=value` → a map; the value may itself hold `=`. */
export function parseVarFlags(vars: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const item of vars) {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UserError(`invalid -var "${item}": expected NAME=VALUE`);
    out[item.slice(0, eq).trim()] = item.slice(eq + 1);
  }
  return out;
}

async function readAll(stream: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

async function readSource(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (err) {
    throw new UserError(`Error getting ${what} from "${path}": ${readFailure(err)}`);
  }
}

/**
 * Reads and parses a job file. Every failure is a UserError whose message says which file and, for
 * syntax errors, which line.
 */
export async function loadJobFile(opts: JobFileOptions): Promise<LoadedJobFile> {
  const { parseJobspec, buildJobSubmission, jobFileDir, JobspecError } = await import('../jobspec/index.js');
  const vars = opts.vars ?? [];
  const varFilePaths = opts.varFiles ?? [];
  if (opts.json && (vars.length > 0 || varFilePaths.length > 0)) throw new UserError('cannot use variables with JSON files.');
  const fromStdin = opts.path === '-';
  const filename = fromStdin ? 'stdin' : opts.path;
  const source = fromStdin ? await readAll(opts.stdin ?? process.stdin) : await readSource(opts.path, 'jobfile');
  if (source.trim() === '') throw new UserError(`Error parsing job file from ${filename}: the job file is empty`);
  if (opts.json && !source.trimStart().startsWith('{')) throw new UserError(`Error parsing job file from ${filename}: -json was given but the file is not JSON`);
  const varFiles = [];
  for (const path of varFilePaths) varFiles.push({ name: path, content: await readSource(path, 'var file') });
  const parseOpts = {
    filename: fromStdin ? 'stdin' : basename(opts.path),
    variables: parseVarFlags(vars),
    varFiles,
    env: opts.env ?? {},
    // file() in a job read from stdin resolves against the working directory, as upstream.
    baseDir: fromStdin ? process.cwd() : jobFileDir(opts.path),
  };
  let job: ApiJob;
  try {
    job = await parseJobspec(source, parseOpts);
  } catch (err) {
    if (err instanceof JobspecError || err instanceof UserError) throw new UserError(`Error parsing job file from ${filename}:\n${err.message}`);
    throw err;
  }
  const submission = buildJobSubmission(source, parseOpts);
  return { job, submission, filename };
}

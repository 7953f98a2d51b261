/**
 * The committed completion scripts run in real bash, zsh and fish, each completing command lines as a
 * TAB at the end of the line would and answering the candidates per line. zsh and fish are installed
 * from Debian's packages when they are missing and this process may (root, apt-get); when it cannot,
 * the reason is logged and the caller skips their tests.
 */
import { spawn, spawnSync } from 'node:child_process';
import { symlink } from 'node:fs/promises';
import path from 'node:path';
import { makeTempDir, REPO, SVC_BIN } from './server.js';

export const SCRIPTS = {
  bash: path.join(REPO, 'completions/svc.bash'),
  zsh: path.join(REPO, 'completions/svc.zsh'),
  fish: path.join(REPO, 'completions/svc.fish'),
};

/** readline's default, as bash source; the bash script must work whether or not "=" breaks words. */
export const WORDBREAKS = `$' \\t\\n"\\'><=;|&(:'`;
export const WORDBREAKS_WITHOUT_EQUALS = `$' \\t\\n'`;

/** Separates the answers of two lines in the zsh and fish drivers' output. */
const END = '\x1e';

export interface CompleteOptions {
  env?: Record<string, string>;
  /** bash only: COMP_WORDBREAKS, as bash source */
  wordbreaks?: string;
}

function run(command: string, args: string[], env: Record<string, string>, input = ''): Promise<string> {
  return new Promise((resolve, reject) => {
    // Asynchronous on purpose: a test's server runs in this process and must answer `svc __complete`.
    const child = spawn(command, args, { env });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0 || err !== '') reject(new Error(`${command} exited ${code}: ${err}`));
      else resolve(out);
    });
    child.stdin.end(input);
  });
}

let binDir: Promise<string> | undefined;

/** PATH with `svc` (the built bin/svc) first: zsh and fish complete a command by its name. */
async function pathWithSvc(): Promise<string> {
  binDir ??= makeTempDir('svc-completion-bin-').then(async (dir) => {
    await symlink(SVC_BIN, path.join(dir, 'svc'));
    return dir;
  });
  return `${await binDir}:${process.env.PATH}`;
}

const baseEnv = async (opts: CompleteOptions) => ({ PATH: await pathWithSvc(), HOME: '/nonexistent', ...opts.env });

/** bash: the script's _svc called the way readline calls it, COMP_LINE and COMP_POINT at the line's end. */
export async function completeInBash(lines: string[], opts: CompleteOptions = {}): Promise<string[][]> {
  const driver = [
    `source ${JSON.stringify(SCRIPTS.bash)}`,
    `COMP_WORDBREAKS=${opts.wordbreaks ?? WORDBREAKS}`,
    'while IFS= read -r line; do',
    '  COMP_LINE=$line; COMP_POINT=${#line}; COMPREPLY=()',
    '  _svc',
    `  (IFS=$'\\t'; printf '%s\\n' "\${COMPREPLY[*]}")`,
    'done',
  ].join('\n');
  const out = await run('bash', ['--norc', '--noprofile', '-c', driver], await baseEnv(opts), lines.map((l) => `${l}\n`).join(''));
  return out
    .split('\n')
    .slice(0, lines.length)
    .map((l) => (l === '' ? [] : l.split('\t')));
}

function splitAnswers(out: string, count: number): string[][] {
  const answers = out.split(`${END}\n`).slice(0, count);
  if (answers.length !== count) throw new Error(`expected ${count} answers, got:\n${out}`);
  return answers.map((a) => a.split('\n').filter((l) => l !== ''));
}

/** zsh: a TAB typed in an interactive zsh with the completion system loaded (test/support/zsh-complete.zsh). */
export async function completeInZsh(lines: string[], opts: CompleteOptions = {}): Promise<string[][]> {
  const dump = path.join(await makeTempDir('svc-zcompdump-'), 'zcompdump');
  const out = await run('zsh', ['-f', path.join(REPO, 'test/support/zsh-complete.zsh'), dump, SCRIPTS.zsh, ...lines], await baseEnv(opts));
  return splitAnswers(out, lines.length);
}

/** fish: `complete -C LINE`, the candidates fish would offer; a candidate's description is cut off. */
export async function completeInFish(lines: string[], opts: CompleteOptions = {}): Promise<string[][]> {
  const driver = `source $argv[1]; for line in $argv[2..-1]; complete -C "$line"; printf '%s\\n' \\x1e; end`;
  const out = await run('fish', ['--no-config', '-c', driver, SCRIPTS.fish, ...lines], await baseEnv(opts));
  return splitAnswers(out, lines.length).map((a) => a.map((candidate) => candidate.split('\t')[0]));
}

const installed = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;

export function aptInstall(packages: string[]): { ok: boolean; error: string } {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Test files run side by side, and more than one may install: each waits for the other's lock.
  const wait = ['-o', 'DPkg::Lock::Timeout=600'];
  const install = () => spawnSync('apt-get', [...wait, 'install', '-y', '--no-install-recommends', ...packages], { encoding: 'utf8', env });
  let res = install();
  // A fresh image may hold no package lists yet: fetch them once and try again.
  if (res.status !== 0) {
    spawnSync('apt-get', [...wait, 'update'], { encoding: 'utf8', env });
    res = install();
  }
  return { ok: res.status === 0, error: `${res.error?.message ?? ''}${res.stderr ?? ''}`.trim().split('\n').slice(-5).join('\n') };
}

/**
 * Which of `shells` can run here, installing the missing ones when this process is root and has
 * apt-get. A shell that stays missing is reported with the reason (console.warn), once.
 */
export function ensureShells<S extends string>(shells: S[]): Record<S, boolean> {
  const missing = shells.filter((s) => !installed(s));
  if (missing.length > 0) {
    let reason: string | undefined;
    if (process.getuid?.() !== 0) reason = 'this process is not root';
    else if (!installed('apt-get')) reason = 'apt-get is not available';
    else {
      const { ok, error } = aptInstall(missing);
      if (!ok) reason = `apt-get install failed: ${error}`;
    }
    if (reason) console.warn(`${missing.join(' and ')} not installed (${reason}): their completion tests are skipped`);
  }
  return Object.fromEntries(shells.map((s) => [s, installed(s)])) as Record<S, boolean>;
}

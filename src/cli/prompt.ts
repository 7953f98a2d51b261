/**
 * The CLI's questions, through @inquirer/prompts. One is asked only when Io.canPrompt (stdin and stdout
 * are terminals, and no -non-interactive); otherwise the caller's `unanswerable` error is thrown, which
 * names the flag or argument that gives the answer instead. Questions are written to stderr, so stdout
 * keeps only the command's output, in stderr's colours. The library is loaded when a question is asked.
 */
import type { Io } from './io.js';
import { SvcError } from '../shared/errors.js';
import { errColours, type Palette } from './output/colour.js';

export type PromptIo = Pick<Io, 'stdin' | 'stderr' | 'canPrompt'>;

/** Ctrl-C or Ctrl-D at a question: nothing was answered. */
export class PromptInterrupted extends SvcError {
  constructor() {
    super('interrupted');
  }
}

/** inquirer's look, in the CLI's palette: plain where stderr takes no colour. */
function theme(p: Palette) {
  return {
    prefix: { idle: p.blue('?'), done: p.green('✔') },
    style: {
      answer: (text: string) => p.cyan(text),
      message: (text: string) => p.bold(text),
      error: (text: string) => p.red(`> ${text}`),
      defaultAnswer: (text: string) => p.dim(`(${text})`),
      help: (text: string) => p.dim(text),
      highlight: (text: string) => p.cyan(text),
      key: (text: string) => p.cyan(p.bold(`<${text}>`)),
      description: (text: string) => p.cyan(text),
      disabled: (text: string) => p.dim(text),
      keysHelpTip: (keys: Array<[string, string]>) => keys.map(([key, action]) => `${p.bold(key)} ${p.dim(action)}`).join(p.dim(' • ')),
    },
  };
}

type Prompts = typeof import('@inquirer/prompts');

async function ask<T>(io: PromptIo, unanswerable: Error, question: (prompts: Prompts, context: { input: Io['stdin']; output: Io['stderr'] }, look: ReturnType<typeof theme>) => Promise<T>): Promise<T> {
  if (!io.canPrompt) throw unanswerable;
  const prompts = await import('@inquirer/prompts');
  try {
    return await question(prompts, { input: io.stdin, output: io.stderr }, theme(errColours()));
  } catch (err) {
    if ((err as Error)?.name === 'ExitPromptError') throw new PromptInterrupted();
    throw err;
  }
}

/** A yes/no question; Enter alone answers `defaultAnswer`. */
export function confirm(io: PromptIo, message: string, opts: { defaultAnswer: boolean; unanswerable: Error }): Promise<boolean> {
  return ask(io, opts.unanswerable, ({ confirm: prompt }, context, look) => prompt({ message, default: opts.defaultAnswer, theme: look }, context));
}

/** One of `choices`, picked from a list. */
export function choose(io: PromptIo, message: string, choices: string[], unanswerable: Error): Promise<string> {
  return ask(io, unanswerable, ({ select }, context, look) => select({ message, choices: choices.map((name) => ({ name, value: name })), theme: look }, context));
}

/** A line of text that is not shown as it is typed (a token). */
export function askHidden(io: PromptIo, message: string, unanswerable: Error): Promise<string> {
  return ask(io, unanswerable, ({ password }, context, look) => password({ message, toggleMask: false, theme: look }, context));
}

/** A line of text; asked again, with `validate`'s message, until `validate` accepts it. */
export function askLine(io: PromptIo, message: string, opts: { validate(answer: string): true | string; unanswerable: Error }): Promise<string> {
  return ask(io, opts.unanswerable, ({ input }, context, look) => input({ message, validate: opts.validate, theme: look }, context));
}

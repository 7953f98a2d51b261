/**
 * Every colour the CLI prints comes from here: one palette for stdout and one for stderr, each on or off
 * as src/cli/io.ts decides (NO_COLOR, SVC_CLI_NO_COLOR, -no-color, -force-color, and whether that stream
 * is a terminal). The styles are chalk's (src/cli/output/chalk-palette.ts), loaded only when a palette is
 * on, so commands in pipes and scripts never load it.
 *
 * The palettes belong to the command the process runs (src/main.ts sets them before the command starts):
 * that lets the pure formatters (table headers) colour without an Io in hand. Built as one instance for
 * every bundle of the CLI (scripts/build.mjs, SHARED).
 */
import type { Io } from '../io.js';

/** The styles the CLI uses; each wraps its text (and nothing when colour is off). */
export interface Palette {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  yellowBright(text: string): string;
  blue(text: string): string;
  cyan(text: string): string;
}

const same = (text: string) => text;

/** No colour: every style gives its text back unchanged. */
export const PLAIN: Palette = { bold: same, dim: same, red: same, green: same, yellow: same, yellowBright: same, blue: same, cyan: same };

/** chalk's palette when `on`, else PLAIN. */
export async function loadPalette(on: boolean): Promise<Palette> {
  return on ? (await import('./chalk-palette.js')).chalkPalette() : PLAIN;
}

let current = { out: PLAIN, err: PLAIN };

/**
 * Sets the palettes from the command's Io (`color` for stdout, `errColor` for stderr); answers a function
 * that puts the previous ones back, for a process that runs more than one command (tests).
 */
export async function useColours(io: Pick<Io, 'color' | 'errColor'>): Promise<() => void> {
  const previous = current;
  current = { out: await loadPalette(io.color), err: await loadPalette(io.errColor) };
  return () => {
    current = previous;
  };
}

/** The palette of what the running command writes to stdout. */
export const colours = (): Palette => current.out;

/** The palette of what the running command writes to stderr (errors, warnings). */
export const errColours = (): Palette => current.err;

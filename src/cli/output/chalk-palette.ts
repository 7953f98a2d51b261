/**
 * The CLI's palette on chalk, in a bundle of its own that holds chalk too (scripts/build.mjs): loaded by
 * src/cli/output/colour.ts only when colour is on. The level is fixed at chalk's basic 16 colours, the
 * escapes Vault's and Nomad's CLIs print: whether to colour at all is decided by src/cli/io.ts, not by
 * chalk's own detection.
 */
import { Chalk } from 'chalk';
import type { Palette } from './colour.js';

const chalk = new Chalk({ level: 1 });

export function chalkPalette(): Palette {
  return chalk;
}

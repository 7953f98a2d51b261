import { HclError } from '../shared/hcl/source.js';

/**
 * A jobspec problem the author can fix. Syntax and evaluation errors carry file:line:column so an editor
 * can jump there; schema errors carry the block path instead, because that is how users think of them.
 */
export class JobspecError extends HclError {}

/** "Did you mean": close command words are suggested, far ones are not, closest first. */
import { describe, expect, it } from 'vitest';
import { didYouMean, didYouMeanFlag, editDistance, suggestions } from '../../src/cli/suggest.js';

describe('command suggestions', () => {
  it('counts edits, a swap of neighbours as one', () => {
    expect(editDistance('job', 'job')).toBe(0);
    expect(editDistance('jbo', 'job')).toBe(1);
    expect(editDistance('stauts', 'status')).toBe(1);
    expect(editDistance('lgs', 'logs')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('suggests words within a third of the length (at least one edit) or that the word begins, closest first, at most three', () => {
    const words = ['status', 'stop', 'scale', 'run', 'revert', 'restart', 'inspect'];
    expect(suggestions('stauts', words)).toEqual(['status']);
    expect(suggestions('rn', words)).toEqual(['run']);
    expect(suggestions('res', words)).toEqual(['restart']);
    expect(suggestions('xyzzy', words)).toEqual([]);
    expect(suggestions('s', ['a', 'b', 'c', 'd'])).toEqual(['a', 'b', 'c']);
  });

  it('words the hint as full commands', () => {
    expect(didYouMean(['job'], 'stauts', ['status', 'stop'])).toBe('\nDid you mean "svc job status"?');
    expect(didYouMean([], 'stat', ['status', 'stats', 'state', 'run'])).toBe('\nDid you mean one of these?\n    svc state\n    svc stats\n    svc status');
    // Two letters are too few to guess from.
    expect(didYouMean([], 'st', ['status', 'stop'])).toBe('');
    expect(didYouMean([], 'xyzzy', ['status'])).toBe('');
  });

  it('words the hint for a flag with its dash, and offers none for a one-letter flag', () => {
    expect(didYouMeanFlag('detatch', ['detach', 'verbose'])).toBe('\nDid you mean -detach?');
    expect(didYouMeanFlag('std', ['stdout', 'stderr', 'tail'])).toBe('\nDid you mean one of these?\n    -stderr\n    -stdout');
    expect(didYouMeanFlag('x', ['i', 't', 'e'])).toBe('');
    expect(didYouMeanFlag('xyzzy', ['detach'])).toBe('');
  });
});

/**
 * A task's output as the log view shows it: the terminal's control sequences dropped, other control
 * characters shown as their pictures, and a sequence split across the stream's chunks still recognised.
 */
import { describe, expect, it } from 'vitest';
import { TerminalText } from '../../src/ui/terminal-text.js';

const once = (text: string) => {
  const t = new TerminalText();
  return t.push(text) + t.flush();
};

describe('TerminalText', () => {
  it('drops colours, cursor moves and window titles, and keeps the text around them', () => {
    expect(once('\x1b[1;31mred\x1b[0m plain')).toBe('red plain');
    expect(once('\x1b[2J\x1b[Hcleared')).toBe('cleared');
    expect(once('\x1b]0;a title\x07after')).toBe('after');
    expect(once('\x1b]2;other\x1b\\after')).toBe('after');
    expect(once('\x1bMup')).toBe('up');
    expect(once('\x1b(Bascii')).toBe('ascii');
  });

  it('shows the other control characters as their pictures, but for newlines and tabs', () => {
    expect(once('ding\x07 nul\x00 del\x7f')).toBe('ding\u2407 nul\u2400 del\u2421');
    expect(once('a\tb\nc\r\nd\re')).toBe('a\tb\nc\nd\u240de');
  });

  it('holds back a sequence cut by a chunk until the rest arrives', () => {
    const t = new TerminalText();
    expect(t.push('a\x1b[3')).toBe('a');
    expect(t.push('1mb')).toBe('b');
    expect(t.push('x\x1b]0;ti')).toBe('x');
    expect(t.push('tle\x07y\x1b')).toBe('y');
    expect(t.push('[0mz')).toBe('z');
    expect(t.push('\x1b(')).toBe('');
    expect(t.push('0w')).toBe('w');
  });

  it('shows an escape the stream ended on', () => {
    const t = new TerminalText();
    expect(t.push('end\x1b')).toBe('end');
    expect(t.flush()).toBe('\u241b');
  });
});

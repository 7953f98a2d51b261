/**
 * Every link in the repository's Markdown (README.md, docs/, the READMEs beside the code) that is not a
 * URL points at a file or directory inside the repository, and every `#anchor` at a heading of the file
 * it names: the repository stands alone.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO } from '../support/server.js';

const SKIP = new Set(['node_modules', 'dist', '.git']);

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (SKIP.has(e.name)) return [];
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return markdownFiles(full);
    return e.name.endsWith('.md') ? [full] : [];
  });
}

/** The link targets of a Markdown text, code spans and fenced blocks left out. */
function linkTargets(text: string): string[] {
  const prose = text.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  const inline = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const reference = [...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]);
  return [...inline, ...reference];
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const prose = text.replace(/^```[\s\S]*?^```/gm, '');
  for (const [, heading] of prose.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = heading
      .replace(/`/g, '')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

const files = markdownFiles(REPO);

describe('links in the Markdown files', () => {
  it('finds README.md', () => {
    expect(files).toContain(path.join(REPO, 'README.md'));
  });

  for (const file of files) {
    it(path.relative(REPO, file), () => {
      const text = readFileSync(file, 'utf8');
      const broken: string[] = [];
      for (const target of linkTargets(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const [rel, anchor] = target.split('#', 2);
        const dest = rel === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(rel));
        if (!(dest === REPO || dest.startsWith(REPO + path.sep))) broken.push(`${target}: outside the repository`);
        else if (!existsSync(dest)) broken.push(`${target}: no such file`);
        else if (anchor !== undefined && dest.endsWith('.md') && !anchors(readFileSync(dest, 'utf8')).has(anchor)) broken.push(`${target}: no such heading`);
      }
      expect(broken).toEqual([]);
    });
  }
});

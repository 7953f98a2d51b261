/**
 * A job's colour in the topology: derived from its namespace and ID alone, so a job keeps its colour
 * across reloads, browsers and changes to the rest of the cluster (a palette handed out in order would
 * recolour jobs whenever one came or went).
 */

/**
 * FNV-1a over the UTF-16 code units, then murmur3's finaliser: without it, IDs that differ in their last
 * character ("web-1", "web-2") differ only in a few bits and land on neighbouring hues.
 */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const cache = new Map<string, string>();

export function jobColour(namespace: string, jobId: string): string {
  const key = `${namespace}\u0000${jobId}`;
  let colour = cache.get(key);
  if (!colour) {
    // One of twenty colours, ten hues a tenth of the circle apart, each dark and light: any two differ
    // visibly, where hues taken straight from the hash are often a few degrees apart.
    const i = hash(key) % 20;
    colour = `hsl(${(i % 10) * 36 + 10} ${i < 10 ? 62 : 55}% ${i < 10 ? 46 : 66}%)`;
    cache.set(key, colour);
  }
  return colour;
}

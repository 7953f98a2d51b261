// Where a server's resident memory is: its anonymous memory (the JavaScript heap and buffers) and the pages
// of its LMDB file mapped into it, counted by the table each page holds. A file page counts in VmRSS once
// the process has touched it, or the kernel mapped it beside one it touched (fault-around maps up to 16
// pages already in the page cache around each fault): the store reads a table's last leaf through the map
// at each commit that appends to it, so the pages of tables written in key order (allocations, their
// stubs, their placements) end up mapped even when nothing reads them back.
//
// Linux only, root or the server's owner: /proc/<pid>/pagemap says which pages of the mapping are present;
// each present page is read from the file and named by its LMDB page header (lmdb's own layout: a 24-byte
// header of page number, txnid, pad, flags, lower, upper; then the node offsets) and its first key's table.
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';

const PAGE = 4096;
const HEADER = 24;
const FLAGS = { branch: 0x01, leaf: 0x02, overflow: 0x04, meta: 0x08 };

/** { anonMiB, fileMiB, tables: [[name, MiB]] } for the process: its RSS split, and its data.mdb pages by table (largest first). */
export function residentPages(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  const counts = new Map();
  const maps = readFileSync(`/proc/${pid}/maps`, 'utf8').split('\n').filter((l) => l.endsWith('/data.mdb'));
  const pagemap = openSync(`/proc/${pid}/pagemap`, 'r');
  try {
    for (const line of maps) {
      const [range, , offset, , , file] = line.split(/\s+/);
      const [lo, hi] = range.split('-').map((h) => BigInt(`0x${h}`));
      const pages = Number((hi - lo) / BigInt(PAGE));
      const data = openSync(file, 'r');
      try {
        const chunk = 65536;
        for (let first = 0; first < pages; first += chunk) {
          const n = Math.min(chunk, pages - first);
          const entries = Buffer.alloc(n * 8);
          readSync(pagemap, entries, 0, n * 8, Number((lo / BigInt(PAGE) + BigInt(first)) * 8n));
          for (let i = 0; i < n; i++) {
            if (!(entries.readBigUInt64LE(i * 8) >> 63n)) continue;
            const name = pageName(data, Number(BigInt(`0x${offset}`)) + (first + i) * PAGE);
            counts.set(name, (counts.get(name) ?? 0) + 1);
          }
        }
      } finally {
        closeSync(data);
      }
    }
  } finally {
    closeSync(pagemap);
  }
  const tables = [...counts].sort((a, b) => b[1] - a[1]).map(([name, n]) => [name, (n * PAGE) / 2 ** 20]);
  return { anonMiB: kib('RssAnon') / 1024, fileMiB: kib('RssFile') / 1024, tables };
}

/** A page's kind, and for a leaf or branch page the table of its first key (a free page keeps what it last held). */
function pageName(fd, at) {
  const page = Buffer.alloc(PAGE);
  if (readSync(fd, page, 0, PAGE, at) < HEADER) return 'beyond the end';
  const flags = page.readUInt16LE(18);
  if (flags & FLAGS.overflow) return 'overflow';
  if (flags & FLAGS.meta) return 'meta';
  if (!(flags & (FLAGS.leaf | FLAGS.branch))) return 'other';
  const kind = flags & FLAGS.leaf ? 'leaf' : 'branch';
  const nodes = page.readUInt16LE(20) >> 1;
  if (nodes === 0) return kind;
  const node = page.readUInt16LE(HEADER) + HEADER;
  if (node + 8 > PAGE) return kind;
  const key = page.subarray(node + 8, Math.min(PAGE, node + 8 + page.readUInt16LE(node + 6)));
  const end = key.indexOf(0);
  return end > 0 ? `${kind} ${key.subarray(0, end).toString('utf8')}` : kind;
}

/**
 * Every process an exec session started. A session's first process leads a session of its own (spawned
 * detached, or by forkpty), and what it starts inherits that session ID unless it calls setsid itself,
 * so /proc's session field finds them all: the shell, its pipelines and background jobs, the processes
 * nsenter started inside an exec task's namespaces (still visible, by host pid, from here).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { killQuietly } from '../drivers/proc.js';

/** Fields after the command name in /proc/<pid>/stat: state, ppid, pgrp, session, ... */
const STATE_FIELD = 0;
const PPID_FIELD = 1;
const SESSION_FIELD = 3;

interface ProcEntry {
  pid: number;
  ppid: number;
  session: number;
}

function processes(): ProcEntry[] {
  const out: ProcEntry[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // A zombie is already dead: only its parent's wait can remove it.
      if (fields[STATE_FIELD] === 'Z') continue;
      out.push({ pid: Number(name), ppid: Number(fields[PPID_FIELD]), session: Number(fields[SESSION_FIELD]) });
    } catch {
      // gone between the listing and the read
    }
  }
  return out;
}

/** The session's members, and the descendants of any of them that started a session of their own. */
export function sessionMembers(sessionId: number): number[] {
  const all = processes();
  const members = new Set(all.filter((p) => p.session === sessionId).map((p) => p.pid));
  let grew = members.size > 0;
  while (grew) {
    grew = false;
    for (const p of all) {
      if (!members.has(p.pid) && members.has(p.ppid)) {
        members.add(p.pid);
        grew = true;
      }
    }
  }
  return [...members];
}

/**
 * SIGKILLs the session's processes until none is left (a process may fork while we kill), a few rounds
 * at most: one that escapes by starting a new session and being reparented before we look is beyond reach.
 */
export function killSessionProcesses(sessionId: number): void {
  if (sessionId <= 0) return;
  for (let round = 0; round < 5; round++) {
    const members = sessionMembers(sessionId);
    if (members.length === 0) return;
    for (const pid of members) killQuietly(pid, 'SIGKILL');
  }
}

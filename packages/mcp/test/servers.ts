import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const modules = (path: string) => fileURLToPath(new URL(`../node_modules/${path}`, import.meta.url));

/** The bins of the npm test servers, run with this node directly (no npx, no network). */
export const EVERYTHING_BIN = modules('@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM_BIN = modules('@modelcontextprotocol/server-filesystem/dist/index.js');
export const NODE = process.execPath;

/** Small misbehaving servers written for the tests. */
export const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

interface ProcInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly state: string;
}

/** Every process visible in /proc, with its parent and process group. */
export function listProcesses(): ProcInfo[] {
  const out: ProcInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name is in parentheses and may hold spaces: fields start after the last ")".
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      out.push({ pid: Number(entry), state: fields[0]!, ppid: Number(fields[1]), pgid: Number(fields[2]) });
    } catch {
      // The process ended while we read.
    }
  }
  return out;
}

/** Living (not zombie) processes in `pgid`'s group or descended from `pid`. */
export function processesOf(pid: number): ProcInfo[] {
  const all = listProcesses().filter((proc) => proc.state !== 'Z');
  const found = new Map<number, ProcInfo>();
  for (const proc of all) if (proc.pid === pid || proc.pgid === pid) found.set(proc.pid, proc);
  let grew = true;
  while (grew) {
    grew = false;
    for (const proc of all) {
      if (!found.has(proc.pid) && found.has(proc.ppid)) {
        found.set(proc.pid, proc);
        grew = true;
      }
    }
  }
  return [...found.values()];
}

/** Children of this test process (the vitest worker): used to prove nothing is left behind. */
export function childrenOfThisProcess(): number[] {
  return listProcesses().filter((proc) => proc.ppid === process.pid && proc.state !== 'Z').map((proc) => proc.pid);
}

/** True for the `/bin/sh` that ends the servers' groups if this process dies (see group-reaper.ts). */
export function isGroupWatcher(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('/bin/sh\0-c\0g=" "');
  } catch {
    return false;
  }
}

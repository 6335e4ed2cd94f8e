/**
 * What Linux says about a running process, from /proc (proc(5)): the processes
 * below it, its name, its threads' time on CPU, its memory. For measuring a process
 * this one did not write, such as workerd under `wrangler pages dev`
 * (scripts/bench/workerd.ts), and for finding one (scripts/lib/pages-dev.ts).
 */
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/** The thread ids of `pid` now (/proc/<pid>/task). */
function threads(pid: number): string[] {
  return readdirSync(`/proc/${pid}/task`);
}

/**
 * The direct children of `pid`: /proc/<pid>/task/<tid>/children of each thread
 * (a child belongs to the thread that forked it), or `ps --ppid` where the kernel
 * lacks that file (it needs CONFIG_PROC_CHILDREN).
 */
export function children(pid: number): number[] {
  const ids: number[] = [];
  for (const tid of threads(pid)) {
    let text: string;
    try {
      text = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      return execFileSync("ps", ["-o", "pid=", "--ppid", String(pid)], { encoding: "utf8" }).split("\n").filter((l) => l.trim() !== "").map(Number);
    }
    ids.push(...text.split(/\s+/).filter((t) => t !== "").map(Number));
  }
  return ids;
}

/** Every process below `pid`, children before theirs. */
export function descendants(pid: number): number[] {
  const direct = children(pid);
  return [...direct, ...direct.flatMap(descendants)];
}

/** The name of `pid`'s command (/proc/<pid>/comm: its executable's name, at most 15 bytes). */
export function processName(pid: number): string {
  return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
}

/** The command line of `pid`, one argument an item (/proc/<pid>/cmdline). */
export function commandLine(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter((a) => a !== "");
}

/** The time thread `tid` of `pid` has spent on CPU, in nanoseconds (the first field of its schedstat). Throws once it has ended. */
export function threadNs(pid: number, tid: number | string): number {
  return Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, "utf8").split(" ")[0]);
}

/**
 * The time `pid` has spent on CPU, in nanoseconds: the sum over its threads of the
 * first field of /proc/<pid>/task/<tid>/schedstat (time on CPU, user and kernel;
 * sched-stats.rst), and the thread ids summed. A thread that ends between two
 * readings takes its time with it: compare the ids to know.
 */
export function cpuNs(pid: number): { ns: number; threads: string[] } {
  let ns = 0;
  const seen: string[] = [];
  for (const tid of threads(pid)) {
    try {
      ns += threadNs(pid, tid);
      seen.push(tid);
    } catch {
      // The thread ended after the listing: its time is no longer per thread.
    }
  }
  return { ns, threads: seen };
}

/** Resident memory of `pid` now and its peak so far, in bytes (VmRSS and VmHWM of /proc/<pid>/status). */
export function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => {
    const value = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(status)?.[1];
    if (value === undefined) throw new Error(`/proc/${pid}/status has no ${field}`);
    return Number(value) * 1024;
  };
  return { rss: kb("VmRSS"), peak: kb("VmHWM") };
}

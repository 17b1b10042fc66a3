'use strict';
// CPU time of the API process and of its database sessions, read from /proc (Linux): what a request
// costs the machine, far steadier than latency or throughput when other work shares the cores.

const fs = require('node:fs');

/** CPU time (user + system, ms) a process has used so far, from /proc (Linux); 0 once it is gone. */
function cpuMsOf(pid) {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    // utime and stime, fields 14 and 15 of the line, in clock ticks (100 a second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU used by the API process and by the database sessions it holds: what a request costs the
 * machine, whatever else runs on it (unlike throughput).
 */
async function apiCpuMs(client, apiPid) {
  const { rows } = await client.query("SELECT pid FROM pg_stat_activity WHERE application_name = 'almanac'");
  const sessions = rows.map((r) => r.pid);
  const byPid = new Map(sessions.map((pid) => [pid, cpuMsOf(pid)]));
  return { node: cpuMsOf(apiPid), database: [...byPid.values()].reduce((sum, ms) => sum + ms, 0), sessions, byPid };
}

/**
 * The database CPU between two readings of `apiCpuMs`, session by session: a session opened in
 * between counts all it used; one the pool closed in between is missed (a pool keeps its sessions
 * while requests keep coming).
 */
function databaseCpuMsBetween(before, after) {
  let ms = 0;
  for (const [pid, end] of after.byPid) ms += end - (before.byPid.get(pid) ?? 0);
  return ms;
}

module.exports = { cpuMsOf, apiCpuMs, databaseCpuMsBetween };

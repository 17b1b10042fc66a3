'use strict';
// How long this process's event loop is held, measured two ways, for the benches that judge it
// (hostile-bodies, imports):
//
// - `holdMs`: the largest delay of perf_hooks.monitorEventLoopDelay (1 ms resolution): wall-clock, so
//   on a machine shared with other work it also counts the time the process waited for a core;
// - `cpuHoldMs`: the CPU the main thread used in its longest stretch without turning the loop. A
//   sampling thread reads a heartbeat the loop bumps every millisecond and the main thread's own CPU
//   time (/proc/self/task/<pid>/schedstat, nanoseconds); while the heartbeat stands still, the CPU the
//   main thread spends is one stretch's. Waiting for a core adds nothing to it, so it is the hold this
//   code would cause on a machine of its own.

const { monitorEventLoopDelay } = require('node:perf_hooks');
const { Worker } = require('node:worker_threads');

const SAMPLER = `
const { workerData, parentPort } = require('node:worker_threads');
const { readFileSync } = require('node:fs');
const beat = new Int32Array(workerData.shared, 0, 1);
const out = new Float64Array(workerData.shared, 8, 1);
const cpu = () => Number(readFileSync(workerData.schedstat, 'utf8').split(' ')[0]);
let lastBeat = Atomics.load(beat, 0);
let stretchStart = cpu();
const tick = () => {
  const now = cpu();
  const current = Atomics.load(beat, 0);
  if (current !== lastBeat) {
    lastBeat = current;
    stretchStart = now;
  } else {
    const held = (now - stretchStart) / 1e6;
    if (held > out[0]) out[0] = held;
  }
};
const timer = setInterval(tick, 2);
parentPort.on('message', () => { clearInterval(timer); process.exit(0); });
`;

function startHoldMonitor() {
  const shared = new SharedArrayBuffer(16);
  const beat = new Int32Array(shared, 0, 1);
  const worst = new Float64Array(shared, 8, 1);
  const heartbeat = setInterval(() => Atomics.add(beat, 0, 1), 1);
  const sampler = new Worker(SAMPLER, { eval: true, workerData: { shared, schedstat: `/proc/self/task/${process.pid}/schedstat` } });
  sampler.unref();
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  return {
    /** Starts a new measurement. */
    reset() {
      histogram.reset();
      worst[0] = 0;
    },
    /** The worst since the last reset, in ms. */
    read() {
      return { holdMs: histogram.max / 1e6, cpuHoldMs: worst[0] };
    },
    stop() {
      clearInterval(heartbeat);
      histogram.disable();
      sampler.postMessage('stop');
    },
  };
}

/** CPU time of this process's main thread so far, in ms (the scheduler's own account). */
function mainThreadCpuMs() {
  return Number(require('node:fs').readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
}

module.exports = { startHoldMonitor, mainThreadCpuMs };

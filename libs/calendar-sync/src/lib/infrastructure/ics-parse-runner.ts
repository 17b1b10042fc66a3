import { Worker } from 'node:worker_threads';
import pLimit from 'p-limit';
import { FeedOccurrence, FeedTextLimits } from '../domain/feed-occurrence';
import { FeedParseError, parseIcsFeed } from './ics-parser';

/**
 * A parse that has not finished this long after its thread was ready is stopped: the feed costs one
 * 502, never the server. It counts the parse alone, what a feed can make long: starting the thread
 * (an isolate, the parser's modules) is the same for every feed, and on a loaded machine takes
 * seconds by itself, which would otherwise be charged to an honest feed.
 */
export const PARSE_DEADLINE_MS = 10_000;
/** Starting a parsing thread is bounded too, apart and generously: it does not depend on the feed. */
export const PARSE_THREAD_START_MS = 60_000;
/** Heap of the parsing thread: a feed that needs more is refused. */
export const PARSE_HEAP_MB = 256;
/** Feeds this process parses at once (each on its own thread, up to PARSE_HEAP_MB): the others wait. */
export const PARSE_CONCURRENCY = 2;
/** Feeds that may wait for a thread; one more is refused at once rather than queued without end. */
export const PARSE_QUEUE_MAX = 32;

const parseSlots = pLimit(PARSE_CONCURRENCY);

/**
 * Occurrences per message from the parsing thread. Reading a message is work of this thread (the
 * structured clone is copied back into objects): in parts of this size, asked for one at a time, each
 * costs a millisecond or two, where 50,000 occurrences in one message would hold the event loop for
 * one long stretch.
 */
export const OCCURRENCES_PER_MESSAGE = 1000;

// Runs in the worker: the compiled parser module next to this one does the work.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { parseIcsFeed, FeedParseError } = require(workerData.parser);
// The parse's deadline starts now (see PARSE_DEADLINE_MS).
parentPort.postMessage({ ready: true });
let occurrences;
try {
  occurrences = parseIcsFeed(workerData.source, new Date(workerData.start), new Date(workerData.end), { limits: workerData.limits });
} catch (error) {
  parentPort.postMessage({ ok: false, message: error instanceof FeedParseError ? error.message : 'the feed could not be read' });
}
if (occurrences) {
  // One part at a time, the next when the import's thread asks for it: it reads each in its own turn.
  let sent = 0;
  const next = () => {
    if (sent >= occurrences.length) return parentPort.postMessage({ ok: true });
    parentPort.postMessage({ part: occurrences.slice(sent, (sent += workerData.perMessage)) });
  };
  parentPort.on('message', next);
  next();
}
`;

type WorkerMessage = { ready: true } | { part: FeedOccurrence[] } | { ok: true } | { ok: false; message: string };

/** How long a parsing thread may take to start, then to parse (tests shorten them). */
export interface ParseTimeouts {
  startMs: number;
  deadlineMs: number;
}

/**
 * Parses a feed on a worker thread with a deadline and a heap limit, so that no feed (a hostile
 * one included) can stall the event loop or exhaust the process's memory: whatever goes wrong ends
 * as a FeedParseError (502 `upstream_failed`). What comes back is bounded by the parser (text cut to
 * `limits`, MAX_OCCURRENCES, MAX_RESULT_CHARS) and arrives in parts of OCCURRENCES_PER_MESSAGE.
 * When running from TypeScript sources (Jest), where a worker cannot load the parser, it parses
 * in-thread under the parser's own step and time budget.
 */
export function parseIcsFeedOffThread(source: string, rangeStart: Date, rangeEnd: Date, limits: FeedTextLimits): Promise<FeedOccurrence[]> {
  // However many organizations import at once, at most PARSE_CONCURRENCY threads (and heaps) exist.
  if (parseSlots.pendingCount >= PARSE_QUEUE_MAX) return Promise.reject(new FeedParseError('too many calendar feeds are being read at once; try again shortly'));
  return parseSlots(() => parseNow(source, rangeStart, rangeEnd, limits));
}

function parseNow(source: string, rangeStart: Date, rangeEnd: Date, limits: FeedTextLimits): Promise<FeedOccurrence[]> {
  const parser = require.resolve('./ics-parser');
  if (!parser.endsWith('.js')) return Promise.resolve().then(() => parseIcsFeed(source, rangeStart, rangeEnd, { limits }));
  return parseOnThread(parser, source, rangeStart, rangeEnd, limits, { startMs: PARSE_THREAD_START_MS, deadlineMs: PARSE_DEADLINE_MS });
}

/**
 * One parse on its own thread, with `parser` (the compiled ics-parser module, or a stand-in in
 * tests). Settles once the thread has stopped, so the slot it held is free only when the thread and
 * its heap are gone: at most PARSE_CONCURRENCY of them ever exist, a stopped one included.
 */
export function parseOnThread(
  parser: string,
  source: string,
  rangeStart: Date,
  rangeEnd: Date,
  limits: FeedTextLimits,
  timeouts: ParseTimeouts,
): Promise<FeedOccurrence[]> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { parser, source, start: rangeStart.getTime(), end: rangeEnd.getTime(), limits, perMessage: OCCURRENCES_PER_MESSAGE },
      resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
      stdout: true,
      stderr: true,
    });
    const received: FeedOccurrence[] = [];
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.terminate().then(outcome, outcome);
    };
    const stopAfter = (ms: number, message: string) => setTimeout(() => settle(() => reject(new FeedParseError(message))), ms);
    let timer = stopAfter(timeouts.startMs, 'the feed could not be read now; try again shortly');
    const onMessage = (message: WorkerMessage) => {
      if ('ready' in message) {
        clearTimeout(timer);
        timer = stopAfter(timeouts.deadlineMs, 'the feed takes too long to read');
        return;
      }
      if ('part' in message) {
        for (const occurrence of message.part) received.push(occurrence);
        // Asked for after this turn: messages already queued would otherwise be read in the same one.
        setImmediate(() => settled || worker.postMessage('next'));
        return;
      }
      settle(() => (message.ok ? resolve(received) : reject(new FeedParseError(message.message))));
    };
    worker.on('message', onMessage);
    worker.once('error', (error: NodeJS.ErrnoException) =>
      settle(() =>
        reject(new FeedParseError(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'the feed needs too much memory to read' : 'the feed could not be read')),
      ),
    );
    worker.once('exit', () => settle(() => reject(new FeedParseError('the feed could not be read'))));
  });
}

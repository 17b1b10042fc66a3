'use strict';
// Summarizes a V8 CPU profile (.cpuprofile, from `npm run bench -- --cpu-prof` or `--cpu-prof-floor`):
// busy time by owner — each sample is charged to the nearest package on its stack (node_modules/<pkg>,
// the app's own dist/ code by library and layer), so Node's own work (setHeader, promises, streams)
// counts for the package that asked for it; garbage collection and socket writes stand apart — and
// the functions with the most self time.
//   node tools/bench/profile-summary.js FILE.cpuprofile [--requests=N] [--skip=S] [--top=30]
// With --requests (how many requests the process served while profiled), times are per request;
// --skip leaves out the first S seconds (start-up: loading modules, building the app).

const fs = require('node:fs');

const SOCKET_WRITES = new Set([
  'writev',
  'writeString',
  'writeBuffer',
  'writeUtf8String',
  'writeLatin1String',
]);

function ownerOf(url) {
  if (!url) return null;
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const dist = /\/dist\/(libs\/[^/]+\/src\/lib\/[^/]+|libs\/[^/]+|apps\/[^/]+)/.exec(url);
  if (dist) return `app: ${dist[1]}`;
  if (url.startsWith('node:')) return null;
  return url.replace(/^.*\/tools\//, 'tools/');
}

function summarize(profile, { requests, top = 30, skipSeconds = 0 } = {}) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const owners = new Map();
  const self = new Map();
  let total = 0;
  let busy = 0;
  let elapsed = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    const id = profile.samples[i];
    elapsed += dt;
    if (elapsed < skipSeconds * 1e6) continue;
    total += dt;
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    if (functionName === '(idle)') continue;
    busy += dt;
    const key = `${functionName || '(anonymous)'}  ${url ? `${url.replace(/^.*?(node_modules|dist|tools)\//, '$1/')}:${lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    let owner = null;
    if (functionName === '(garbage collector)') owner = 'garbage collection';
    else if (SOCKET_WRITES.has(functionName)) owner = 'socket writes (kernel, loopback)';
    else {
      for (let cur = id; cur && !owner; cur = parent.get(cur)) owner = ownerOf(byId.get(cur).callFrame.url);
      owner ??= `Node core: ${functionName || '(anonymous)'}`;
    }
    owners.set(owner, (owners.get(owner) ?? 0) + dt);
  }
  const cost = (t) =>
    `${((100 * t) / busy).toFixed(1).padStart(5)} %${requests ? `  ${String(Math.round(t / requests)).padStart(5)} µs/request` : ''}`;
  const lines = [
    `${(total / 1e6).toFixed(1)} s profiled, ${(busy / 1e6).toFixed(1)} s busy${requests ? `, ${requests} requests: ${Math.round(busy / requests)} µs of CPU per request` : ''}`,
    '',
    'busy time by owner (the nearest package on the stack):',
  ];
  for (const [owner, t] of [...owners].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`  ${cost(t)}  ${owner}`);
  lines.push('', 'functions with the most self time:');
  for (const [fn, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`  ${cost(t)}  ${fn}`);
  return lines.join('\n');
}

if (require.main === module) {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--'));
  const option = (name) => args.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
  if (!file) {
    process.stderr.write(
      'usage: node tools/bench/profile-summary.js FILE.cpuprofile [--requests=N] [--skip=S] [--top=30]\n',
    );
    process.exit(2);
  }
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const requests = option('requests') ? Number(option('requests')) : undefined;
  const skipSeconds = Number(option('skip') ?? 0);
  process.stdout.write(
    `${summarize(profile, { requests, top: Number(option('top') ?? 30), skipSeconds })}\n`,
  );
}

module.exports = { summarize };

'use strict';
// Summarizes a V8 CPU profile (.cpuprofile, from `npm run bench -- --cpu-prof`): self time by package
// (node_modules/<package>, the app's own dist/ code by library, Node internals, GC, idle) and the
// functions with the most self time.
//   node tools/bench/profile-summary.js bench/results/profiles/<file>.cpuprofile [top=30]

const fs = require('node:fs');

function category(url, functionName) {
  if (!url) {
    if (functionName.startsWith('(')) return functionName; // (garbage collector), (idle), (program)
    return '(native)';
  }
  const modules = url.lastIndexOf('node_modules/');
  if (modules !== -1) {
    const parts = url.slice(modules + 'node_modules/'.length).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const dist = /\/dist\/(libs\/[^/]+|apps\/[^/]+|tools\/[^/]+)/.exec(url);
  if (dist) return `app: ${dist[1]}`;
  if (url.startsWith('node:')) return 'node internals';
  return url;
}

function summarize(profile, top = 30) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + dt);
  }
  const byCategory = new Map();
  const byFunction = new Map();
  for (const [id, time] of self) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    const cat = category(url, functionName);
    byCategory.set(cat, (byCategory.get(cat) ?? 0) + time);
    const key = `${functionName || '(anonymous)'}  ${url ? `${url.replace(/^.*?(node_modules|dist)\//, '$1/')}:${lineNumber + 1}` : ''}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + time);
  }
  const pct = (t) => `${((100 * t) / total).toFixed(1).padStart(5)} %`;
  const busy = total - (byCategory.get('(idle)') ?? 0);
  const lines = [
    `profile: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy`,
    '',
    'self time by package:',
  ];
  for (const [cat, time] of [...byCategory].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`  ${pct(time)}  ${cat}`);
  lines.push('', 'functions with the most self time:');
  for (const [fn, time] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top))
    lines.push(`  ${pct(time)}  ${fn}`);
  return lines.join('\n');
}

if (require.main === module) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: node tools/bench/profile-summary.js FILE.cpuprofile [top]\n');
    process.exit(2);
  }
  process.stdout.write(`${summarize(JSON.parse(fs.readFileSync(file, 'utf8')), Number(top ?? 30))}\n`);
}

module.exports = { summarize };

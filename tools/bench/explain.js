'use strict';
// EXPLAIN (ANALYZE, BUFFERS) of every statement one request of each route runs: the floor's handler
// is called with a pool that records each statement and explains it just before running it (inside a
// transaction or savepoint that is rolled back, so writes are explained without being done twice).

const querystring = require('node:querystring');
const { route } = require('./floor/routes');

const CONTROL = /^\s*(START TRANSACTION|BEGIN|COMMIT|ROLLBACK)\b/i;

function explainingPool(client, out) {
  let inTransaction = false;
  const query = async (text, values) => {
    if (CONTROL.test(text)) {
      inTransaction = /^\s*(START TRANSACTION|BEGIN)/i.test(text);
      return client.query(text, values);
    }
    // Twice: the second run is the one reported (warm cache, as under load).
    let plan = [];
    for (let i = 0; i < 2; i++) {
      await client.query(inTransaction ? 'SAVEPOINT bench_explain' : 'BEGIN');
      try {
        plan = (await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values)).rows.map(
          (row) => row['QUERY PLAN'],
        );
      } catch (error) {
        plan = [`EXPLAIN failed: ${error.message}`];
      } finally {
        await client.query(inTransaction ? 'ROLLBACK TO SAVEPOINT bench_explain' : 'ROLLBACK');
      }
    }
    out.push({ text: text.replace(/\n\s*\n/g, '\n').trim(), values, plan });
    return client.query(text, values);
  };
  return { query, connect: async () => ({ query, release: () => undefined }) };
}

/** Markdown: per route, each statement with its parameters and its plan. */
async function explainScenarios(scenarios, fixtures, client) {
  const principal = {
    organizationId: fixtures.organizationId,
    apiKeyId: fixtures.apiKeyId,
    userId: null,
    scopes: [],
  };
  const lines = ['# EXPLAIN ANALYZE of the statements behind each benchmarked route', ''];
  lines.push(
    'One request per route, run through the floor (the API runs the same statements); each plan is the second of two runs.',
    '',
  );
  for (const scenario of scenarios) {
    if (scenario.prepare) await scenario.prepare();
    require('./floor/posts').rankings.invalidate(principal.organizationId); // searches: their live statements
    const [template] = scenario.requests();
    const request = template.setupRequest ? template.setupRequest({ ...template }) : template;
    const mark = request.path.indexOf('?');
    const path = mark === -1 ? request.path : request.path.slice(0, mark);
    const query = mark === -1 ? {} : querystring.parse(request.path.slice(mark + 1));
    const found = route(request.method, path);
    const statements = [];
    lines.push(`## ${scenario.label}`, '', `\`${request.method} ${request.path}\``, '');
    try {
      await found.route.handler({
        pool: explainingPool(client, statements),
        principal,
        params: found.params,
        query,
        body: request.body ? JSON.parse(request.body) : undefined,
      });
    } catch (error) {
      lines.push(`(the request failed: ${error.message})`, '');
    }
    statements.forEach((s, i) => {
      const execution = s.plan.find((line) => line.startsWith('Execution Time')) ?? '';
      lines.push(`### Statement ${i + 1} — ${execution}`, '', '```sql', s.text, '```', '');
      lines.push(
        `Parameters: \`${JSON.stringify(s.values ?? []).slice(0, 600)}\``,
        '',
        '```',
        ...s.plan,
        '```',
        '',
      );
    });
  }
  lines.push(...(await searchTimes(client, principal)));
  return `${lines.join('\n')}\n`;
}

/** Every benchmarked search: posts matched and its slowest statement's execution time, nothing cached. */
async function searchTimes(client, principal) {
  const { SEARCHES } = require('./scenarios');
  const posts = require('./floor/posts');
  const lines = [
    '## Every benchmarked search',
    '',
    '| search | posts matched | slowest statement, nothing cached |',
    '|---|---:|---:|',
  ];
  for (const search of SEARCHES) {
    const statements = [];
    posts.rankings.invalidate(principal.organizationId); // the live cost, not a cached ranking
    const { body } = await posts.list({
      pool: explainingPool(client, statements),
      principal,
      query: { search },
    });
    const times = statements.map((s) => s.plan.find((line) => line.startsWith('Execution Time')) ?? '');
    const slowest = times
      .map((t) => Number(/([\d.]+) ms/.exec(t)?.[1] ?? 0))
      .reduce((a, b) => Math.max(a, b), 0);
    lines.push(`| \`${search}\` | ${body.meta.total} | ${slowest.toFixed(1)} ms |`);
  }
  lines.push('');
  return lines;
}

module.exports = { explainScenarios };

/*
 * Blog benchmark: seeds 100,000 posts (real-looking English in content blocks, categories, tags,
 * authors) straight into PostgreSQL in batches, then measures the median and p95 latency of search
 * and filtered list queries twice: through the blog's own repositories (the exact SQL the API runs),
 * and over HTTP against the real app (auth, validation, mapping and JSON included).
 *
 *   npm run bench:blog
 *
 * Environment: BENCH_POSTS (default 100000), BENCH_ITERATIONS (default 40), BENCH_HTTP (default 1),
 * DATABASE_URL (a throwaway database; default: an embedded PostgreSQL in a temporary directory),
 * BENCH_REUSE=1 (with DATABASE_URL: measure the data an earlier run seeded there instead of seeding).
 */
import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { IdentityService } from '@almanac/identity';
import { AppConfig, migrateDatabase, newId, startEmbeddedPostgres, type EmbeddedDatabase, type Transactions } from '@almanac/shared';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { createApp } from '../../../apps/api/src/bootstrap';
import { ALL_MIGRATIONS } from '../../../apps/api/src/migrations';
import type { PostListCriteria } from '../../../libs/blog/src/lib/domain/post';
import { postListQuery, SEARCH_SETTINGS_SQL } from '../../../libs/blog/src/lib/infrastructure/post-queries';
import { PostRepository } from '../../../libs/blog/src/lib/infrastructure/post.repository';
import { SEARCH_RANKING_DEFAULTS, SearchRankingCache } from '../../../libs/blog/src/lib/infrastructure/search-ranking-cache';
import { TermRepository } from '../../../libs/blog/src/lib/infrastructure/term.repository';

const POSTS = Number(process.env['BENCH_POSTS'] ?? 100_000);
const ITERATIONS = Number(process.env['BENCH_ITERATIONS'] ?? 40);
const WARMUP = 5;
const HTTP = process.env['BENCH_HTTP'] !== '0';
const REUSE = process.env['BENCH_REUSE'] === '1';
const BATCH = 1_000;
const CATEGORIES = 20;
const TAGS = 200;
const AUTHORS = 50;
const OTHER_ORG_POSTS = 2_000;
const NOW = new Date('2026-11-21T10:00:00.000Z');

// ---------------------------------------------------------------------------------------------
// Deterministic text

/** mulberry32: small, seedable; the same data set on every run. */
function prng(seed: number) {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number): number => min + Math.floor(next() * (max - min + 1)),
    chance: (p: number): boolean => next() < p,
    /** Zipf-like: small indexes are much more likely. */
    skewed: (n: number, power: number): number => Math.min(n - 1, Math.floor(n * Math.pow(next(), power))),
  };
}
const random = prng(20261121);

/** Words a team blog uses, most frequent first; English stop words among them, as in real text. */
const COMMON = `the of and to a in is for that with on as it our we this you are be at by from your team
calendar meeting time week schedule booking customer event work day people new first how what when
release database project plan scheduled scheduling schedules meetings running runs run runner product
support service data query index search remote office hybrid travel conference talk speaker workshop
webinar ticket venue registration attendee reminder timezone holiday budget roadmap feature launch
deploy deployment migration workflow pipeline sprint review retrospective interview onboarding hiring
contract partner community newsletter article editor draft author reader analytics campaign studio
kitchen garden museum coffee lunch breakfast morning evening weekend summer winter spring autumn
quick simple better faster easy hard honest careful quiet busy calm practical weekly monthly daily
lessons notes guide checklist mistakes habits tips ideas stories questions answers decisions tools
postgres postgresql latency throughput cache backup replica cluster server client browser mobile
design writing reading learning teaching planning building shipping testing measuring listening
focus energy balance health family friends trust feedback growth culture values mission strategy`
  .split(/\s+/)
  .filter(Boolean);

/** A long tail of rarer, jargon-like words (product names, places, people) to make search realistic. */
function tailWords(count: number): string[] {
  const onsets = ['b', 'br', 'c', 'ch', 'd', 'f', 'g', 'gr', 'k', 'l', 'm', 'n', 'p', 'pr', 'r', 's', 'st', 't', 'tr', 'v', 'z'];
  const vowels = ['a', 'e', 'i', 'o', 'u', 'ai', 'ea', 'ou'];
  const codas = ['', 'n', 'r', 'l', 'x', 'th', 'nd', 'sk', 'm', 'v'];
  const syllable = (): string =>
    onsets[random.int(0, onsets.length - 1)]! + vowels[random.int(0, vowels.length - 1)]! + codas[random.int(0, codas.length - 1)]!;
  const seen = new Set<string>(COMMON);
  const words: string[] = [];
  while (words.length < count) {
    const word = Array.from({ length: random.int(2, 3) }, syllable).join('');
    if (!seen.has(word)) {
      seen.add(word);
      words.push(word);
    }
  }
  return words;
}
const VOCABULARY = [...COMMON, ...tailWords(20_000)];

const word = (): string => VOCABULARY[random.skewed(VOCABULARY.length, 4)]!;
const words = (n: number): string => Array.from({ length: n }, word).join(' ');
const capital = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
const sentence = (): string => `${capital(words(random.int(6, 18)))}.`;
const paragraph = (): string => Array.from({ length: random.int(3, 8) }, sentence).join(' ');

function contentBlocks(index: number): object[] {
  const blocks: object[] = [{ type: 'paragraph', text: paragraph() }];
  const sections = random.int(2, 4);
  for (let s = 0; s < sections; s++) {
    blocks.push({ type: 'heading', level: random.int(2, 3), text: capital(words(random.int(3, 7))) });
    for (let p = random.int(1, 3); p > 0; p--) blocks.push({ type: 'paragraph', text: paragraph() });
    if (random.chance(0.4)) blocks.push({ type: 'list', items: Array.from({ length: random.int(3, 7) }, () => capital(words(random.int(2, 8)))) });
    if (random.chance(0.2)) blocks.push({ type: 'quote', text: sentence(), author: `${capital(word())} ${capital(word())}` });
    if (random.chance(0.25)) blocks.push({ type: 'image', url: `https://cdn.example.com/img/${index}-${s}.jpg`, alt: capital(words(random.int(3, 8))) });
  }
  return blocks;
}

// ---------------------------------------------------------------------------------------------
// Seeding

interface Seeded {
  orgId: string;
  categories: { id: string; slug: string }[];
  tags: { id: string; slug: string }[];
  authors: string[];
  samplePostIds: string[];
}

async function seedOrganization(db: Client, name: string, posts: number, withSamples: boolean): Promise<Seeded> {
  const orgId = newId();
  await db.query('INSERT INTO organizations (id, name) VALUES ($1, $2)', [orgId, name]);
  const terms = async (table: string, count: number, prefix: string) => {
    const rows = Array.from({ length: count }, (_, i) => ({ id: newId(), name: `${capital(COMMON[30 + (i % (COMMON.length - 30))]!)} ${prefix} ${i + 1}` }));
    const slugs = rows.map((row) => row.name.toLowerCase().replace(/[^a-z0-9]+/g, '-'));
    await db.query(
      `INSERT INTO ${table} (id, organization_id, name, slug, created_at, updated_at)
       SELECT id, $1, name, slug, $5, $5 FROM unnest($2::uuid[], $3::text[], $4::text[]) AS t(id, name, slug)`,
      [orgId, rows.map((r) => r.id), rows.map((r) => r.name), slugs, NOW],
    );
    return rows.map((row, i) => ({ id: row.id, slug: slugs[i]! }));
  };
  const categories = await terms('post_categories', CATEGORIES, 'topics');
  const tags = await terms('post_tags', TAGS, 'tag');
  const authors = Array.from({ length: AUTHORS }, () => newId());
  await db.query(
    `INSERT INTO users (id, organization_id, email, name, role)
     SELECT id, $1, 'author-' || id || '@bench.example', 'Author ' || n, 'author' FROM unnest($2::uuid[]) WITH ORDINALITY AS t(id, n)`,
    [orgId, authors],
  );

  const samplePostIds: string[] = [];
  for (let offset = 0; offset < posts; offset += BATCH) {
    const size = Math.min(BATCH, posts - offset);
    const cols = {
      id: [] as string[],
      title: [] as string[],
      slug: [] as string[],
      excerpt: [] as (string | null)[],
      content: [] as string[],
      image: [] as (string | null)[],
      status: [] as string[],
      featured: [] as boolean[],
      publishedAt: [] as (string | null)[],
      category: [] as (string | null)[],
      author: [] as (string | null)[],
      createdAt: [] as string[],
    };
    const links = { post: [] as string[], tag: [] as string[] };
    for (let i = 0; i < size; i++) {
      const n = offset + i;
      const id = newId();
      const roll = random.next();
      const status = roll < 0.8 ? 'published' : roll < 0.9 ? 'draft' : roll < 0.95 ? 'archived' : 'scheduled';
      const created = new Date(NOW.getTime() - random.int(1, 5 * 365 * 24) * 3_600_000);
      let published: Date | null = status === 'draft' ? null : new Date(created.getTime() + random.int(0, 72) * 3_600_000);
      // Half the scheduled posts are still to come, half are overdue (read as published).
      if (status === 'scheduled') published = new Date(NOW.getTime() + (random.chance(0.5) ? 1 : -1) * random.int(1, 24 * 60) * 3_600_000);
      const title = capital(words(random.int(4, 9)));
      cols.id.push(id);
      cols.title.push(title);
      cols.slug.push(`${title.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 80).replace(/^-+|-+$/g, '')}-${n}`);
      cols.excerpt.push(random.chance(0.9) ? `${sentence()} ${sentence()}` : null);
      cols.content.push(JSON.stringify(contentBlocks(n)));
      cols.image.push(random.chance(0.6) ? `https://cdn.example.com/covers/${n}.jpg` : null);
      cols.status.push(status);
      cols.featured.push(random.chance(0.05));
      cols.publishedAt.push(published ? published.toISOString() : null);
      cols.category.push(random.chance(0.9) ? categories[random.skewed(categories.length, 2)]!.id : null);
      cols.author.push(random.chance(0.95) ? authors[random.skewed(authors.length, 1.5)]! : null);
      cols.createdAt.push(created.toISOString());
      const tagCount = random.int(0, 5);
      const chosen = new Set<number>();
      while (chosen.size < tagCount) chosen.add(random.skewed(tags.length, 2));
      for (const t of chosen) {
        links.post.push(id);
        links.tag.push(tags[t]!.id);
      }
      if (withSamples && n % 997 === 0) samplePostIds.push(id);
    }
    await db.query(
      `INSERT INTO posts (id, organization_id, title, slug, excerpt, content, featured_image_url, status, is_featured,
                          published_at, category_id, author_id, created_at, updated_at)
       SELECT id, $1, title, slug, excerpt, content::jsonb, image, status, featured, published_at, category_id, author_id, created_at, created_at
       FROM unnest($2::uuid[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::boolean[],
                   $10::timestamptz[], $11::uuid[], $12::uuid[], $13::timestamptz[])
         AS t(id, title, slug, excerpt, content, image, status, featured, published_at, category_id, author_id, created_at)`,
      [orgId, cols.id, cols.title, cols.slug, cols.excerpt, cols.content, cols.image, cols.status, cols.featured,
        cols.publishedAt, cols.category, cols.author, cols.createdAt],
    );
    await db.query(
      'INSERT INTO post_tag_links (organization_id, post_id, tag_id) SELECT $1, p, t FROM unnest($2::uuid[], $3::uuid[]) AS u(p, t)',
      [orgId, links.post, links.tag],
    );
    if (withSamples && (offset / BATCH) % 10 === 9) process.stdout.write(`  ${offset + size} posts\n`);
  }
  return { orgId, categories, tags, authors, samplePostIds };
}

/** The organization an earlier run seeded (BENCH_REUSE=1), or null. */
async function loadSeeded(db: Client): Promise<Seeded | null> {
  const { rows: orgs } = await db.query<{ id: string }>("SELECT id FROM organizations WHERE name = 'Bench'");
  if (!orgs[0]) return null;
  const orgId = orgs[0].id;
  const terms = async (table: string) =>
    (await db.query<{ id: string; slug: string }>(`SELECT id, slug FROM ${table} WHERE organization_id = $1 ORDER BY created_at, id`, [orgId])).rows;
  const { rows: authors } = await db.query<{ id: string }>('SELECT id FROM users WHERE organization_id = $1 ORDER BY email', [orgId]);
  const { rows: samples } = await db.query<{ id: string }>('SELECT id FROM posts WHERE organization_id = $1 ORDER BY id LIMIT 100', [orgId]);
  return {
    orgId,
    categories: await terms('post_categories'),
    tags: await terms('post_tags'),
    authors: authors.map((a) => a.id),
    samplePostIds: samples.filter((_, i) => i % 5 === 0).map((p) => p.id),
  };
}

// ---------------------------------------------------------------------------------------------
// Measuring

interface Stats {
  name: string;
  matches: number | string;
  median: number;
  p95: number;
}

function percentile(sorted: number[], p: number): number {
  const rank = Math.ceil((p / 100) * sorted.length) - 1;
  return sorted[Math.max(0, Math.min(sorted.length - 1, rank))]!;
}

async function measure(name: string, variants: Array<() => Promise<number | string>>): Promise<Stats> {
  for (let i = 0; i < WARMUP; i++) await variants[i % variants.length]!();
  const times: number[] = [];
  const matches = new Set<number | string>();
  for (let i = 0; i < ITERATIONS; i++) {
    const started = performance.now();
    matches.add(await variants[i % variants.length]!());
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const counts = [...matches];
  const numeric = counts.filter((c): c is number => typeof c === 'number');
  const shown = numeric.length === counts.length && counts.length > 1 ? `${Math.min(...numeric)}–${Math.max(...numeric)}` : counts.join(',');
  return { name, matches: shown, median: percentile(times, 50), p95: percentile(times, 95) };
}

function printTable(title: string, rows: Stats[]): void {
  process.stdout.write(`\n${title}\n`);
  process.stdout.write(`${'case'.padEnd(58)} ${'matches'.padStart(13)} ${'median ms'.padStart(10)} ${'p95 ms'.padStart(9)}\n`);
  for (const row of rows) {
    process.stdout.write(
      `${row.name.padEnd(58)} ${String(row.matches).padStart(13)} ${row.median.toFixed(2).padStart(10)} ${row.p95.toFixed(2).padStart(9)}\n`,
    );
  }
}

/** The search terms by document frequency, picked from the seeded vocabulary. */
function searchTerms(): Record<'common' | 'medium' | 'rare', string[]> {
  const tail = VOCABULARY.slice(COMMON.length);
  return {
    common: ['calendar', 'meeting', 'customer', 'booking', 'release'],
    medium: tail.slice(300, 305),
    rare: tail.slice(15_000, 15_005),
  };
}

async function measureRepositories(db: Client, seeded: Seeded): Promise<Stats[]> {
  // The repositories run their statements through the unit of work: one client, BEGIN/COMMIT for `run`.
  let inTransaction = false;
  const unitOfWork = {
    rows: async (text: string, values?: unknown[]) => (await db.query(text, values)).rows,
    rowsInTransaction: async (text: string, values?: unknown[]) => (await db.query(text, values)).rows,
    run: async <T>(work: () => Promise<T>): Promise<T> => {
      if (inTransaction) return work();
      inTransaction = true;
      await db.query('BEGIN');
      try {
        const result = await work();
        await db.query('COMMIT');
        return result;
      } catch (error) {
        await db.query('ROLLBACK');
        throw error;
      } finally {
        inTransaction = false;
      }
    },
  } as unknown as Transactions;
  // Rankings never cached: these figures are what each statement costs live.
  const config = new AppConfig();
  const posts = new PostRepository(unitOfWork, new SearchRankingCache({ ...SEARCH_RANKING_DEFAULTS, minTotal: Number.POSITIVE_INFINITY }), config);
  const categories = new TermRepository(unitOfWork, 'category');
  const tags = new TermRepository(unitOfWork, 'tag');
  const base: PostListCriteria = { organizationId: seeded.orgId, order: 'desc', limit: 20, offset: 0, now: NOW };
  const list = (criteria: Partial<PostListCriteria>) => async () => (await posts.list({ ...base, ...criteria })).total.count;
  const terms = searchTerms();
  const cats = seeded.categories.slice(0, 5);
  const tagRefs = seeded.tags.slice(0, 10);

  const results: Stats[] = [];
  const run = async (name: string, variants: Array<() => Promise<number | string>>) => {
    results.push(await measure(name, variants));
    process.stdout.write(`  measured: ${name}\n`);
  };
  await run('list: default (published_at desc)', [list({})]);
  await run('list: status=published', [list({ status: 'published' })]);
  await run('list: category (slug) + status=published', cats.map((c) => list({ categorySlug: c.slug, status: 'published' })));
  await run('list: tag (slug)', tagRefs.map((t) => list({ tagSlug: t.slug })));
  await run('list: tag_id + featured=true', tagRefs.map((t) => list({ tagId: t.id, featuredOnly: true })));
  await run('list: author_id, order_by=title asc', seeded.authors.slice(0, 5).map((a) => list({ authorId: a, orderBy: 'title', order: 'asc' })));
  await run('list: status=scheduled (future only)', [list({ status: 'scheduled' })]);
  await run('list: order_by=updated_at asc, offset=5000', [list({ orderBy: 'updated_at', order: 'asc', offset: 5000 })]);
  await run('search: rare word (~1% of posts), by relevance', terms.rare.map((w) => list({ search: w })));
  await run('search: medium word, by relevance', terms.medium.map((w) => list({ search: w })));
  await run('search: common word (most posts), by relevance', terms.common.map((w) => list({ search: w })));
  await run('search: common word, order_by=published_at', terms.common.map((w) => list({ search: w, orderBy: 'published_at' })));
  await run('search: prefix "sched" / "meet" / "calend"', ['sched', 'meet', 'calend'].map((w) => list({ search: w })));
  await run('search: two words (AND), last as prefix', terms.medium.map((w, i) => list({ search: `${terms.common[i]} ${w}` })));
  await run('search: stemmed ("scheduling" finds "schedules")', [list({ search: 'scheduling' })]);
  await run('search: medium word + category + status=published', terms.medium.map((w, i) => list({ search: w, categorySlug: cats[i % cats.length]!.slug, status: 'published' })));
  await run('search: rare word + tag', terms.rare.map((w, i) => list({ search: w, tagSlug: tagRefs[i]!.slug })));
  await run('get one post with content', seeded.samplePostIds.slice(0, 20).map((id) => async () => ((await posts.findView(seeded.orgId, id, NOW)) ? 1 : 0)));
  await run(`categories with post_count (${CATEGORIES})`, [async () => (await categories.list(seeded.orgId, NOW)).length]);
  await run(`tags with post_count (${TAGS})`, [async () => (await tags.list(seeded.orgId, NOW)).length]);
  return results;
}

async function explainSearch(db: Client, seeded: Seeded): Promise<void> {
  const terms = searchTerms();
  for (const [label, search] of [['rare', terms.rare[0]!], ['common', terms.common[0]!]] as const) {
    const config = new AppConfig();
    const query = postListQuery(
      { organizationId: seeded.orgId, order: 'desc', limit: 20, offset: 0, now: NOW, search, tagIds: [] },
      { countCap: config.listCountCap, searchWindow: config.searchWindow },
    );
    await db.query('BEGIN');
    await db.query(SEARCH_SETTINGS_SQL);
    const { rows } = await db.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${query.text}`, query.values);
    await db.query('COMMIT');
    const plan = JSON.stringify(rows[0]);
    const indexes = ['posts_search_idx', 'posts_org_published_desc_idx'].filter((index) => plan.includes(index));
    process.stdout.write(`  plan, ${label} search "${search}": ${indexes.join(' and ') || 'no index'}\n`);
  }
}

async function measureHttp(databaseUrl: string, seeded: Seeded): Promise<Stats[]> {
  const config = new AppConfig({ databaseUrl, logLevel: 'silent', seedDemo: false, rateLimitPerMinute: 0 });
  const { app } = await createApp({ config, quiet: true });
  await app.listen(0, '127.0.0.1');
  try {
    const port = (app.getHttpServer().address() as AddressInfo).port;
    const key = await app.get(IdentityService).createApiKey({ organizationId: seeded.orgId, name: 'bench' });
    const get = (path: string) => async (): Promise<number> => {
      const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${key.key}` } });
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { meta?: { total: number }; data: unknown[] };
      return body.meta?.total ?? body.data.length;
    };
    const terms = searchTerms();
    const results: Stats[] = [];
    const run = async (name: string, variants: Array<() => Promise<number | string>>) => {
      results.push(await measure(name, variants));
    };
    await run('GET /posts', [get('/api/v1/posts')]);
    await run('GET /posts?status=published&category=…', seeded.categories.slice(0, 5).map((c) => get(`/api/v1/posts?status=published&category=${c.slug}`)));
    await run('GET /posts?tag=…', seeded.tags.slice(0, 10).map((t) => get(`/api/v1/posts?tag=${t.slug}`)));
    await run('GET /posts?search=<rare word>', terms.rare.map((w) => get(`/api/v1/posts?search=${w}`)));
    await run('GET /posts?search=<medium word>', terms.medium.map((w) => get(`/api/v1/posts?search=${w}`)));
    await run('GET /posts?search=<common word>', terms.common.map((w) => get(`/api/v1/posts?search=${w}`)));
    await run('GET /posts?search=sched', [get('/api/v1/posts?search=sched')]);
    await run('GET /posts/{id}', seeded.samplePostIds.slice(0, 20).map((id) => get(`/api/v1/posts/${id}`)));
    await run('GET /posts/categories', [get('/api/v1/posts/categories')]);
    await run('GET /posts/tags', [get('/api/v1/posts/tags')]);
    return results;
  } finally {
    await (app as INestApplication).close();
  }
}

async function main(): Promise<void> {
  let embedded: EmbeddedDatabase | undefined;
  let dataDir: string | undefined;
  let url = process.env['DATABASE_URL'];
  if (!url) {
    dataDir = mkdtempSync(join(tmpdir(), 'almanac-bench-blog-'));
    embedded = await startEmbeddedPostgres({ dataDir, database: 'almanac_bench', persistent: false });
    url = embedded.url;
  }
  const db = new Client({ connectionString: url });
  try {
    await migrateDatabase(url, ALL_MIGRATIONS);
    await db.connect();

    let seeded = REUSE ? await loadSeeded(db) : null;
    const seedStarted = performance.now();
    if (!seeded) {
      process.stdout.write(`Seeding ${POSTS} posts (+${OTHER_ORG_POSTS} in a second organization)…\n`);
      seeded = await seedOrganization(db, 'Bench', POSTS, true);
      await seedOrganization(db, 'Neighbour', OTHER_ORG_POSTS, false);
    }
    await db.query('VACUUM ANALYZE posts, post_tag_links, post_categories, post_tags, users');
    const { rows: sizes } = await db.query(
      `SELECT pg_size_pretty(pg_total_relation_size('posts')) AS posts, pg_size_pretty(pg_relation_size('posts_search_idx')) AS gin,
              (SELECT count(*) FROM post_tag_links) AS links`,
    );
    process.stdout.write(
      `Ready in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s: posts table ${sizes[0].posts} (GIN ${sizes[0].gin}), ${sizes[0].links} tag links\n`,
    );
    const { rows: version } = await db.query('SHOW server_version');
    process.stdout.write(`PostgreSQL ${version[0].server_version}; ${ITERATIONS} timed runs per case after ${WARMUP} warm-ups\n`);

    await explainSearch(db, seeded);
    printTable('Repository SQL (the statements the API runs), one connection, sequential', await measureRepositories(db, seeded));
    if (HTTP) printTable('HTTP, the real app (auth, validation, JSON), sequential', await measureHttp(url, seeded));
  } finally {
    await db.end().catch(() => undefined);
    await embedded?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

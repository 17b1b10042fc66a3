'use strict';
// Seeds the benchmark's data set straight into PostgreSQL with COPY (rows generated as they are
// sent), into the tables, columns, constraints and triggers of the migrations. The large tables'
// secondary indexes are dropped for the load and built again from their own definitions afterwards
// (one sorted build instead of a million insertions each); constraints, their indexes and the
// triggers stay on. Deterministic: the same sizes give the same rows (ids aside). Returns the
// fixtures the load scenarios need.

const { createHash } = require('node:crypto');
const { Readable } = require('node:stream');
const { pipeline } = require('node:stream/promises');
const { from: copyFrom } = require('pg-copy-streams');
const {
  rng,
  title,
  paragraph,
  sentence,
  contentBlocks,
  personName,
  slugify,
  NOUNS,
  ADJECTIVES,
} = require('./text');

const HOUR = 3600_000;
const DAY = 24 * HOUR;

/** Data set sizes: the for a full run (times `--scale`), small ones for --quick. */
const SIZES = {
  full: {
    organizations: 2,
    schedules: 200,
    bookings: 50_000,
    eventTypes: 200,
    events: 10_000,
    registrations: 100_000,
    posts: 100_000,
    categories: 50,
    tags: 500,
    usersPerOrg: 10,
  },
  quick: {
    organizations: 2,
    schedules: 20,
    bookings: 5_000,
    eventTypes: 20,
    events: 500,
    registrations: 2_000,
    posts: 2_000,
    categories: 10,
    tags: 50,
    usersPerOrg: 4,
  },
};

/**
 * The sizes of a mode at a scale: every count times `scale` but the organizations (the load runs as
 * one of them whatever the size), so that a run at 10× has ten times every table.
 */
function sizesFor(mode, scale = 1) {
  const base = SIZES[mode];
  return Object.fromEntries(
    Object.entries(base).map(([name, n]) => [name, name === 'organizations' ? n : Math.round(n * scale)]),
  );
}

/** The first organization is the one the load runs against; it holds this share of every table. */
const MAIN_SHARE = 0.8;

function split(total, organizations) {
  if (organizations === 1) return [total];
  const main = Math.round(total * MAIN_SHARE);
  const rest = total - main;
  const others = [];
  for (let i = 1; i < organizations; i++) {
    others.push(Math.floor(rest / (organizations - 1)) + (i <= rest % (organizations - 1) ? 1 : 0));
  }
  return [main, ...others];
}

/** A value in COPY's text format: `\N` for null, backslash escapes for the separators. */
function copyText(value) {
  if (value === null || value === undefined) return '\\N';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return /[\\\n\r\t]/.test(text)
    ? text.replace(/[\\\n\r\t]/g, (c) => ({ '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' })[c])
    : text;
}

/** COPY's input, a few hundred rows a chunk, generated as PostgreSQL asks for more. */
function* copyLines(rows) {
  let chunk = [];
  for (const row of rows) {
    chunk.push(row.map(copyText).join('\t'));
    if (chunk.length === 500) {
      yield `${chunk.join('\n')}\n`;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield `${chunk.join('\n')}\n`;
}

/**
 * `COPY table (columns) FROM STDIN` of every row `rows` yields (an array or a generator: rows are
 * made while the server takes the previous ones). Returns how many rows went in.
 */
async function copyRows(client, table, columns, rows) {
  let count = 0;
  const counted = (function* () {
    for (const row of rows) {
      count++;
      yield row;
    }
  })();
  const stream = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
  await pipeline(Readable.from(copyLines(counted)), stream);
  return count;
}

/**
 * Drops the secondary indexes of `tables` (those no constraint owns) for a bulk load and returns
 * their definitions for `buildIndexes`. Triggers, constraints and their indexes stay.
 */
async function dropSecondaryIndexes(client, tables) {
  const { rows } = await client.query(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i
      WHERE i.indrelid = ANY ($1::regclass[]) AND NOT i.indisprimary AND NOT i.indisunique
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
    [tables],
  );
  for (const index of rows) await client.query(`DROP INDEX ${index.name}`);
  return rows;
}

/** Builds dropped indexes again from their own definitions (one sorted build each). */
async function buildIndexes(client, indexes) {
  await client.query("SET maintenance_work_mem = '512MB'");
  for (const index of indexes) await client.query(index.definition);
  await client.query('RESET maintenance_work_mem');
}

function isoDate(ms) {
  return new Date(ms).toISOString().slice(0, 10);
}

function hhmm(minutes) {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * @param {import('pg').Client} client a superuser connection to the migrated database
 * @param {object} options { mode: 'full'|'quick', scale?: number, sizes?: (every size, instead of the mode's times scale), now: Date, newId: () => string, zonedTimeToUtc, apiKey: string, log, connect?: () => Promise<import('pg').Client> (a second connection: posts load on two) }
 */
async function seed(client, options) {
  const sizes = options.sizes ?? sizesFor(options.mode, options.scale ?? 1);
  const { newId, zonedTimeToUtc, log } = options;
  const now = options.now.getTime();
  const r = rng(20261121);
  const orgCount = sizes.organizations;
  const started = Date.now();
  // A lost commit only costs a new run: the load need not wait for each one to reach the disk.
  await client.query('SET synchronous_commit = off');
  const step = (label) => log(`  seeded ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

  // Triggers stay on: whatever the migrations keep up to date (the registration counter, the copies a
  // tag link keeps of its post) is kept by the database itself, as it would be for the app.

  // Organizations and users.
  const orgs = [];
  for (let o = 0; o < orgCount; o++)
    orgs.push({ id: newId(), name: o === 0 ? 'Bench Main Org' : `Bench Org ${o + 1}` });
  await copyRows(
    client,
    'organizations',
    ['id', 'name', 'created_at'],
    orgs.map((org) => [org.id, org.name, new Date(now - 400 * DAY)]),
  );
  const usersByOrg = orgs.map(() => []);
  const userRows = [];
  orgs.forEach((org, o) => {
    for (let u = 0; u < sizes.usersPerOrg; u++) {
      const id = newId();
      usersByOrg[o].push(id);
      userRows.push([
        id,
        org.id,
        `user${u}@org${o + 1}.bench.example.com`,
        personName(r),
        u === 0 ? 'admin' : 'author',
        null,
        new Date(now - 390 * DAY),
      ]);
    }
  });
  await copyRows(
    client,
    'users',
    ['id', 'organization_id', 'email', 'name', 'role', 'password_hash', 'created_at'],
    userRows,
  );

  // The API key of the load: all scopes, issued for the main organization's admin (as the CLI would).
  const keyId = newId();
  await client.query(
    `INSERT INTO api_keys (id, organization_id, user_id, name, prefix, key_hash, scopes, created_at)
     VALUES ($1, $2, $3, 'bench', $4, $5, $6, $7)`,
    [
      keyId,
      orgs[0].id,
      usersByOrg[0][0],
      options.apiKey.slice(0, 12),
      createHash('sha256').update(options.apiKey).digest('hex'),
      ['bookings:read', 'bookings:write', 'events:read', 'events:write', 'posts:read', 'posts:write'],
      new Date(now - DAY),
    ],
  );

  // Schedules and event types.
  const zones = [
    'UTC',
    'Europe/Paris',
    'America/New_York',
    'Europe/London',
    'Asia/Tokyo',
    'America/Los_Angeles',
    'Australia/Sydney',
  ];
  const schedulesByOrg = split(sizes.schedules, orgCount).map((count, o) => {
    const list = [];
    for (let i = 0; i < count; i++)
      list.push({
        id: newId(),
        org: orgs[o].id,
        timezone: r.pick(zones),
        name: `${personName(r)} — ${r.pick(['consultations', 'office hours', 'support calls', 'interviews', 'coaching', 'demos'])}`,
      });
    return list;
  });
  await copyRows(
    client,
    'schedules',
    ['id', 'organization_id', 'name', 'timezone', 'created_at', 'updated_at'],
    schedulesByOrg
      .flat()
      .map((s, i) => [
        s.id,
        s.org,
        s.name,
        s.timezone,
        new Date(now - 380 * DAY + i * HOUR),
        new Date(now - 380 * DAY + i * HOUR),
      ]),
  );

  const locationTypes = ['in_person', 'phone', 'video', 'custom'];
  const eventTypesByOrg = split(sizes.eventTypes, orgCount).map((count, o) => {
    const list = [];
    for (let i = 0; i < count; i++) {
      const duration = r.pick([15, 30, 45, 60, 90]);
      const t = `${duration}-minute ${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}`;
      list.push({
        id: newId(),
        org: orgs[o].id,
        title: t.charAt(0).toUpperCase() + t.slice(1),
        slug: `${slugify(t)}-${i + 1}`,
        duration,
        locationType: r.pick(locationTypes),
      });
    }
    return list;
  });
  await copyRows(
    client,
    'event_types',
    [
      'id',
      'organization_id',
      'title',
      'slug',
      'description',
      'duration',
      'location_type',
      'location_details',
      'color',
      'requires_approval',
      'is_active',
      'created_at',
      'updated_at',
    ],
    eventTypesByOrg
      .flat()
      .map((e, i) => [
        e.id,
        e.org,
        e.title,
        e.slug,
        paragraph(r, 1, 2),
        e.duration,
        e.locationType,
        e.locationType === 'custom' ? 'Meeting room on the 3rd floor' : null,
        r.pick(['#3366ff', '#f60', '#22aa55', '#aa33cc']),
        r.chance(0.2),
        r.chance(0.9),
        new Date(now - 370 * DAY + i * HOUR),
        new Date(now - 370 * DAY + i * HOUR),
      ]),
  );
  step('organizations, users, schedules, event types');

  // The large tables are loaded without their secondary indexes, built again once they are full.
  const dropped = await dropSecondaryIndexes(client, [
    'bookings',
    'events',
    'event_registrations',
    'posts',
    'post_tag_links',
  ]);

  // Bookings: per schedule, non-overlapping slots from 120 days ago to 240 days ahead. Past ones are
  // over (COMPLETED mostly), future ones PENDING or CONFIRMED (some CANCELLED).
  const bookingCounts = split(sizes.bookings, orgCount);
  const patchPool = [];
  const bookingSample = [];
  const spanStart = now - 120 * DAY;
  const span = 360 * DAY;
  function* bookingRows() {
    for (let o = 0; o < orgCount; o++) {
      const count = bookingCounts[o];
      const schedules = schedulesByOrg[o];
      const types = eventTypesByOrg[o];
      for (let s = 0; s < schedules.length; s++) {
        const schedule = schedules[s];
        const n = Math.floor(count / schedules.length) + (s < count % schedules.length ? 1 : 0);
        const stepMs = Math.floor(span / n);
        for (let k = 0; k < n; k++) {
          const quarter = 15 * 60_000;
          const slack = Math.max(0, stepMs - 2 * HOUR);
          const start = Math.floor((spanStart + k * stepMs + r() * slack) / quarter) * quarter;
          const minutes = r.pick([30, 30, 45, 60]);
          const end = start + minutes * 60_000;
          let status;
          if (end < now) status = r.chance(0.8) ? 'COMPLETED' : r.chance(0.5) ? 'CANCELLED' : 'NO_SHOW';
          else status = r.chance(0.7) ? 'PENDING' : r.chance(0.75) ? 'CONFIRMED' : 'CANCELLED';
          const type = r.chance(0.8) ? r.pick(types) : null;
          const id = newId();
          const created = Math.min(start - DAY, now - r.int(1, 100) * HOUR);
          const name = personName(r);
          const email = `${slugify(name).replace(/-/g, '.')}.${k}@${r.pick(['example.com', 'example.org', 'mail.example.net'])}`;
          const metadata = r.chance(0.3)
            ? { source: r.pick(['website', 'phone', 'partner']), visits: r.int(1, 9) }
            : {};
          if (o === 0) {
            if (status === 'PENDING') patchPool.push(id);
            if (bookingSample.length < 2000 || r.chance(0.05)) bookingSample.push(id);
          }
          yield [
            id,
            schedule.org,
            schedule.id,
            type ? type.id : null,
            new Date(start),
            new Date(end),
            schedule.timezone,
            status,
            type ? type.title : 'Booking',
            r.chance(0.3) ? 'https://meet.example.com/' + id.slice(-8) : null,
            type ? type.locationType : null,
            name,
            email,
            r.chance(0.3) ? '+44 20 7946 0958' : null,
            r.chance(0.3) ? r.pick(zones) : null,
            r.chance(0.2) ? sentence(r) : null,
            metadata,
            new Date(created),
            new Date(created),
            status === 'CANCELLED' ? new Date(Math.min(now, start - HOUR)) : null,
          ];
        }
      }
    }
  }
  const bookingTotal = await copyRows(
    client,
    'bookings',
    [
      'id',
      'organization_id',
      'schedule_id',
      'event_type_id',
      'start_time',
      'end_time',
      'timezone',
      'status',
      'title',
      'location',
      'location_type',
      'attendee_name',
      'attendee_email',
      'attendee_phone',
      'attendee_timezone',
      'attendee_notes',
      'metadata',
      'created_at',
      'updated_at',
      'cancelled_at',
    ],
    bookingRows(),
  );
  step(`${bookingTotal} bookings`);

  // Slots: one schedule open on weekdays 08:00–20:00 in Paris, with 5,000 PENDING
  // 20-minute bookings every 30 minutes (at :05 and :35) from tomorrow on (about 104 days, so a
  // 62-day query meets some 3,000 of them), a third of them of a 10-minute event type with a 5-minute
  // interval and a daily limit: the 10-minute gaps leave two slots an hour. The schedule has a weekly
  // limit of booked minutes over all its bookings, never reached (the answer stays the same), so a
  // query also counts its periods.
  const slots = {
    scheduleId: newId(),
    eventTypeId: newId(),
    start: new Date(Math.ceil(now / DAY) * DAY + DAY).toISOString(),
  };
  slots.end = new Date(Date.parse(slots.start) + 62 * DAY).toISOString();
  await client.query(
    `INSERT INTO schedules (id, organization_id, name, timezone, availability, date_overrides, max_booked_minutes_per_week,
       created_at, updated_at)
     VALUES ($1, $2, 'Slots bench', 'Europe/Paris', $3, '[]', 100000, $4, $4)`,
    [
      slots.scheduleId,
      orgs[0].id,
      JSON.stringify([{ days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '08:00', end: '20:00' }]),
      new Date(now - 30 * DAY),
    ],
  );
  await client.query(
    `INSERT INTO event_types (id, organization_id, title, slug, duration, buffer_before, buffer_after, slot_interval,
       max_bookings_per_day, created_at, updated_at)
     VALUES ($1, $2, 'Slots bench call', 'slots-bench-call', 10, 0, 0, 5, 20, $3, $3)`,
    [slots.eventTypeId, orgs[0].id, new Date(now - 30 * DAY)],
  );
  const slotBookingsStart = Date.parse(slots.start);
  await client.query(
    `INSERT INTO bookings (id, organization_id, schedule_id, event_type_id, start_time, end_time, timezone, status,
       title, attendee_name, attendee_email, created_at, updated_at)
     SELECT u.id, $2, $3, CASE WHEN i % 3 = 0 THEN $4::uuid END,
            $5::timestamptz + (i - 1) * interval '30 minutes', $5::timestamptz + (i - 1) * interval '30 minutes' + interval '20 minutes',
            'Europe/Paris', 'PENDING', 'Slots bench booking', 'Bench Attendee', 'slots.' || i || '@example.com', $6, $6
       FROM unnest($1::uuid[]) WITH ORDINALITY AS u(id, i)`,
    [
      Array.from({ length: 5000 }, () => newId()),
      orgs[0].id,
      slots.scheduleId,
      slots.eventTypeId,
      new Date(slotBookingsStart + 5 * 60_000),
      new Date(now - DAY),
    ],
  );
  step('slots: a schedule with availability and a weekly limit, 5000 bookings, an event type');

  // Events: from a year ago to a year ahead, a third unlimited, the rest with 10-200 places.
  const eventCounts = split(sizes.events, orgCount);
  const eventRows = [];
  const capacity = [];
  eventCounts.forEach((count, o) => {
    for (let i = 0; i < count; i++) {
      const id = newId();
      const startDate = isoDate(now - 365 * DAY + Math.floor(r() * 730) * DAY);
      const timezone = r.pick(zones);
      const timed = r.chance(0.7);
      const startMinutes = timed ? r.int(16, 38) * 30 : null;
      const endMinutes =
        timed && r.chance(0.8) ? Math.min(startMinutes + r.int(1, 6) * 30, 23 * 60 + 30) : null;
      const startTime = startMinutes === null ? null : hhmm(startMinutes);
      const endTime = endMinutes === null ? null : hhmm(endMinutes);
      const startsAt = zonedTimeToUtc(startDate, startTime ?? '00:00', timezone);
      const endsAt =
        endTime !== null
          ? zonedTimeToUtc(startDate, endTime, timezone)
          : zonedTimeToUtc(isoDate(Date.parse(`${startDate}T00:00:00Z`) + DAY), '00:00', timezone);
      const slots = r.chance(0.33) ? null : r.int(10, 200);
      const status = r.chance(0.85) ? 'published' : r.chance(0.6) ? 'draft' : 'cancelled';
      const created = Math.min(now, startsAt.getTime()) - r.int(5, 60) * DAY;
      const t = `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)} ${r.pick(['meetup', 'workshop', 'talk', 'evening', 'open day', 'conference', 'class'])}`;
      eventRows.push([
        id,
        orgs[o].id,
        r.chance(0.3) ? r.pick(['main-site', 'docs', 'shop']) : null,
        t.charAt(0).toUpperCase() + t.slice(1),
        paragraph(r, 1, 3),
        startDate,
        startTime,
        endTime,
        timezone,
        r.chance(0.8) ? `${r.pick(['Town hall', 'Library', 'Studio', 'Online'])}, room ${r.int(1, 9)}` : null,
        r.chance(0.5) ? '0' : `${r.int(5, 120)}.${r.pick(['00', '50', '99'])}`,
        slots,
        0,
        status,
        startsAt,
        endsAt,
        new Date(created),
        new Date(created),
      ]);
      capacity.push({ id, org: orgs[o].id, o, slots, status, created });
    }
  });
  await copyRows(
    client,
    'events',
    [
      'id',
      'organization_id',
      'site_id',
      'title',
      'description',
      'start_date',
      'start_time',
      'end_time',
      'timezone',
      'location',
      'cost',
      'slots',
      'registration_count',
      'status',
      'starts_at',
      'ends_at',
      'created_at',
      'updated_at',
    ],
    eventRows,
  );
  step(`${eventRows.length} events`);

  // Registrations: spread over the published events of each organization, never beyond an event's
  // places (the trigger keeps registration_count, the CHECK holds it within slots).
  const registrationEvents = capacity
    .filter((e) => e.o === 0 && e.status === 'published' && e.slots === null)
    .map((e) => e.id);
  const registrationCounts = split(sizes.registrations, orgCount);
  function* registrationRows() {
    for (let o = 0; o < orgCount; o++) {
      const count = registrationCounts[o];
      const open = capacity.filter((e) => e.o === o && e.status !== 'draft');
      const used = new Map();
      let made = 0;
      let guard = 0;
      while (made < count && guard++ < count * 20) {
        const event = open[r.skewed(open.length, 1.6)];
        const n = used.get(event.id) ?? 0;
        if (event.slots !== null && n >= event.slots) continue;
        used.set(event.id, n + 1);
        const name = personName(r);
        const cancelled = r.chance(0.05);
        const created = event.created + r.int(1, 100) * HOUR;
        yield [
          newId(),
          event.org,
          event.id,
          name,
          `${slugify(name).replace(/-/g, '.')}.${n}@example.com`,
          cancelled ? 'cancelled' : 'active',
          new Date(created),
          cancelled ? new Date(created + DAY) : null,
        ];
        made++;
      }
    }
  }
  const registrationTotal = await copyRows(
    client,
    'event_registrations',
    ['id', 'organization_id', 'event_id', 'name', 'email', 'status', 'created_at', 'cancelled_at'],
    registrationRows(),
  );
  step(`${registrationTotal} registrations`);

  // Categories, tags, posts and their tag links.
  const categoriesByOrg = split(sizes.categories, orgCount).map((count, o) => {
    const list = [];
    for (let i = 0; i < count; i++) {
      const name = `${r.pick(ADJECTIVES)} ${r.pick(NOUNS)}s`.replace(/^./, (c) => c.toUpperCase());
      list.push({ id: newId(), org: orgs[o].id, name, slug: `${slugify(name)}-${i + 1}` });
    }
    return list;
  });
  const tagsByOrg = split(sizes.tags, orgCount).map((count, o) => {
    const list = [];
    for (let i = 0; i < count; i++) {
      const name =
        i < NOUNS.length
          ? NOUNS[i]
          : `${NOUNS[i % NOUNS.length]} ${ADJECTIVES[Math.floor(i / NOUNS.length) % ADJECTIVES.length]}`;
      list.push({ id: newId(), org: orgs[o].id, name, slug: `${slugify(name)}-${i + 1}` });
    }
    return list;
  });
  const termColumns = ['id', 'organization_id', 'name', 'slug', 'created_at', 'updated_at'];
  const termRow = (t, i) => [
    t.id,
    t.org,
    t.name,
    t.slug,
    new Date(now - 360 * DAY + i * HOUR),
    new Date(now - 360 * DAY + i * HOUR),
  ];
  await copyRows(client, 'post_categories', termColumns, categoriesByOrg.flat().map(termRow));
  await copyRows(client, 'post_tags', termColumns, tagsByOrg.flat().map(termRow));

  const postColumns = [
    'id',
    'organization_id',
    'title',
    'slug',
    'excerpt',
    'content',
    'featured_image_url',
    'status',
    'is_featured',
    'published_at',
    'category_id',
    'author_id',
    'created_at',
    'updated_at',
  ];
  const postCounts = split(sizes.posts, orgCount);
  const tagUse = new Map();
  let postTotal = 0;
  // In chunks, each made whole before it is sent (the same rows whichever connection loads it):
  // a chunk's posts, then their tag links (whose trigger copies each post's status). Posts cost the
  // server most (their search vectors are computed on insert): two connections load chunks at
  // once, which is safe since a chunk's rows touch no other chunk's.
  const chunkSize = 10_000;
  function* postChunks() {
    for (let o = 0; o < orgCount; o++) {
      for (let offset = 0; offset < postCounts[o]; offset += chunkSize) {
        const posts = [];
        const links = [];
        for (let i = offset; i < Math.min(postCounts[o], offset + chunkSize); i++) {
          const id = newId();
          const t = title(r);
          const roll = r();
          const status =
            roll < 0.85 ? 'published' : roll < 0.93 ? 'draft' : roll < 0.95 ? 'scheduled' : 'archived';
          const created = now - Math.floor(r() * 3 * 365 * DAY) - DAY;
          const publishedAt =
            status === 'draft'
              ? null
              : status === 'scheduled'
                ? now + r.int(1, 60) * DAY
                : created + r.int(0, 72) * HOUR;
          const updated = Math.min(now, created + r.int(0, 30) * DAY);
          posts.push([
            id,
            orgs[o].id,
            t,
            `${slugify(t)}-${i + 1}`,
            paragraph(r, 1, 2),
            JSON.stringify(contentBlocks(r, id)),
            r.chance(0.5) ? `https://images.example.com/covers/${id}.jpg` : null,
            status,
            r.chance(0.05),
            publishedAt === null ? null : new Date(publishedAt),
            r.chance(0.9) ? r.pick(categoriesByOrg[o]).id : null,
            r.chance(0.95) ? r.pick(usersByOrg[o]) : null,
            new Date(created),
            new Date(updated),
          ]);
          const tagCount = r.int(0, 5);
          const chosen = new Set();
          for (let k = 0; k < tagCount; k++) chosen.add(tagsByOrg[o][r.skewed(tagsByOrg[o].length)].id);
          for (const tagId of chosen) {
            links.push([orgs[o].id, id, tagId]);
            tagUse.set(tagId, (tagUse.get(tagId) ?? 0) + 1);
          }
        }
        yield { posts, links };
      }
    }
  }
  const chunks = postChunks();
  const loaders = options.connect ? [client, await options.connect()] : [client];
  await Promise.all(
    loaders.map(async (loader) => {
      for (let next = chunks.next(); !next.done; next = chunks.next()) {
        const loaded = await copyRows(loader, 'posts', postColumns, next.value.posts);
        postTotal += loaded;
        await copyRows(loader, 'post_tag_links', ['organization_id', 'post_id', 'tag_id'], next.value.links);
      }
    }),
  );
  if (loaders.length > 1) await loaders[1].end();
  step(`${postTotal} posts`);
  await buildIndexes(client, dropped);
  step(`${dropped.length} secondary indexes built`);

  await client.query('VACUUM (ANALYZE)');
  await client.query('CHECKPOINT');
  step('VACUUM ANALYZE');

  // Tags of the main organization from the most used to the rarely used, for the tag filter.
  const tagsByUse = tagsByOrg[0]
    .filter((t) => tagUse.has(t.id))
    .sort((a, b) => tagUse.get(b.id) - tagUse.get(a.id));
  const tagSlugs = [];
  for (let i = 0; i < 24 && tagsByUse.length > 0; i++)
    tagSlugs.push(tagsByUse[Math.floor((i * tagsByUse.length) / 24)].slug);

  return {
    organizationId: orgs[0].id,
    apiKeyId: keyId,
    schedules: schedulesByOrg[0].map((s) => s.id),
    eventTypes: eventTypesByOrg[0].map((e) => e.id),
    bookingSample,
    patchPool,
    registrationEvents,
    tagSlugs,
    slots,
    counts: {
      organizations: orgCount,
      schedules: sizes.schedules,
      bookings: sizes.bookings,
      eventTypes: sizes.eventTypes,
      events: sizes.events,
      registrations: registrationTotal,
      posts: postTotal,
      categories: sizes.categories,
      tags: sizes.tags,
    },
  };
}

module.exports = { seed, SIZES, sizesFor };

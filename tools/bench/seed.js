'use strict';
// Seeds the benchmark's data set straight into PostgreSQL, in batches (INSERT … SELECT FROM unnest),
// with the columns and constraints of the migrations. Deterministic: the same sizes give the same
// rows (ids aside). Returns the fixtures the load scenarios need.

const { createHash } = require('node:crypto');
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

/** Data set sizes: the for a full run, small ones for --quick. */
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

/**
 * `INSERT INTO table (columns) SELECT * FROM unnest($1::t1[], $2::t2[], …)`: one statement per batch,
 * whatever its size, with every value a parameter.
 */
async function insertBatch(client, table, columns, rows) {
  if (rows.length === 0) return;
  const names = Object.keys(columns);
  const arrays = names.map((_, index) => rows.map((row) => row[index]));
  const casts = names.map((name, index) => `$${index + 1}::${columns[name]}[]`);
  await client.query(
    `INSERT INTO ${table} (${names.join(', ')}) SELECT * FROM unnest(${casts.join(', ')})`,
    arrays,
  );
}

async function insertAll(client, table, columns, rows, batchSize = 5000) {
  for (let i = 0; i < rows.length; i += batchSize)
    await insertBatch(client, table, columns, rows.slice(i, i + batchSize));
}

function isoDate(ms) {
  return new Date(ms).toISOString().slice(0, 10);
}

function hhmm(minutes) {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/**
 * @param {import('pg').Client} client a superuser connection to the migrated database
 * @param {object} options { mode: 'full'|'quick', now: Date, newId: () => string, zonedTimeToUtc, apiKey: string, log }
 */
async function seed(client, options) {
  const sizes = SIZES[options.mode];
  const { newId, zonedTimeToUtc, log } = options;
  const now = options.now.getTime();
  const r = rng(20261121);
  const orgCount = sizes.organizations;
  const started = Date.now();
  const step = (label) => log(`  seeded ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`);

  // Triggers stay on: whatever the migrations keep up to date (the registration counter, the copies a
  // tag link keeps of its post) is kept by the database itself, as it would be for the app.

  // Organizations and users.
  const orgs = [];
  for (let o = 0; o < orgCount; o++)
    orgs.push({ id: newId(), name: o === 0 ? 'Bench Main Org' : `Bench Org ${o + 1}` });
  await insertAll(
    client,
    'organizations',
    { id: 'uuid', name: 'text', created_at: 'timestamptz' },
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
  await insertAll(
    client,
    'users',
    {
      id: 'uuid',
      organization_id: 'uuid',
      email: 'text',
      name: 'text',
      role: 'text',
      password_hash: 'text',
      created_at: 'timestamptz',
    },
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
  await insertAll(
    client,
    'schedules',
    {
      id: 'uuid',
      organization_id: 'uuid',
      name: 'text',
      timezone: 'text',
      created_at: 'timestamptz',
      updated_at: 'timestamptz',
    },
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
  await insertAll(
    client,
    'event_types',
    {
      id: 'uuid',
      organization_id: 'uuid',
      title: 'text',
      slug: 'text',
      description: 'text',
      duration: 'int4',
      location_type: 'text',
      location_details: 'text',
      color: 'text',
      requires_approval: 'bool',
      is_active: 'bool',
      created_at: 'timestamptz',
      updated_at: 'timestamptz',
    },
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

  // Bookings: per schedule, non-overlapping slots from 120 days ago to 240 days ahead. Past ones are
  // over (COMPLETED mostly), future ones PENDING or CONFIRMED (some CANCELLED).
  const bookingCounts = split(sizes.bookings, orgCount);
  const patchPool = [];
  const bookingSample = [];
  const bookingRows = [];
  const spanStart = now - 120 * DAY;
  const span = 360 * DAY;
  bookingCounts.forEach((count, o) => {
    const schedules = schedulesByOrg[o];
    const types = eventTypesByOrg[o];
    schedules.forEach((schedule, s) => {
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
        bookingRows.push([
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
          JSON.stringify(metadata),
          new Date(created),
          new Date(created),
          status === 'CANCELLED' ? new Date(Math.min(now, start - HOUR)) : null,
        ]);
        if (o === 0) {
          if (status === 'PENDING') patchPool.push(id);
          if (bookingSample.length < 2000 || r.chance(0.05)) bookingSample.push(id);
        }
      }
    });
  });
  await insertAll(
    client,
    'bookings',
    {
      id: 'uuid',
      organization_id: 'uuid',
      schedule_id: 'uuid',
      event_type_id: 'uuid',
      start_time: 'timestamptz',
      end_time: 'timestamptz',
      timezone: 'text',
      status: 'text',
      title: 'text',
      location: 'text',
      location_type: 'text',
      attendee_name: 'text',
      attendee_email: 'text',
      attendee_phone: 'text',
      attendee_timezone: 'text',
      attendee_notes: 'text',
      metadata: 'jsonb',
      created_at: 'timestamptz',
      updated_at: 'timestamptz',
      cancelled_at: 'timestamptz',
    },
    bookingRows,
  );
  step(`${bookingRows.length} bookings`);
  bookingRows.length = 0;

  // Slots: one schedule open on weekdays 08:00–20:00 in Paris, with 5,000 PENDING
  // 20-minute bookings every 30 minutes (at :05 and :35) from tomorrow on (about 104 days, so a
  // 62-day query meets some 3,000 of them), a third of them of a 10-minute event type with a 5-minute
  // interval and a daily limit: the 10-minute gaps leave two slots an hour.
  const slots = {
    scheduleId: newId(),
    eventTypeId: newId(),
    start: new Date(Math.ceil(now / DAY) * DAY + DAY).toISOString(),
  };
  slots.end = new Date(Date.parse(slots.start) + 62 * DAY).toISOString();
  await client.query(
    `INSERT INTO schedules (id, organization_id, name, timezone, availability, date_overrides, created_at, updated_at)
     VALUES ($1, $2, 'Slots bench', 'Europe/Paris', $3, '[]', $4, $4)`,
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
  step('slots: a schedule with availability, 5000 bookings, an event type');

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
  await insertAll(
    client,
    'events',
    {
      id: 'uuid',
      organization_id: 'uuid',
      site_id: 'text',
      title: 'text',
      description: 'text',
      start_date: 'date',
      start_time: 'time',
      end_time: 'time',
      timezone: 'text',
      location: 'text',
      cost: 'numeric',
      slots: 'int4',
      registration_count: 'int4',
      status: 'text',
      starts_at: 'timestamptz',
      ends_at: 'timestamptz',
      created_at: 'timestamptz',
      updated_at: 'timestamptz',
    },
    eventRows,
  );
  step(`${eventRows.length} events`);

  // Registrations: spread over the published events of each organization, never beyond an event's
  // places (the trigger keeps registration_count, the CHECK holds it within slots).
  const registrationEvents = capacity
    .filter((e) => e.o === 0 && e.status === 'published' && e.slots === null)
    .map((e) => e.id);
  const registrationCounts = split(sizes.registrations, orgCount);
  const regRows = [];
  registrationCounts.forEach((count, o) => {
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
      regRows.push([
        newId(),
        event.org,
        event.id,
        name,
        `${slugify(name).replace(/-/g, '.')}.${n}@example.com`,
        cancelled ? 'cancelled' : 'active',
        new Date(created),
        cancelled ? new Date(created + DAY) : null,
      ]);
      made++;
    }
  });
  for (let i = 0; i < regRows.length; i += 10_000) {
    await insertBatch(
      client,
      'event_registrations',
      {
        id: 'uuid',
        organization_id: 'uuid',
        event_id: 'uuid',
        name: 'text',
        email: 'text',
        status: 'text',
        created_at: 'timestamptz',
        cancelled_at: 'timestamptz',
      },
      regRows.slice(i, i + 10_000),
    );
  }
  step(`${regRows.length} registrations`);

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
  const termColumns = {
    id: 'uuid',
    organization_id: 'uuid',
    name: 'text',
    slug: 'text',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  };
  const termRow = (t, i) => [
    t.id,
    t.org,
    t.name,
    t.slug,
    new Date(now - 360 * DAY + i * HOUR),
    new Date(now - 360 * DAY + i * HOUR),
  ];
  await insertAll(client, 'post_categories', termColumns, categoriesByOrg.flat().map(termRow));
  await insertAll(client, 'post_tags', termColumns, tagsByOrg.flat().map(termRow));

  const postColumns = {
    id: 'uuid',
    organization_id: 'uuid',
    title: 'text',
    slug: 'text',
    excerpt: 'text',
    content: 'jsonb',
    featured_image_url: 'text',
    status: 'text',
    is_featured: 'bool',
    published_at: 'timestamptz',
    category_id: 'uuid',
    author_id: 'uuid',
    created_at: 'timestamptz',
    updated_at: 'timestamptz',
  };
  const linkColumns = { organization_id: 'uuid', post_id: 'uuid', tag_id: 'uuid' };
  const postCounts = split(sizes.posts, orgCount);
  const tagUse = new Map();
  let postTotal = 0;
  for (let o = 0; o < orgCount; o++) {
    const batchSize = 1000;
    for (let offset = 0; offset < postCounts[o]; offset += batchSize) {
      const posts = [];
      const links = [];
      for (let i = offset; i < Math.min(postCounts[o], offset + batchSize); i++) {
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
      await insertBatch(client, 'posts', postColumns, posts);
      await insertBatch(client, 'post_tag_links', linkColumns, links);
      postTotal += posts.length;
    }
  }
  step(`${postTotal} posts`);

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
      registrations: regRows.length,
      posts: postTotal,
      categories: sizes.categories,
      tags: sizes.tags,
    },
  };
}

module.exports = { seed, SIZES };

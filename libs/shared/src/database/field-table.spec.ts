import { Client } from 'pg';
import { createTestDatabase } from '../testing/test-database';
import { field, recordFields } from '../domain/record-fields';
import { fieldTable, SqlParams } from './field-table';

interface Thing {
  readonly id: string;
  readonly organizationId: string;
  readonly title: string;
  readonly startsAt: Date;
  readonly endedAt: Date | null;
  readonly tags: readonly string[];
  readonly day: string;
  readonly at: string | null;
  readonly price: number;
  readonly counted: number;
}

const THING_FIELDS = recordFields<Thing>()({
  id: field.value,
  organizationId: field.hidden(field.value),
  title: field.value,
  startsAt: field.instant,
  endedAt: field.instant,
  tags: field.json,
  day: field.date,
  at: field.time,
  price: field.value,
  counted: field.value,
});

const THING_TABLE = fieldTable('things', THING_FIELDS, {
  title: { column: 'label' },
  price: { read: (column) => `${column}::text`, encode: (value: number) => value.toFixed(2), decode: (raw: string) => Number(raw) },
  counted: { readOnly: true, read: () => '42' },
});

const thing: Thing = {
  id: '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a',
  organizationId: '0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9b',
  title: 'Tea',
  startsAt: new Date('2026-11-21T10:00:00.000Z'),
  endedAt: null,
  tags: ['a', 'b'],
  day: '2026-11-21',
  at: '09:30',
  price: 19.9,
  counted: 42,
};

describe('record fields', () => {
  it('refuses, at compile time, a declaration that misses a field, names an unknown one or gives a kind that cannot hold it', () => {
    // @ts-expect-error `counted` is missing
    recordFields<Pick<Thing, 'id' | 'counted'>>()({ id: field.value });
    // @ts-expect-error `extra` is not a field of the record
    recordFields<Pick<Thing, 'id'>>()({ id: field.value, extra: field.value });
    // @ts-expect-error a title is not an instant
    recordFields<Pick<Thing, 'title'>>()({ title: field.instant });
    expect(THING_FIELDS.entries.map((e) => e.name)).toEqual([
      'id', 'organization_id', 'title', 'starts_at', 'ended_at', 'tags', 'day', 'at', 'price', 'counted',
    ]);
  });

  it('represents a record: shown fields in declaration order, snake_case, instants as ISO 8601', () => {
    const wire = THING_FIELDS.represent(thing);
    expect(JSON.stringify(wire)).toBe(
      '{"id":"0193a3c2-7d1e-7c4e-9a57-2f5b8e1c0d9a","title":"Tea","starts_at":"2026-11-21T10:00:00.000Z","ended_at":null,' +
        '"tags":["a","b"],"day":"2026-11-21","at":"09:30","price":19.9,"counted":42}',
    );
    // The type says the same: no organization_id, instants are strings.
    const startsAt: string = wire.starts_at;
    expect(startsAt).toBe('2026-11-21T10:00:00.000Z');
    expect('organization_id' in wire).toBe(false);
  });

  it('reads the fields a body gives by their snake_case names: absent stays absent, null stays null, instants become dates', () => {
    expect(THING_FIELDS.fromWire({ title: 'Coffee', starts_at: '2026-11-21T11:00:00+01:00', ended_at: null, organization_id: 'x', other: 1 })).toEqual({
      title: 'Coffee',
      startsAt: new Date('2026-11-21T10:00:00.000Z'),
      endedAt: null,
      organizationId: 'x',
    });
  });
});

describe('field table', () => {
  it('derives the select list, with read expressions named by their column and an alias when given', () => {
    expect(THING_TABLE.select()).toBe(
      "id, organization_id, label, starts_at, ended_at, tags, to_char(day, 'YYYY-MM-DD') AS day, to_char(at, 'HH24:MI') AS at, price::text AS price, 42 AS counted",
    );
    expect(THING_TABLE.select('t', { title: 'upper(t.label)', tags: null })).toBe(
      "t.id, t.organization_id, upper(t.label) AS label, t.starts_at, t.ended_at, to_char(t.day, 'YYYY-MM-DD') AS day, to_char(t.at, 'HH24:MI') AS at, t.price::text AS price, 42 AS counted",
    );
    expect(THING_TABLE.pick('title', 'day').jsonObject('t')).toBe("json_build_object('label', t.label, 'day', to_char(t.day, 'YYYY-MM-DD'))");
  });

  it('derives the INSERT of the writable fields, encoding JSON and custom columns', () => {
    const insert = THING_TABLE.insert(thing);
    expect(insert.text).toBe(
      'INSERT INTO things (id, organization_id, label, starts_at, ended_at, tags, day, at, price) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
    );
    expect(insert.values).toEqual([thing.id, thing.organizationId, 'Tea', thing.startsAt, null, '["a","b"]', '2026-11-21', '09:30', '19.90']);
  });

  it('derives the SET clause of the given changes only, after parameters already taken', () => {
    const params = new SqlParams();
    params.add('first');
    expect(THING_TABLE.set(params, { title: 'Coffee', tags: [], endedAt: null, at: undefined })).toBe('label = $2, ended_at = $3, tags = $4');
    expect(params.values).toEqual(['first', 'Coffee', null, '[]']);
  });

  it('writes and reads a record back unchanged through PostgreSQL', async () => {
    const database = await createTestDatabase();
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(`CREATE TABLE things (id uuid PRIMARY KEY, organization_id uuid NOT NULL, label text NOT NULL,
        starts_at timestamptz NOT NULL, ended_at timestamptz, tags jsonb NOT NULL, day date NOT NULL, at time, price numeric(12,2) NOT NULL)`);
      const insert = THING_TABLE.insert(thing);
      const [inserted] = (await client.query(`${insert.text} RETURNING ${THING_TABLE.select()}`, insert.values)).rows;
      expect(THING_TABLE.fromRow(inserted)).toEqual(thing);

      const params = new SqlParams();
      const set = THING_TABLE.set(params, { title: 'Coffee', endedAt: new Date('2026-11-21T12:00:00.000Z'), at: null, price: 3 });
      const [updated] = (await client.query(`UPDATE things t SET ${set} WHERE t.id = ${params.add(thing.id)} RETURNING ${THING_TABLE.select('t')}`, params.values)).rows;
      expect(THING_TABLE.fromRow(updated)).toEqual({ ...thing, title: 'Coffee', endedAt: new Date('2026-11-21T12:00:00.000Z'), at: null, price: 3 });

      // Inside another query's row, as JSON: instants come back as dates all the same.
      const [nested] = (await client.query(`SELECT (SELECT ${THING_TABLE.jsonObject('t')} FROM things t) AS thing`)).rows;
      expect(THING_TABLE.fromJson(nested.thing)).toEqual({ ...thing, title: 'Coffee', endedAt: new Date('2026-11-21T12:00:00.000Z'), at: null, price: 3 });
    } finally {
      await client.end();
      await database.drop();
    }
  });
});

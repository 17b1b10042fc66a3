import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { contexts, LIBS, tsFiles } from '../support/source-files';

/** Read models a context declares for the others (a view of its own tables), and the kernel's tables. */
const SHARED_READS: Record<string, string> = {
  user_directory: 'identity: authors by id, name only',
  outbox_events: 'shared: the outbox every context writes and webhooks reads',
  schedule_events: "events: the published events on a schedule (a schedule's calendar feed lists them)",
  schedule_holds: "scheduling: what holds a schedule's time (events list it when a published event would overlap it)",
};

/** Each table's owner: the context whose migrations create it. */
function owners(): Map<string, string> {
  const owner = new Map<string, string>();
  for (const context of contexts()) {
    for (const path of tsFiles(join(LIBS, context)).filter((p) => p.includes('migration'))) {
      for (const match of readFileSync(path, 'utf8').matchAll(/CREATE (?:UNLOGGED )?TABLE (?:IF NOT EXISTS )?([a-z_]+)/g)) owner.set(match[1]!, context);
    }
  }
  return owner;
}

/** No context's code reads or writes another context's tables: it asks that context, or reads a declared read model. */
describe('table ownership', () => {
  it("every SQL reference outside migrations names the context's own table, a kernel table or a declared read model", () => {
    const owner = owners();
    expect(owner.get('bookings')).toBe('scheduling');
    expect(owner.get('users')).toBe('identity');
    const violations: string[] = [];
    for (const context of contexts()) {
      for (const path of tsFiles(join(LIBS, context)).filter((p) => !p.includes('migration'))) {
        const source = readFileSync(path, 'utf8');
        for (const match of source.matchAll(/\b(?:FROM|JOIN|UPDATE|INTO|REFERENCES)\s+([a-z_]+)\b/g)) {
          const table = match[1]!;
          const tableOwner = owner.get(table);
          if (!tableOwner || tableOwner === context || tableOwner === 'shared' || table in SHARED_READS) continue;
          violations.push(`${relative(LIBS, path)}: ${table} (owned by ${tableOwner})`);
        }
      }
    }
    expect([...new Set(violations)]).toEqual([]);
  });
});

import { declaredEventTypes, eventTypes } from '@almanac/identity';
import { AUDIT_ACTIONS } from '@almanac/shared';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { contexts, LIBS, tsFiles } from '../support/source-files';
// The app and so every context's module file, each of which declares its context's event types.
import '../support/test-app';

/** Where a context builds the events it records through the outbox: its domain and application layers. */
const EVENT_LAYERS = ['domain', 'application'];

/** Every string literal shaped like an event type (`booking.created`) in those layers, by context, audit actions aside. */
function writtenTypes(): Array<{ type: string; context: string; path: string }> {
  const found: Array<{ type: string; context: string; path: string }> = [];
  for (const context of contexts()) {
    for (const layer of EVENT_LAYERS) {
      const dir = join(LIBS, context, 'src/lib', layer);
      if (!existsSync(dir)) continue;
      for (const path of tsFiles(dir)) {
        // A field's path in a validation error (`field: 'recurrence.count'`) has that shape too: not an event type.
        for (const match of readFileSync(path, 'utf8').matchAll(/(?<!field: )'([a-z]+\.[a-z_]+)'/g)) {
          // The audit log's actions (`webhook.created`) have the same shape; they are listed apart.
          if (!(AUDIT_ACTIONS as readonly string[]).includes(match[1]!)) found.push({ type: match[1]!, context, path });
        }
      }
    }
  }
  return found;
}

/** Each context owns the names of the changes it announces, as it owns its error codes and scopes. */
describe('event types declared by the contexts that record them', () => {
  it('every event type written in a context is declared, by that context', () => {
    const written = writtenTypes();
    expect(new Set(written.map((w) => w.type)).size).toBeGreaterThanOrEqual(18);
    const declared = declaredEventTypes();
    const undeclared = written.filter((w) => declared.get(w.type)?.context !== w.context).map((w) => `${w.type} (${w.path})`);
    expect(undeclared).toEqual([]);
  });

  it('every declared event type is recorded by its context (none is declared for nothing)', () => {
    const written = new Set(writtenTypes().map((w) => `${w.context} ${w.type}`));
    const unused = [...declaredEventTypes()].filter(([type, { context }]) => !written.has(`${context} ${type}`)).map(([type]) => type);
    expect(unused).toEqual([]);
  });

  it('lists them in a stable order: by the scope that reads them, then by context', () => {
    expect(eventTypes()).toEqual([
      'booking.created',
      'booking.updated',
      'booking.confirmed',
      'booking.cancelled',
      'booking.completed',
      'booking.no_show',
      'event.created',
      'event.updated',
      'event.deleted',
      'registration.created',
      'registration.cancelled',
      'registration.promoted',
      'post.created',
      'post.updated',
      'post.published',
      'post.deleted',
      'calendar.synced',
      'webhook.ping',
    ]);
  });
});

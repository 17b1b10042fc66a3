import { createHash } from 'node:crypto';

/** The name an erased person's records keep. */
export const ERASED_NAME = 'Erased';

/** Names shorter than this are not searched for in stored payloads: they would match inside other words. */
const MIN_NAME_LENGTH = 2;

/** The erasure of one e-mail address: what its records and stored payloads become. */
export interface PersonErasure {
  /** The address, lowercased: records match it case-insensitively. */
  readonly address: string;
  /** The SHA-256 of the lowercased address, in hex: what the audit log keeps instead of the address. */
  readonly hash: string;
  /** `erased-{first 12 hex of the hash}@invalid`: the e-mail the records keep (the same for every erasure of this address). */
  readonly replacementEmail: string;
}

export function personErasure(email: string): PersonErasure {
  const address = email.toLowerCase();
  const hash = createHash('sha256').update(address).digest('hex');
  return { address, hash, replacementEmail: `erased-${hash.slice(0, 12)}@invalid` };
}

/**
 * What one context erased: its records of the person (each with the name it held) and the erased
 * values of the fields its payloads carry for them (the resource as its GET shows it, e.g.
 * `{attendee_name: 'Erased', attendee_phone: null}`), so stored copies of those payloads can be
 * scrubbed the same way without knowing whose they are.
 */
export interface ErasedRecords {
  readonly records: ReadonlyArray<{ readonly id: string; readonly name: string }>;
  readonly fields: Readonly<Record<string, unknown>>;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A stored copy of JSON (an outbox event's data, a stored answer) with the erased person taken
 * out, or null when it holds nothing of theirs:
 * - the address, anywhere in any string, case-insensitively, becomes the replacement e-mail;
 * - an object that is one of the erased records (its `id` is theirs) gets the erased values of the
 *   fields it has;
 * - the names those records held are replaced, anywhere in a string, only within a payload that
 *   holds one of those records (or that `concernsRecords`, e.g. a receiver's answer to an event of
 *   theirs): a name alone says nothing of whose it is, and another person of the same name elsewhere
 *   must keep theirs.
 */
export function scrubPayload(value: unknown, erasure: PersonErasure, erased: readonly ErasedRecords[], concernsRecords = false): unknown {
  const fieldsById = new Map<string, Readonly<Record<string, unknown>>>();
  const names = new Set<string>();
  for (const group of erased) {
    for (const record of group.records) {
      fieldsById.set(record.id, group.fields);
      if (record.name.length >= MIN_NAME_LENGTH) names.add(record.name);
    }
  }
  const holdsRecord = (node: unknown): boolean =>
    Array.isArray(node)
      ? node.some(holdsRecord)
      : node !== null && typeof node === 'object'
        ? (typeof (node as { id?: unknown }).id === 'string' && fieldsById.has((node as { id: string }).id)) || Object.values(node).some(holdsRecord)
        : false;
  const patterns = [new RegExp(escapeRegExp(erasure.address), 'gi')];
  const replacements = [erasure.replacementEmail];
  if (concernsRecords || holdsRecord(value)) {
    // Longest first, so "Ada Lovelace" goes before "Ada" could cut it in two.
    for (const name of [...names].sort((a, b) => b.length - a.length)) {
      patterns.push(new RegExp(escapeRegExp(name), 'gi'));
      replacements.push(ERASED_NAME);
    }
  }
  let changed = false;
  const walk = (node: unknown): unknown => {
    if (typeof node === 'string') {
      let text = node;
      patterns.forEach((pattern, i) => (text = text.replace(pattern, replacements[i]!)));
      if (text !== node) changed = true;
      return text;
    }
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    const copy: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) copy[key] = walk(child);
    const id = (node as { id?: unknown }).id;
    const fields = typeof id === 'string' ? fieldsById.get(id) : undefined;
    for (const [key, erasedValue] of Object.entries(fields ?? {})) {
      if (key in copy && copy[key] !== erasedValue) {
        copy[key] = erasedValue;
        changed = true;
      }
    }
    return copy;
  };
  const scrubbed = walk(value);
  return changed ? scrubbed : null;
}

/** `scrubPayload` for a text that may be JSON (a stored answer) or not (a receiver's answer, cut at 1 KiB): the same rules on the text itself when it is not. */
export function scrubText(text: string, erasure: PersonErasure, erased: readonly ErasedRecords[], concernsRecords = false): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (parsed !== undefined && typeof parsed === 'object' && parsed !== null) {
    const scrubbed = scrubPayload(parsed, erasure, erased, concernsRecords);
    return scrubbed === null ? null : JSON.stringify(scrubbed);
  }
  // Not a JSON document (plain text, a JSON answer cut at 1 KiB): the same rules on the text itself.
  const scrubbed = scrubPayload(text, erasure, erased, concernsRecords);
  return scrubbed === null ? null : (scrubbed as string);
}

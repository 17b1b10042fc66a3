export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const SLUG_MAX_LENGTH = 100;

/** A URL-friendly slug from free text: accents stripped, anything else non-alphanumeric becomes `-`. */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX_LENGTH)
    .replace(/-+$/g, '');
  return slug || 'item';
}

/**
 * The first free slug among `base`, `base-2`, `base-3`… given the slugs already taken that start
 * with `base` (one query: `WHERE slug = $1 OR slug LIKE $1 || '-%'`).
 */
export function firstFreeSlug(base: string, taken: Iterable<string>): string {
  const used = new Set(taken);
  if (!used.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `-${n}`;
    const candidate = base.slice(0, SLUG_MAX_LENGTH - suffix.length).replace(/-+$/g, '') + suffix;
    if (!used.has(candidate)) return candidate;
  }
}

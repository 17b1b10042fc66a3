import { fieldTable } from '@almanac/shared';
import { POST_FIELDS } from '../domain/post';

/**
 * `posts`. A post is read with its category (`c`) and author (`u`) joined (post-queries.ts), and its
 * tags by their links: those three are read, never written (the ids are).
 */
export const POST_TABLE = fieldTable('posts', POST_FIELDS, {
  category: {
    readOnly: true,
    read: () => `CASE WHEN c.id IS NULL THEN NULL ELSE json_build_object('id', c.id, 'name', c.name, 'slug', c.slug) END`,
  },
  author: {
    readOnly: true,
    read: () => `CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object('id', u.id, 'name', u.name) END`,
  },
  tags: {
    readOnly: true,
    read: (_column, alias = 'posts') => `COALESCE((
      SELECT json_agg(json_build_object('id', t.id, 'name', t.name, 'slug', t.slug) ORDER BY t.name, t.id)
      FROM post_tags t
      WHERE t.id = ANY (ARRAY(SELECT l.tag_id FROM post_tag_links l WHERE l.post_id = ${alias}.id))
    ), '[]'::json)`,
  },
});

import type { OpenAPIObject } from '@nestjs/swagger';
import { PUBLIC_API_PREFIX } from './public-api';

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
const problemContent = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

const CORS_HEADERS: Record<string, Json> = {
  'Access-Control-Allow-Origin': {
    description: 'Every answer under /public/v1, errors included, may be read by a page of any origin (never with credentials)',
    required: true,
    schema: { type: 'string', const: '*' },
  },
  'Access-Control-Expose-Headers': {
    description: 'The headers such a page may read besides the CORS-safelisted ones (ETag, Retry-After, X-Request-Id, …)',
    schema: { type: 'string' },
  },
};

const SURFACE_NOTE =
  ' Routes under `/public/v1` take no key (what opens them is in the address), answer every origin with ' +
  '`Access-Control-Allow-Origin: *` (errors included, never credentials; `OPTIONS` on any of their paths answers 204 ' +
  'allowing GET and POST with `content-type`), and share one limit per client address: at most ' +
  '`PUBLIC_RATE_LIMIT_PER_MINUTE` requests (default 120) in any 60 seconds, counted across every instance; past it, ' +
  '429 `rate_limited` with Retry-After.';

/**
 * What every operation under `/public/v1` shares, stated once here rather than on each controller,
 * so a new public route is documented as it behaves: the 429 of the per-address limit (its
 * Retry-After comes with every 429) and the CORS headers on every answer. Runs after the answers
 * every operation shares are written, so that they carry the CORS headers too.
 */
export function documentPublicApi(document: OpenAPIObject): void {
  let any = false;
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!path.startsWith(`${PUBLIC_API_PREFIX}/`)) continue;
    for (const method of METHODS) {
      const operation = (item as Record<string, Json | undefined>)[method];
      if (!operation) continue;
      any = true;
      const responses = (operation['responses'] ??= {}) as Record<string, Json>;
      responses['429'] ??= {
        description: 'More than `PUBLIC_RATE_LIMIT_PER_MINUTE` requests from this client address to /public/v1 in 60 seconds (`rate_limited`); see Retry-After',
        content: problemContent,
      };
      const retryAfter = ((responses['429']['headers'] ??= {}) as Json);
      retryAfter['Retry-After'] = { description: 'Whole seconds until a request from this client would pass', schema: { type: 'integer', minimum: 1 } };
      for (const response of Object.values(responses)) {
        if ('$ref' in response) continue;
        Object.assign((response['headers'] ??= {}) as Json, CORS_HEADERS);
      }
    }
  }
  if (any && document.info) document.info.description = `${document.info.description ?? ''}${SURFACE_NOTE}`;
}

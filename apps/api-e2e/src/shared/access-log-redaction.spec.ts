import { redactSecretsInUrl } from '../../../api/src/bootstrap';

/** The access log never keeps a secret that opens an address: preview tokens, feed tokens, publishable keys in a query. */
describe('access log redaction', () => {
  it.each([
    ['/public/v1/previews/3kTMd9vQx2LpZs8NbR4cWy7Hf1JgA6Ue', '/public/v1/previews/[redacted]'],
    ['/public/v1/previews/3kTMd9vQx2LpZs8NbR4cWy7Hf1JgA6Ue?x=1', '/public/v1/previews/[redacted]?x=1'],
    ['/public/v1/posts.atom?key=alm_pub_3kTMd9vQx2LpZs8NbR4cWy7Hf1JgA6Ue', '/public/v1/posts.atom?key=[redacted]'],
    ['/public/v1/posts.atom?a=1&key=alm_pub_x&b=2', '/public/v1/posts.atom?a=1&key=[redacted]&b=2'],
    ['/calendar/3kTMd9vQx2LpZs8NbR4cWy7Hf1JgA6Ue.ics', '/calendar/[redacted].ics'],
    ['/api/v1/posts?limit=5', '/api/v1/posts?limit=5'],
    ['/api/v1/posts?monkey=1', '/api/v1/posts?monkey=1'],
  ])('logs %s as %s', (url, logged) => {
    expect(redactSecretsInUrl(url)).toBe(logged);
  });
});

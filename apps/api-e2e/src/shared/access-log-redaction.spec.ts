import { redactSecretsInUrl } from '../../../api/src/bootstrap';

const TOKEN = '3kTMd9vQx2LpZs8NbR4cWy7Hf1JgA6Ue';

/**
 * The access log never keeps a secret that opens an address: preview tokens (and the token of any
 * `/public/v1/<collection>/{token}` route), feed tokens, publishable keys in a query; in every
 * spelling that reaches the same handler (routes ignore case, Node takes absolute-form targets, the
 * query parser decodes names).
 */
describe('access log redaction', () => {
  it.each([
    [`/public/v1/previews/${TOKEN}`, '/public/v1/previews/[redacted]'],
    [`/public/v1/previews/${TOKEN}?x=1`, '/public/v1/previews/[redacted]?x=1'],
    [`/public/v1/previews/${TOKEN}/`, '/public/v1/previews/[redacted]/'],
    [`/PUBLIC/V1/PREVIEWS/${TOKEN}`, '/PUBLIC/V1/PREVIEWS/[redacted]'],
    [`http://localhost:3000/public/v1/previews/${TOKEN}`, 'http://localhost:3000/public/v1/previews/[redacted]'],
    [`HTTP://x/Public/v1/previews/${TOKEN}#frag`, 'HTTP://x/Public/v1/previews/[redacted]#frag'],
    [`/public/v1/previews/%41${TOKEN}`, '/public/v1/previews/[redacted]'],
    [`/public/v1/bookings/bkt_${TOKEN}`, '/public/v1/bookings/[redacted]'],
    [`/public/v1/bookings/bkt_${TOKEN}/cancel`, '/public/v1/bookings/[redacted]/cancel'],
    [`/public/v1/bookings/bkt_${TOKEN}/slots?start=2026-11-21&end=2026-11-22`, '/public/v1/bookings/[redacted]/slots?start=2026-11-21&end=2026-11-22'],
    [`/Public/V1/Bookings/bkt_${TOKEN}/reschedule`, '/Public/V1/Bookings/[redacted]/reschedule'],
    [`/public/v1/posts.atom?key=alm_pub_${TOKEN}`, '/public/v1/posts.atom?key=[redacted]'],
    ['/public/v1/posts.atom?a=1&key=alm_pub_x&b=2', '/public/v1/posts.atom?a=1&key=[redacted]&b=2'],
    [`/public/v1/posts.atom?%6Bey=alm_pub_${TOKEN}`, '/public/v1/posts.atom?%6Bey=[redacted]'],
    [`/public/v1/posts.atom?KEY=alm_pub_${TOKEN}&k%65y=x`, '/public/v1/posts.atom?KEY=[redacted]&k%65y=[redacted]'],
    [`/public/v1/posts.atom?key[]=alm_pub_${TOKEN}`, '/public/v1/posts.atom?key[]=[redacted]'],
    [`/public/v1/posts.atom?key=alm_pub_${TOKEN}#x`, '/public/v1/posts.atom?key=[redacted]#x'],
    [`/calendar/${TOKEN}.ics`, '/calendar/[redacted].ics'],
    [`/CALENDAR/${TOKEN}.ICS`, '/CALENDAR/[redacted].ICS'],
    [`http://h/calendar/%41${TOKEN}.ics?x=1`, 'http://h/calendar/[redacted].ics?x=1'],
    [`/calendar/${TOKEN}`, '/calendar/[redacted]'],
    ['/public/v1/posts.atom', '/public/v1/posts.atom'],
    ['/api/v1/posts?limit=5', '/api/v1/posts?limit=5'],
    ['/api/v1/posts?monkey=1&keys=2&%ZZ=3', '/api/v1/posts?monkey=1&keys=2&%ZZ=3'],
    ['/api/v1/bookings/0194a7a0-0000-7000-8000-0000000000cc', '/api/v1/bookings/0194a7a0-0000-7000-8000-0000000000cc'],
  ])('logs %s as %s', (url, logged) => {
    expect(redactSecretsInUrl(url)).toBe(logged);
  });
});

import { redactedUrl } from './redacted-url';

const TOKEN = '3kTMd9vQx2LpZs8NbR4cWy7Hf1JgA6Ue';

describe('redactedUrl', () => {
  it.each([
    ['/calendar/Ab3dEf.ics', '/calendar/[redacted].ics'],
    ['/calendar/Ab3dEf', '/calendar/[redacted]'],
    ['/CALENDAR/Ab3dEf.ics?x=1#f', '/CALENDAR/[redacted].ics?x=1#f'],
    ['http://almanac.example/calendar/Ab3dEf.ics', 'http://almanac.example/calendar/[redacted].ics'],
    ['/public/v1/bookings/bkt_secret', '/public/v1/bookings/[redacted]'],
    ['/public/v1/bookings/bkt_secret/reschedule?start=2031-01-01', '/public/v1/bookings/[redacted]/reschedule?start=2031-01-01'],
    ['/Public/V1/previews/tok', '/Public/V1/previews/[redacted]'],
    ['/public/v1/posts.atom?key=pk_secret&lang=en', '/public/v1/posts.atom?key=[redacted]&lang=en'],
    ['/api/v1/things?a=1&token=t0k&KEY=k', '/api/v1/things?a=1&token=[redacted]&KEY=[redacted]'],
    ['/public/v1/previews/3kTMd9vQx2LpZs8NbR4cWy7Hf1JgA6Ue?x=1', '/public/v1/previews/[redacted]?x=1'],
    ['/public/v1/posts.atom?key=alm_pub_3kTMd9vQx2LpZs8NbR4cWy7Hf1JgA6Ue', '/public/v1/posts.atom?key=[redacted]'],
    ['/public/v1/posts.atom?a=1&key=alm_pub_x&b=2', '/public/v1/posts.atom?a=1&key=[redacted]&b=2'],
    // Every spelling that reaches the same handler: routes ignore case, Node takes absolute-form
    // targets, the query parser decodes names.
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
  ])('%s → %s', (url, logged) => {
    expect(redactedUrl(url)).toBe(logged);
  });

  it('leaves every other URL as it is', () => {
    for (const url of ['/api/v1/bookings/0192f0e0-0000-7000-8000-000000000000', '/calendar', '/public/v1/posts.atom', '/api/v1/slots?keys=1&monkey=2', '/api/v1/posts?limit=5', '/health/ready', '*']) {
      expect(redactedUrl(url)).toBe(url);
    }
  });
});

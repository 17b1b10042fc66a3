import { redactedUrl } from './redacted-url';

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
  ])('%s → %s', (url, logged) => {
    expect(redactedUrl(url)).toBe(logged);
  });

  it('leaves every other URL as it is', () => {
    for (const url of ['/api/v1/bookings/0192f0e0-0000-7000-8000-000000000000', '/calendar', '/public/v1/posts.atom', '/api/v1/slots?keys=1&monkey=2', '/api/v1/posts?limit=5', '/health/ready', '*']) {
      expect(redactedUrl(url)).toBe(url);
    }
  });
});

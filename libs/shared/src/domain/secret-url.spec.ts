import { maskSecretUrl } from './secret-url';

describe('maskSecretUrl', () => {
  it.each([
    ['https://user:pass@hooks.example.com/hooks/almanac?token=abc', 'https://hooks.example.com/hooks/a…?…'],
    ['https://calendar.example.com/secret-token-123/basic.ics', 'https://calendar.example.com/secret-…'],
    ['http://127.0.0.1:8080/hook', 'http://127.0.0.1:8080/hook'],
    ['https://example.com/?key=1#fragment', 'https://example.com/?…'],
    ['https://:token@example.com', 'https://example.com/'],
    ['not a url', '…'],
  ])('%s → %s', (url, masked) => expect(maskSecretUrl(url)).toBe(masked));
});

import { chainIdFromPath, routeTemplate } from '../../src/errorTracking/requestTags';
import { scrubEvent } from '../../src/errorTracking/scrubEvent';

describe('scrubEvent', () => {
  const secrets = ['sk_live_123456', 'jobs-secret'];

  it('replaces secret values anywhere in the event, including inside longer strings', () => {
    const event = {
      exception: { values: [{ value: 'GET https://x/api?key=sk_live_123456 failed' }] },
      extra: { nested: ['Bearer jobs-secret', { deeper: 'jobs-secret!' }] },
    };
    expect(scrubEvent(event, secrets)).toEqual({
      exception: { values: [{ value: 'GET https://x/api?key=[redacted] failed' }] },
      extra: { nested: ['Bearer [redacted]', { deeper: '[redacted]!' }] },
    });
  });

  it('drops credential headers, cookies and query strings from request data', () => {
    const event = {
      request: {
        url: 'http://svc/check-wallet?address=0xabc',
        query_string: 'address=0xabc',
        cookies: { session: 's' },
        headers: { Authorization: 'Bearer x', 'X-Api-Key': 'k', 'x-access-key': 'a', accept: 'application/json' },
      },
    };
    expect(scrubEvent(event, [])).toEqual({
      request: {
        url: 'http://svc/check-wallet',
        headers: {
          Authorization: '[redacted]',
          'X-Api-Key': '[redacted]',
          'x-access-key': '[redacted]',
          accept: 'application/json',
        },
      },
    });
  });

  it('leaves events without secrets unchanged', () => {
    const event = { message: 'plain', tags: { route: '/pools/:chainId' } };
    expect(scrubEvent(event, secrets)).toEqual(event);
  });
});

describe('request tags', () => {
  it('names the matched route and reads the chain id from its :chainId segment', () => {
    const route = routeTemplate('', '/pools/:chainId/:id');
    expect(route).toBe('/pools/:chainId/:id');
    expect(chainIdFromPath(route, '/pools/137/0xabc')).toBe(137);
    expect(chainIdFromPath('/tokens/update', '/tokens/update/')).toBeUndefined();
    expect(chainIdFromPath('/sor/:chainId', '/sor/mainnet')).toBeUndefined();
    expect(chainIdFromPath('/sor/:chainId', '/sor/10/')).toBe(10);
  });

  it('reports unmatched requests as such instead of their raw path', () => {
    expect(routeTemplate('', undefined)).toBe('(unmatched)');
    expect(routeTemplate('', ['/tokens/update', '/tokens/update/'])).toBe('/tokens/update');
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_HUB_URL, hubEndpoint } from '../../src/runtime/hub';

describe('the hub address (a mirror, or $HF_ENDPOINT)', () => {
  it('defaults to the hub, adds the trailing slash, and keeps a sub-path', () => {
    expect(hubEndpoint(undefined)).toBe(DEFAULT_HUB_URL);
    expect(hubEndpoint('  ')).toBe(DEFAULT_HUB_URL);
    expect(hubEndpoint('https://hf-mirror.example.org')).toBe('https://hf-mirror.example.org/');
    expect(hubEndpoint('http://127.0.0.1:8080/hub/')).toBe('http://127.0.0.1:8080/hub/');
  });
  it('refuses what is not a plain http(s) address', () => {
    for (const bad of [
      'javascript:alert(1)',
      'file:///etc/passwd',
      'ftp://x.org/',
      'not a url',
      'https://user:pw@x.org/',
      'https://x.org/?a=1',
      'https://x.org/#f',
    ])
      expect(hubEndpoint(bad), bad).toBeNull();
  });
});

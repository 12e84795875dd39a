/** The Hugging Face hub's address, or a mirror's. */
export const DEFAULT_HUB_URL = 'https://huggingface.co/';

/**
 * The hub base URL as transformers.js wants it (with a trailing slash), from a user's setting or $HF_ENDPOINT; null
 * when it is not an http(s) URL (a page setting is untrusted text).
 */
export function hubEndpoint(endpoint: string | undefined | null): string | null {
  const text = endpoint?.trim();
  if (!text) return DEFAULT_HUB_URL;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.search || url.hash || url.username || url.password) return null;
  return url.href.endsWith('/') ? url.href : `${url.href}/`;
}

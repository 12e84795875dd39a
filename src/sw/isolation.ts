/**
 * The response as a cross-origin-isolated page needs it: COOP and COEP (for the page and its workers), and CORP (so
 * that a page with COEP may use it). Opaque responses (cross-origin, no CORS) cannot be rewritten and pass as they are.
 */
export function withIsolationHeaders(response: Response): Response {
  if (response.type === 'opaque' || response.type === 'opaqueredirect' || response.status === 0) return response;
  const headers = new Headers(response.headers);
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
  headers.set('Cross-Origin-Resource-Policy', 'same-origin');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

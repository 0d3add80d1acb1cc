/**
 * Where to go after signing in: a path of this site only (`/…`, never `//host` or a URL), so a
 * crafted `?next=` cannot send the user elsewhere.
 */
export function safeNext(next: string | null | undefined, fallback = '/'): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) {
    return fallback;
  }
  return next;
}

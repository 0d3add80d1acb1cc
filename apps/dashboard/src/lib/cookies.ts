/** The control plane's double-submit CSRF cookie (readable by script; the session cookie is not). */
export const CSRF_COOKIE = 'sluice_csrf';

/** A cookie's value from `document.cookie`-formatted text, or undefined. */
export function readCookie(cookies: string, name: string): string | undefined {
  for (const part of cookies.split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

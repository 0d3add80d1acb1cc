import type { FastifyReply } from 'fastify';

export const SESSION_COOKIE = 'sluice_session';
/** Readable by the dashboard's scripts, which echo it in CSRF_HEADER (double submit). */
export const CSRF_COOKIE = 'sluice_csrf';
export const CSRF_HEADER = 'x-csrf-token';

export interface SessionCookies {
  token: string;
  csrfToken: string;
  expiresAt: Date;
}

function baseOptions(secure: boolean) {
  // Lax: sent on top-level navigation to the app, never on cross-site subrequests or forms' POSTs
  return { path: '/', sameSite: 'lax', secure } as const;
}

export function setSessionCookies(
  reply: FastifyReply,
  cookies: SessionCookies,
  secure: boolean,
): void {
  reply.setCookie(SESSION_COOKIE, cookies.token, {
    ...baseOptions(secure),
    httpOnly: true,
    expires: cookies.expiresAt,
  });
  reply.setCookie(CSRF_COOKIE, cookies.csrfToken, {
    ...baseOptions(secure),
    httpOnly: false,
    expires: cookies.expiresAt,
  });
}

export function clearSessionCookies(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { ...baseOptions(secure), httpOnly: true });
  reply.clearCookie(CSRF_COOKIE, { ...baseOptions(secure), httpOnly: false });
}

/** Most bytes of a request body: a check is well under 1 KiB; anything near this is not one. */
export const MAX_BODY_BYTES = 16 * 1024;

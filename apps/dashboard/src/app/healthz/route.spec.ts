import { describe, expect, it } from 'vitest';
import packageJson from '../../../package.json';
import { GET } from './route';

describe('GET /healthz', () => {
  it('answers with the service name and version', async () => {
    const response = GET();

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await response.json()).toEqual({
      status: 'ok',
      service: 'dashboard',
      version: packageJson.version,
    });
  });
});

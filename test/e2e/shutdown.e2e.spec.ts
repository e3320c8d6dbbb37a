import { request } from 'node:http';
import { AddressInfo } from 'node:net';
import { clearRedisPrefix, startTestApp } from '../support/test-app';
import { dropDatabase } from '../../src/database/ensure-database';

describe('graceful shutdown', () => {
  it('should end open event streams so the API stops promptly', async () => {
    const ctx = await startTestApp('shutdown');
    await ctx.app.listen(0, '127.0.0.1');
    const port = (ctx.app.getHttpServer().address() as AddressInfo).port;
    const ended = new Promise<string>((resolve, reject) => {
      const req = request({ port, host: '127.0.0.1', path: '/v1/stats.subscribe' }, (res) => {
        let body = '';
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => resolve(body));
      });
      req.on('error', reject);
      req.end();
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const started = Date.now();
    await ctx.app.close();
    const body = await ended;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(body).toContain('event: stats-snapshot');
    await clearRedisPrefix(ctx.config.redisPrefix);
    await dropDatabase(ctx.config.databaseUrl);
  });
});

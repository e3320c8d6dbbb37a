import express from 'express';
import { IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';
import { PrototypedExpressAdapter } from '../../src/common/http/prototyped-express-adapter';

describe('PrototypedExpressAdapter', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise<void>((resolve) => (server?.listening ? server.close(() => resolve()) : resolve()));
    server = undefined;
  });

  it("should build requests and responses with the app's prototypes before Express sees them, and serve as Express does", async () => {
    const app = express();
    app.get('/ping', (req, res) => {
      res.status(201).json({ method: req.method, path: req.path, host: req.hostname });
    });
    const adapter = new PrototypedExpressAdapter(app);
    adapter.initHttpServer({});
    const served = (server = adapter.getHttpServer() as Server);
    // Runs before Express's own listener: what Node built, before app.handle sets any prototype.
    const born: { request: boolean; response: boolean; nodeTypes: boolean }[] = [];
    served.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
      born.push({
        request: Object.getPrototypeOf(req) === app.request,
        response: Object.getPrototypeOf(res) === app.response,
        nodeTypes: req instanceof IncomingMessage && res instanceof ServerResponse,
      });
    });
    await new Promise<void>((resolve) => served.listen(0, '127.0.0.1', resolve));
    const { port } = served.address() as AddressInfo;

    const answer = await fetch(`http://127.0.0.1:${port}/ping?x=1`);

    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await answer.json()).toEqual({ method: 'GET', path: '/ping', host: '127.0.0.1' });
    expect(born).toEqual([{ request: true, response: true, nodeTypes: true }]);
  });

  it("should leave forceCloseConnections and HTTPS to Nest's own server", () => {
    const adapter = new PrototypedExpressAdapter(express());
    const fallback = jest.spyOn(Object.getPrototypeOf(PrototypedExpressAdapter.prototype), 'initHttpServer');
    adapter.initHttpServer({ forceCloseConnections: true });
    expect(fallback).toHaveBeenCalledTimes(1);
    fallback.mockRestore();
  });
});

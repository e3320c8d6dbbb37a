'use strict';
/**
 * Load generator for test/e2e/event-loop.e2e.spec.ts, run as a child process (fork) so that building and
 * sending multi-megabyte bodies costs the server's event loop nothing: only the server's own work is measured.
 * Commands arrive as IPC messages; each is answered with one message carrying the same `id`.
 *   { cmd: 'build', name, kind, limit }                  builds and keeps a body (a Buffer) under `name`
 *   { cmd: 'send', path, body, token }                   sends one body, answers { status, ms }
 *   { cmd: 'probe', count, path, token }                 sequential bodiless requests, answers { ms: [...] }
 *   { cmd: 'flood', targets, concurrency, durationMs, probe } parallel senders of the `targets` bodies for
 *        `durationMs` while `probe` is requested sequentially; answers { ms: [...], sent, statuses }
 */
const http = require('node:http');
const { randomBytes } = require('node:crypto');

const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
const bodies = new Map();
let port = 0;

function fill(prefix, suffix, limit, unit) {
  const room = limit - Buffer.byteLength(prefix) - Buffer.byteLength(suffix);
  return Buffer.concat([Buffer.from(prefix), Buffer.from(unit.repeat(Math.floor(room / unit.length))), Buffer.from(suffix)]);
}

/** Base64 of `bytes` bytes that start with a PNG signature (judged an image until libvips reads its header). */
function pngish(bytes) {
  const data = randomBytes(bytes);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(data);
  return data.toString('base64');
}

function build(kind, limit, extra) {
  switch (kind) {
    case 'string':
      return fill('{"pad":"', '"}', limit, 'a');
    case 'escapes':
      return fill('{"pad":"', '"}', limit, '\\u00e9');
    case 'array': {
      const items = Array(80000).fill('1').join(',');
      return Buffer.from(`{"pad":[${items}]}`);
    }
    case 'deep': {
      const depth = Math.floor((limit - 1) / 2);
      return Buffer.from('['.repeat(depth) + '1' + ']'.repeat(depth));
    }
    case 'keys': {
      const keys = [];
      for (let i = 0; i < 20000; i++) keys.push(`"k${i}":1`);
      return Buffer.from(`{${keys.join(',')}}`);
    }
    case 'upload-string':
      return fill('{"images":[{"type":"avatar","data":"', '"}]}', limit, 'AAAA');
    case 'upload-escapes':
      return fill('{"images":[{"type":"avatar","data":"', '"}]}', limit, '\\u0041');
    case 'upload-images':
      // One image per type at its type's byte limit: the largest body of valid-looking uploads.
      return Buffer.from(JSON.stringify({ images: extra.map(([type, bytes]) => ({ type, data: pngish(bytes) })) }));
    default:
      throw new Error(`unknown body kind ${kind}`);
  }
}

function post(path, body, token) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const headers = { 'Content-Type': 'application/json', 'Content-Length': body ? body.length : 0 };
    if (token) headers.Authorization = `Bearer ${token}`;
    const request = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers, agent }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6 }));
    });
    request.on('error', (error) => resolve({ status: 0, ms: Number(process.hrtime.bigint() - started) / 1e6, error: String(error) }));
    request.end(body);
  });
}

async function flood({ targets, concurrency, durationMs, probe }) {
  const deadline = Date.now() + durationMs;
  const statuses = {};
  let sent = 0;
  let next = 0;
  const sender = async () => {
    while (Date.now() < deadline) {
      const target = targets[next++ % targets.length];
      const { status } = await post(target.path, bodies.get(target.body), target.token);
      statuses[status] = (statuses[status] ?? 0) + 1;
      sent++;
    }
  };
  const prober = async () => {
    const ms = [];
    // Let the flood get going first.
    await new Promise((resolve) => setTimeout(resolve, 200));
    while (Date.now() < deadline) {
      const answer = await post(probe.path, null, probe.token);
      if (answer.status !== 200) throw new Error(`probe answered ${answer.status}`);
      ms.push(answer.ms);
    }
    return ms;
  };
  const [ms] = await Promise.all([prober(), ...Array.from({ length: concurrency }, sender)]);
  return { ms, sent, statuses };
}

process.on('message', async (message) => {
  const { id, cmd } = message;
  try {
    let result;
    if (cmd === 'port') {
      port = message.port;
      result = {};
    } else if (cmd === 'build') {
      const body = build(message.kind, message.limit, message.extra);
      bodies.set(message.name, body);
      result = { bytes: body.length };
    } else if (cmd === 'send') {
      result = await post(message.path, bodies.get(message.body), message.token);
    } else if (cmd === 'probe') {
      const ms = [];
      for (let i = 0; i < message.count; i++) {
        const answer = await post(message.path, null, message.token);
        if (answer.status !== 200) throw new Error(`probe answered ${answer.status}`);
        ms.push(answer.ms);
      }
      result = { ms };
    } else if (cmd === 'flood') {
      result = await flood(message);
    } else if (cmd === 'exit') {
      process.send({ id, result: {} }, () => process.exit(0));
      return;
    }
    process.send({ id, result });
  } catch (error) {
    process.send({ id, error: String(error && error.stack ? error.stack : error) });
  }
});

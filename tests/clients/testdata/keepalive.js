// Sends a fixed sequence of requests through one keep-alive http.Agent
// socket and prints one JSON array: per request its method, path, status,
// whether the socket was reused, and the response body in base64.
// Usage: node keepalive.js http://127.0.0.1:PORT
'use strict';
const http = require('http');

const base = new URL(process.argv[2]);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

const plan = [
  { method: 'GET', path: '/n/1?a=b' },
  { method: 'POST', path: '/n/2', body: ['hello node'], length: true },
  { method: 'POST', path: '/n/3', body: ['chunk one,', 'chunk two,', 'chunk three'] },
  { method: 'HEAD', path: '/hello' },
  { method: 'GET', path: '/stream?n=10000' },
  { method: 'DELETE', path: '/n/6' },
];

function send(step) {
  return new Promise((resolve, reject) => {
    const headers = {};
    if (step.length) headers['Content-Length'] = Buffer.byteLength(step.body.join(''));
    const req = http.request({
      host: base.hostname, port: base.port, method: step.method, path: step.path, agent, headers,
    }, (res) => {
      const parts = [];
      res.on('data', (d) => parts.push(d));
      res.on('end', () => resolve({
        method: step.method, path: step.path, status: res.statusCode,
        reused: req.reusedSocket, body: Buffer.concat(parts).toString('base64'),
      }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.setTimeout(10000, () => req.destroy(new Error('timeout')));
    for (const piece of step.body || []) req.write(piece);
    req.end();
  });
}

(async () => {
  const out = [];
  for (const step of plan) out.push(await send(step));
  agent.destroy();
  process.stdout.write(JSON.stringify(out));
})().catch((err) => { console.error(err); process.exit(1); });

// WebSocket client for TestWebSocketNode: node wsclient.js ws://host/ws
// Exchanges text, binary, fragmented and 1 MiB messages, a ping and the
// close handshake; prints one line per check and "done" at the end, and
// exits non-zero on the first mismatch.
const WebSocket = require('ws');
const ws = new WebSocket(process.argv[2]);
const big = Buffer.alloc(1 << 20);
for (let i = 0; i < big.length; i++) big[i] = i % 251;
const steps = [
  { name: 'text', send: () => ws.send('hello'), check: (d, bin) => !bin && d.toString() === 'hello' },
  { name: 'binary', send: () => ws.send(Buffer.from([0, 1, 2, 255])), check: (d, bin) => bin && d.equals(Buffer.from([0, 1, 2, 255])) },
  { name: 'fragmented', send: () => { ws.send('frag', { fin: false }); ws.send('ment', { fin: false }); ws.send('ed', { fin: true }); },
    check: (d, bin) => !bin && d.toString() === 'fragmented' },
  { name: '1MiB', send: () => ws.send(big), check: (d, bin) => bin && d.equals(big) },
];
let i = 0;
const fail = (msg) => { console.log('FAIL ' + msg); process.exit(1); };
setTimeout(() => fail('timeout at step ' + i), 10000);
ws.on('error', (e) => fail('error ' + e.message));
ws.on('open', () => steps[0].send());
ws.on('message', (data, isBinary) => {
  const s = steps[i];
  if (!s.check(data, isBinary)) fail(s.name + ': got ' + data.length + ' bytes');
  console.log('ok ' + s.name);
  i++;
  if (i < steps.length) { steps[i].send(); return; }
  ws.ping('p1');
});
ws.on('pong', (data) => {
  if (data.toString() !== 'p1') fail('pong ' + data);
  console.log('ok ping');
  ws.close(1000, 'bye');
});
ws.on('close', (code) => {
  if (code !== 1000) fail('close code ' + code);
  console.log('ok close');
  console.log('done');
  process.exit(0);
});

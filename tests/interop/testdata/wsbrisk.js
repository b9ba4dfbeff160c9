// WebSocket client for TestWebSocketNodeLimits: node wsbrisk.js ws://host/ws
// Against package websocket's echo (4 MiB limit, compression on): checks
// that permessage-deflate is negotiated and a compressible 1 MiB message
// comes back, that a 5 MiB message is refused with Close 1009, and that a
// text message of invalid UTF-8 is refused with Close 1007. Prints one
// line per check and "done"; exits non-zero on the first mismatch.
const WebSocket = require('ws');
const url = process.argv[2];
const fail = (msg) => { console.log('FAIL ' + msg); process.exit(1); };
setTimeout(() => fail('timeout'), 15000);

// expectClose opens a connection, sends what send() sends once open and
// resolves when the server's Close code is the wanted one.
const expectClose = (name, want, send) => new Promise((resolve) => {
  const ws = new WebSocket(url);
  ws.on('error', () => {}); // the server may close while we still send
  ws.on('open', () => send(ws));
  ws.on('message', () => fail(name + ': echoed'));
  ws.on('close', (code) => {
    if (code !== want) fail(name + ': close code ' + code + ', want ' + want);
    console.log('ok ' + name);
    resolve();
  });
});

const compressed = () => new Promise((resolve) => {
  const ws = new WebSocket(url);
  const big = Buffer.from('brisk '.repeat(1 << 18)); // 1.5 MiB, compressible
  ws.on('error', (e) => fail('error ' + e.message));
  ws.on('open', () => {
    if (!/^permessage-deflate/.test(ws.extensions)) fail('extensions ' + JSON.stringify(ws.extensions));
    ws.send(big);
  });
  ws.on('message', (data, isBinary) => {
    if (!isBinary || !data.equals(big)) fail('compressed echo: ' + data.length + ' bytes');
    console.log('ok deflate');
    ws.close(1000);
  });
  ws.on('close', (code) => { if (code !== 1000) fail('close ' + code); resolve(); });
});

(async () => {
  await compressed();
  await expectClose('1009', 1009, (ws) => ws.send(Buffer.alloc(5 << 20), { compress: false }));
  await expectClose('1007', 1007, (ws) => ws.send(Buffer.from([0x68, 0xff]), { binary: false }));
  console.log('done');
  process.exit(0);
})();

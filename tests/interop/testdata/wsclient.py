"""WebSocket client for TestWebSocketPython: python3 wsclient.py ws://host/ws

Python's websockets (Debian's python3-websockets) against package
websocket's echo (4 MiB limit, compression on): permessage-deflate
negotiated; text, binary, fragmented and compressible 1 MiB messages
echoed; a ping answered; the close handshake; a 5 MiB message refused
with Close 1009. Prints one line per check and "done"; exits non-zero on
the first mismatch.
"""
import asyncio
import sys

import websockets


def check(ok, what):
    if not ok:
        print("FAIL " + what)
        sys.exit(1)
    print("ok " + what)


async def main(url):
    async with websockets.connect(url, max_size=None) as ws:
        check(any(e.name == "permessage-deflate" for e in ws.extensions), "deflate")
        await ws.send("hello")
        check(await ws.recv() == "hello", "text")
        await ws.send(bytes([0, 1, 2, 255]))
        check(await ws.recv() == bytes([0, 1, 2, 255]), "binary")
        await ws.send(iter(["frag", "ment", "ed"]))
        check(await ws.recv() == "fragmented", "fragmented")
        big = b"brisk " * (1 << 18)
        await ws.send(big)
        check(await ws.recv() == big, "1MiB")
        pong = await ws.ping(b"p1")
        await asyncio.wait_for(pong, 5)
        check(True, "ping")
        await ws.close(1000, "bye")
        check(ws.close_code == 1000, "close")
    async with websockets.connect(url, max_size=None, compression=None) as ws:
        await ws.send(bytes(5 << 20))
        try:
            await ws.recv()
            check(False, "1009: echoed")
        except websockets.ConnectionClosed as e:
            code = e.rcvd.code if e.rcvd else None
            check(code == 1009, "1009" if code == 1009 else "1009: got %s" % code)
    print("done")


asyncio.run(asyncio.wait_for(main(sys.argv[1]), 15))

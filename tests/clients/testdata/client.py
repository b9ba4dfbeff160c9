"""Sends a fixed sequence of requests on one http.client connection and
prints one JSON array: per request its method, path, status, and the
response body in base64. Usage: python3 client.py HOST PORT"""
import base64
import http.client
import json
import sys


def chunks():
    yield b"py chunk one,"
    yield b"py chunk two"


def main():
    conn = http.client.HTTPConnection(sys.argv[1], int(sys.argv[2]), timeout=10)
    plan = [
        ("GET", "/p/1?q=%20x", None, {}),
        ("POST", "/p/2", b"hello python", {"X-Test": "  padded  "}),
        ("PUT", "/p/3", chunks(), {"Transfer-Encoding": "chunked"}),
        ("HEAD", "/hello", None, {}),
        ("GET", "/big?n=200000", None, {}),
        ("OPTIONS", "*", None, {}),
    ]
    out = []
    for method, path, body, headers in plan:
        conn.request(method, path, body=body, headers=headers,
                     encode_chunked=headers.get("Transfer-Encoding") == "chunked")
        resp = conn.getresponse()
        data = resp.read()
        out.append({"method": method, "path": path, "status": resp.status,
                    "body": base64.b64encode(data).decode()})
    # http.client reconnects silently after a close; a kept-alive
    # connection keeps the same local port throughout.
    out.append({"local_port": conn.sock.getsockname()[1]})
    conn.close()
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Places one order, polls it until it is final, and receives and verifies its callback.

Standard library only (Python 3.8+).

    TOPUP_BASE_URL=http://127.0.0.1:8080/api/v1 TOPUP_API_KEY=tk_... TOPUP_API_SECRET=ts_... \
    TOPUP_CALLBACK_PORT=8787 python3 examples/python/place_order.py

Your callback URL must point at this listener: http://<this host>:8787/callback
(dashboard: Settings; or `npx topup callback-url EMAIL URL`).
"""
import hashlib
import hmac
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def env(name, default=None):
    value = os.environ.get(name, default)
    if not value:
        sys.exit(f"set {name}")
    return value


BASE_URL = env("TOPUP_BASE_URL").rstrip("/")
API_KEY = env("TOPUP_API_KEY")
API_SECRET = env("TOPUP_API_SECRET")
REF_ID = env("TOPUP_REF_ID", f"example-py-{int(time.time() * 1000)}")
PORT = int(env("TOPUP_CALLBACK_PORT", "8787"))
WAIT_SECONDS = int(env("TOPUP_WAIT_SECONDS", "60"))
TOLERANCE_MS = 5 * 60 * 1000


def sign(message: bytes) -> str:
    """Lowercase hex HMAC-SHA256 keyed with the API secret."""
    return hmac.new(API_SECRET.encode(), message, hashlib.sha256).hexdigest()


class ApiError(Exception):
    def __init__(self, status, body):
        self.status, self.code = status, body.get("error", f"HTTP_{status}")
        self.request_id = body.get("request_id")
        super().__init__(f"{self.code} (HTTP {status}, request {self.request_id}): {body.get('message', '')}")


def call(method, path, body=None):
    """One signed request. GET signs the timestamp; POST signs the exact body + timestamp."""
    timestamp = str(int(time.time() * 1000))
    data = None if body is None else json.dumps(body, separators=(",", ":")).encode()
    headers = {
        "X-Api-Key": API_KEY,
        "X-Timestamp": timestamp,
        "X-Signature": sign((data or b"") + timestamp.encode()),
        "Accept": "application/json",
    }
    if data is not None:
        headers["Content-Type"] = "application/json"
    req = urllib.request.Request(BASE_URL + path, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(req, timeout=15) as res:
            return json.loads(res.read())["data"]
    except urllib.error.HTTPError as e:
        try:
            parsed = json.loads(e.read())
        except ValueError:
            parsed = {}
        raise ApiError(e.code, parsed) from None


def verify_callback(raw_body: bytes, headers) -> bool:
    """The spec's check: fresh X-Timestamp, X-Signature = HMAC(body + timestamp), compared in constant time."""
    timestamp = headers.get("X-Timestamp") or ""
    given = (headers.get("X-Signature") or "").lower()
    if not timestamp.isdigit() or not given:
        return False
    if abs(time.time() * 1000 - int(timestamp)) > TOLERANCE_MS:
        return False
    return hmac.compare_digest(sign(raw_body + timestamp.encode()), given)


received = {}
seen_rounds = set()
got_ours = threading.Event()


class CallbackHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if self.path != "/callback" or not verify_callback(raw, self.headers):
            print("callback refused: bad signature or stale timestamp", flush=True)
            self.send_response(401)
            self.end_headers()
            return
        payload = json.loads(raw)
        round_id = self.headers.get("X-Callback-Id")
        first = round_id not in seen_rounds  # delivery is at-least-once: act once per round
        if first:
            seen_rounds.add(round_id)
            print(f"callback verified: ref_id={payload['ref_id']} status={payload['status']} (round {round_id})", flush=True)
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()
        self.wfile.flush()
        # Only now (the 200 has gone out) may the program finish; earlier, the service would retry.
        if first and payload["ref_id"] == REF_ID:
            received.update(payload)
            got_ours.set()

    def log_message(self, *args):
        pass


def main():
    server = ThreadingHTTPServer(("0.0.0.0", PORT), CallbackHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"listening for callbacks on port {PORT} (path /callback)", flush=True)
    try:
        balance = call("GET", "/balance")
        print(f"balance: {balance['balance']} {balance['currency']}", flush=True)

        order = {"ref_id": REF_ID, "product_code": env("TOPUP_PRODUCT_CODE", "FF-100"), "target": env("TOPUP_TARGET", "123456789")}
        if os.environ.get("TOPUP_ZONE"):
            order["zone"] = os.environ["TOPUP_ZONE"]
        # On a network error, retry with the SAME ref_id; a 409 DUPLICATE_REF_ID after such a
        # retry means the first attempt went through: read it with GET /order-status.
        placed = call("POST", "/order", order)
        print(f"order placed: ref_id={placed['ref_id']} order_code={placed['order_code']} price={placed['price']} status={placed['status']}", flush=True)

        deadline = time.time() + WAIT_SECONDS
        query = "/order-status?" + urllib.parse.urlencode({"ref_id": REF_ID})
        while True:
            status = call("GET", query)
            if status["status"] != "processing":
                break
            if time.time() > deadline:
                sys.exit(f"order {REF_ID} still processing after {WAIT_SECONDS} s")
            time.sleep(1)
        extra = f" serial={status['serial_number']}" if status.get("serial_number") else ""
        extra += f" failure_code={status['failure_code']}" if status.get("failure_code") else ""
        print(f"final status: {status['status']}{extra}", flush=True)

        if not got_ours.wait(WAIT_SECONDS):
            sys.exit(f"no callback for {REF_ID} within {WAIT_SECONDS} s")
        print(f"done: order {received['order_code']} {received['status']}, callback verified", flush=True)
    except ApiError as e:
        sys.exit(f"API error {e}")
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()

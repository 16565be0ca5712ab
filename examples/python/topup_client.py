"""
A client for the reseller top-up API v1 in one file, Python 3.8+ standard library only.
Copy it into your project:

    from topup_client import TopupClient, NotFoundError, verify_callback
    topup = TopupClient("https://api.example.com/api/v1", "tk_...", "ts_...")
    order = topup.place_order({"ref_id": "shop-1001", "product_code": "FF-100", "target": "123456789"})
    final = topup.wait_for_final(order["ref_id"])
    for o in topup.iter_orders(status="success"):
        ...

It signs every request over the exact bytes it sends (GET: the timestamp; POST: the body
followed by the timestamp, HMAC-SHA256 with your API secret), reads the envelope
({"success", "data", "meta"} or {"success": false, "error", "message", "request_id"}),
raises one error class per kind (each with `retryable`), retries what is safe (reads, and
POST /order with the very same body, so the same ref_id), pages through lists, and verifies
callbacks (constant-time comparison, 5-minute window). Every result's answer details
(request id, rate limit) are on `client.last_response`.

Run directly, it is also a self-check against a service (what test/examples runs):
    TOPUP_BASE_URL=… TOPUP_API_KEY=… TOPUP_API_SECRET=… python3 topup_client.py demo
    python3 topup_client.py verify BODY_FILE TIMESTAMP SIGNATURE   # needs TOPUP_API_SECRET
"""

import hashlib
import hmac
import json
import os
import random
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

__all__ = [
    "TopupClient", "TopupError", "ApiError", "AuthenticationError", "ValidationError", "NotFoundError",
    "ConflictError", "InsufficientBalanceError", "RateLimitError", "ServerError", "TransportError",
    "CallbackError", "verify_callback", "sign", "FAILURE_CODES",
]

VERSION = "1.0.0"
CALLBACK_TOLERANCE_MS = 5 * 60 * 1000
# An order's failure_code (an open set: show failure_reason for a code not listed).
FAILURE_CODES = (
    "NO_SUPPLIER_AVAILABLE", "PRODUCT_UNAVAILABLE", "SUPPLIER_MAINTENANCE", "SUPPLIER_UNREACHABLE",
    "SUPPLIER_REJECTED", "INVALID_ID", "REGION_LOCK", "PURCHASE_LIMIT", "WDP_LIMIT_LIKELY",
)
FINAL = ("success", "failed", "refunded")


class TopupError(Exception):
    """Base of every error this client raises. `retryable`: may the same request succeed later."""

    retryable = False


class ApiError(TopupError):
    """The service answered with its error envelope. Branch on `code` (or the class), never on the message."""

    kind = "unknown"

    def __init__(self, code, message, status, request_id=None, retry_after=None, rate_limit=None):
        super().__init__("%s: %s%s" % (code, message, " (request %s)" % request_id if request_id else ""))
        self.code = code
        self.api_message = message
        self.status = status
        self.request_id = request_id
        self.retry_after = retry_after  # seconds, on 429
        self.rate_limit = rate_limit


class AuthenticationError(ApiError):
    """INVALID_API_KEY, INVALID_SIGNATURE, TIMESTAMP_EXPIRED, IP_NOT_WHITELISTED, RESELLER_INACTIVE, TOO_MANY_ATTEMPTS."""

    kind = "authentication"


class ValidationError(ApiError):
    """Other 400s (VALIDATION_ERROR, INVALID_ID, REGION_LOCK, …), 411, 413, 415: the request must change."""

    kind = "validation"


class NotFoundError(ApiError):
    """404 PRODUCT_NOT_FOUND (also an unknown ref_id), GAME_NOT_SUPPORTED."""

    kind = "not_found"


class ConflictError(ApiError):
    """409 DUPLICATE_REF_ID, PRICE_NOT_MATCH."""

    kind = "conflict"


class InsufficientBalanceError(ApiError):
    """402 INSUFFICIENT_BALANCE."""

    kind = "insufficient_balance"


class RateLimitError(ApiError):
    """429 RATE_LIMIT_EXCEEDED: wait `retry_after` seconds."""

    kind = "rate_limit"
    retryable = True


class ServerError(ApiError):
    """5xx: 503 ORDER_FAILED_SUPPLIER_GATE, CHECKER_UNAVAILABLE, a proxy's 502. Nothing was done."""

    kind = "server"
    retryable = True


class TransportError(TopupError):
    """No answer (code NETWORK_ERROR or TIMEOUT). For POST /order the outcome is unknown:
    call place_order again with the same ref_id and resume=True, never with a new ref_id."""

    retryable = True

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code


class CallbackError(TopupError):
    """A callback that must be refused: `reason` is missing_headers, timestamp_expired, bad_signature or bad_body."""

    def __init__(self, reason):
        super().__init__(reason)
        self.reason = reason


_AUTH = {"INVALID_API_KEY", "INVALID_SIGNATURE", "TIMESTAMP_EXPIRED", "IP_NOT_WHITELISTED", "RESELLER_INACTIVE", "TOO_MANY_ATTEMPTS"}


def _error_class(status, code):
    if code in _AUTH:
        return AuthenticationError
    if status == 429:
        return RateLimitError
    if status >= 500:
        return ServerError
    return {402: InsufficientBalanceError, 404: NotFoundError, 409: ConflictError}.get(
        status, ValidationError if status in (400, 411, 413, 415, 422) else ApiError)


def sign(secret, timestamp, body=b""):
    """The spec's signature: lowercase hex HMAC-SHA256 over body + timestamp (GET: the timestamp alone)."""
    if isinstance(body, str):
        body = body.encode("utf-8")
    return hmac.new(secret.encode("utf-8"), body + str(timestamp).encode("ascii"), hashlib.sha256).hexdigest()


def verify_callback(raw_body, headers, secret, tolerance_ms=CALLBACK_TOLERANCE_MS, now_ms=None):
    """Checks an order callback on its raw body (bytes, before any JSON parsing) and headers
    (any mapping; names in any case). Returns the parsed payload; raises CallbackError."""
    if isinstance(raw_body, str):
        raw_body = raw_body.encode("utf-8")
    lower = {str(k).lower(): v for k, v in dict(headers).items()}
    timestamp, given = lower.get("x-timestamp") or "", (lower.get("x-signature") or "").lower()
    if not timestamp.isdigit() or not given:
        raise CallbackError("missing_headers")
    now = int(time.time() * 1000) if now_ms is None else now_ms
    if abs(now - int(timestamp)) > tolerance_ms:
        raise CallbackError("timestamp_expired")
    if not hmac.compare_digest(sign(secret, timestamp, raw_body), given):
        raise CallbackError("bad_signature")
    try:
        payload = json.loads(raw_body.decode("utf-8"))
    except ValueError:
        raise CallbackError("bad_body")
    if not isinstance(payload, dict) or not isinstance(payload.get("ref_id"), str):
        raise CallbackError("bad_body")
    return payload


class TopupClient:
    """API v1: one method per endpoint. Each returns the answer's `data` (lists: with `meta`)."""

    def __init__(self, base_url, api_key, api_secret, timeout=15.0, retries=3, user_agent=None):
        if not base_url or not api_key or not api_secret:
            raise ValueError("base_url, api_key and api_secret are required")
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.api_secret = api_secret
        self.timeout = timeout
        self.retries = retries
        own = "topup-client-python/%s" % VERSION
        self.user_agent = "%s %s" % (user_agent, own) if user_agent else own
        # status, request_id, rate_limit ({limit, remaining, reset}) and attempts of the latest answer.
        self.last_response = None

    # ---- endpoints

    def categories(self):
        return self._call("GET", "/categories")

    def products(self, **query):
        return self._call("GET", "/products", query=query, paged=True)

    def place_order(self, order, resume=False):
        """POST /order, retried with the same body on a lost answer or 5xx. A DUPLICATE_REF_ID
        after such a retry (or with resume=True) is the order an earlier attempt created."""
        try:
            return self._call("POST", "/order", body=order, retry=True)
        except ConflictError as e:
            if e.code == "DUPLICATE_REF_ID" and (resume or (self.last_response or {}).get("attempts", 1) > 1):
                existing = self.order_status(order["ref_id"])
                if existing.get("product_code") == order.get("product_code") and existing.get("target_id") == order.get("target"):
                    return dict(existing, recovered=True)
            raise

    def validate(self, request):
        return self._call("POST", "/validation", body=request, retry=True)

    def order_status(self, ref_id):
        return self._call("GET", "/order-status", query={"ref_id": ref_id})

    def orders(self, **query):
        return self._call("GET", "/orders", query=query, paged=True)

    def balance(self):
        return self._call("GET", "/balance")

    def wallet_history(self, **query):
        return self._call("GET", "/wallet-history", query=query, paged=True)

    def callback_log(self, ref_id):
        return self._call("GET", "/callbacks", query={"ref_id": ref_id})

    def resend_callback(self, ref_id):
        return self._call("POST", "/callbacks/resend", body={"ref_id": ref_id}, retry=False)

    def wait_for_final(self, ref_id, interval=1.0, timeout=120.0, rate_share=0.5):
        """Polls GET /order-status until success, failed or refunded. After each poll it waits
        at least reset / (remaining × rate_share) seconds, so polling fits the tier's limit."""
        deadline = time.monotonic() + timeout
        while True:
            order = self.order_status(ref_id)
            if order["status"] in FINAL:
                return order
            gap = interval
            rate = (self.last_response or {}).get("rate_limit")
            if rate:
                budget = int(rate["remaining"] * rate_share)
                gap = max(gap, rate["reset"] / budget if budget >= 1 else rate["reset"] + 0.25)
            if time.monotonic() + gap > deadline:
                raise TransportError("TIMEOUT", "order %s still %s after %s s" % (ref_id, order["status"], timeout))
            time.sleep(gap)

    # ---- paging: every item, page after page (newest first; repeats skipped by id)

    def iter_orders(self, **query):
        return self._iterate(self.orders, "orders", "order_id", query)

    def iter_wallet_history(self, **query):
        return self._iterate(self.wallet_history, "entries", "id", query)

    def iter_products(self, **query):
        return self._iterate(self.products, "products", "code", query)

    def _iterate(self, fetch, key, id_field, query):
        seen = set()
        page = int(query.pop("page", 1))
        query.setdefault("limit", 100)
        while True:
            answer = fetch(page=page, **query)
            for item in answer[key]:
                if item[id_field] not in seen:
                    seen.add(item[id_field])
                    yield item
            if not answer["meta"]["has_more"] or not answer[key]:
                return
            page += 1

    # ---- transport

    def _call(self, method, path, query=None, body=None, paged=False, retry=None):
        query = {k: v for k, v in (query or {}).items() if v is not None}
        url = self.base_url + path + ("?" + urllib.parse.urlencode(query) if query else "")
        # Serialised once: every attempt sends, and signs, these very bytes.
        data = None if body is None else json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        may_retry = method == "GET" if retry is None else retry
        attempt = 0
        while True:
            attempt += 1
            last = attempt > self.retries
            try:
                status, headers, text = self._send(method, url, data)
            except TransportError:
                if may_retry and not last:
                    time.sleep(self._backoff(attempt))
                    continue
                raise
            if status == 429 and not last:
                wait = _retry_after(headers)
                if wait is not None and wait <= 30:
                    time.sleep(wait)
                    continue
            if status >= 500 and may_retry and not last:
                time.sleep(self._backoff(attempt))
                continue
            return self._answer(status, headers, text, attempt, paged)

    def _send(self, method, url, data):
        timestamp = str(int(time.time() * 1000))
        request = urllib.request.Request(url, data=data, method=method, headers={
            "Accept": "application/json",
            "User-Agent": self.user_agent,
            "X-Api-Key": self.api_key,
            "X-Timestamp": timestamp,
            "X-Signature": sign(self.api_secret, timestamp, data or b""),
        })
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as r:
                return r.status, r.headers, r.read().decode("utf-8")
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read().decode("utf-8", "replace")
        except (urllib.error.URLError, OSError) as e:
            reason = getattr(e, "reason", e)
            code = "TIMEOUT" if "timed out" in str(reason) else "NETWORK_ERROR"
            raise TransportError(code, "%s %s: %s" % (method, url, reason))

    def _answer(self, status, headers, text, attempts, paged):
        try:
            envelope = json.loads(text) if text else None
        except ValueError:
            envelope = None
        rate = None
        if headers.get("X-RateLimit-Limit") is not None:
            rate = {k: int(headers.get("X-RateLimit-" + h)) for k, h in (("limit", "Limit"), ("remaining", "Remaining"), ("reset", "Reset"))}
        request_id = (envelope or {}).get("request_id") if isinstance(envelope, dict) else None
        self.last_response = {"status": status, "request_id": request_id or headers.get("X-Request-Id"), "rate_limit": rate, "attempts": attempts}
        if status == 200 and isinstance(envelope, dict) and envelope.get("success") is True:
            return dict(envelope["data"], meta=envelope["meta"]) if paged else envelope["data"]
        if isinstance(envelope, dict) and envelope.get("success") is False and isinstance(envelope.get("error"), str):
            code, message = envelope["error"], str(envelope.get("message", ""))
        else:
            code, message = "HTTP_%d" % status, "unexpected answer: %s" % text[:200]
        raise _error_class(status, code)(code, message, status, self.last_response["request_id"], _retry_after(headers) if status == 429 else None, rate)

    @staticmethod
    def _backoff(attempt):
        step = min(5.0, 0.25 * 2 ** (attempt - 1))
        return step / 2 + random.random() * step / 2


def _retry_after(headers):
    value = (headers.get("Retry-After") or "").strip()
    return int(value) if value.isdigit() else None


# ---- the self-check run by test/examples (and a quick tour of the client)

def _demo():
    env = os.environ
    topup = TopupClient(env["TOPUP_BASE_URL"], env["TOPUP_API_KEY"], env["TOPUP_API_SECRET"], user_agent="topup-demo")
    balance = topup.balance()
    print("balance: %s %s" % (balance["balance"], balance["currency"]))
    print("rate limit: %s" % json.dumps(topup.last_response["rate_limit"], sort_keys=True))
    ref = env.get("TOPUP_REF_ID") or "py-client-%d" % int(time.time() * 1000)
    placed = topup.place_order({"ref_id": ref, "product_code": env.get("TOPUP_PRODUCT_CODE", "FF-100"), "target": env.get("TOPUP_TARGET", "123456789")})
    print("order placed: ref_id=%s order_code=%s request_id=%s" % (placed["ref_id"], placed["order_code"], topup.last_response["request_id"]))
    final = topup.wait_for_final(ref, interval=0.2, timeout=float(env.get("TOPUP_WAIT_SECONDS", "60")))
    print("final status: %s" % final["status"])
    count = sum(1 for _ in topup.iter_orders(limit=int(env.get("TOPUP_PAGE_LIMIT", "100"))))
    print("orders paged: %d" % count)
    print("products paged: %d" % sum(1 for _ in topup.iter_products(limit=3)))
    try:
        topup.order_status("never-placed-" + ref)
    except NotFoundError as e:
        print("typed error: %s %s %s retryable=%s" % (type(e).__name__, e.code, e.status, e.retryable))
    try:
        topup.place_order({"ref_id": ref, "product_code": env.get("TOPUP_PRODUCT_CODE", "FF-100"), "target": "123456789"})
    except ConflictError as e:
        print("typed error: %s %s %s retryable=%s" % (type(e).__name__, e.code, e.status, e.retryable))
    try:
        TopupClient(env["TOPUP_BASE_URL"], env["TOPUP_API_KEY"], "not-the-secret").balance()
    except AuthenticationError as e:
        print("typed error: %s %s %s retryable=%s" % (type(e).__name__, e.code, e.status, e.retryable))


def _verify(body_file, timestamp, signature):
    with open(body_file, "rb") as f:
        raw = f.read()
    try:
        payload = verify_callback(raw, {"X-Timestamp": timestamp, "X-Signature": signature}, os.environ["TOPUP_API_SECRET"])
    except CallbackError as e:
        print("callback refused: %s" % e.reason)
        return 1
    print("callback verified: ref_id=%s status=%s" % (payload["ref_id"], payload["status"]))
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "verify":
        sys.exit(_verify(*sys.argv[2:5]))
    _demo()

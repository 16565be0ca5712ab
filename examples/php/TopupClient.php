<?php
/**
 * A client for the reseller top-up API v1 in one file: PHP 8 with the curl extension, no
 * Composer package. Copy it into your project:
 *
 *   require 'TopupClient.php';
 *   $topup = new Topup\TopupClient('https://api.example.com/api/v1', 'tk_...', 'ts_...');
 *   $order = $topup->placeOrder(['ref_id' => 'shop-1001', 'product_code' => 'FF-100', 'target' => '123456789']);
 *   $final = $topup->waitForFinal($order['ref_id']);
 *   foreach ($topup->iterOrders(['status' => 'success']) as $o) { ... }
 *
 * It signs every request over the exact bytes it sends (GET: the timestamp; POST: the body
 * followed by the timestamp, HMAC-SHA256 with your API secret), reads the envelope, throws
 * one exception class per kind (each with isRetryable()), retries what is safe (reads, and
 * POST /order with the very same body, so the same ref_id), pages through lists, and
 * verifies callbacks (hash_equals, 5-minute window). The latest answer's request id and
 * rate limit are in $client->lastResponse.
 *
 * Run directly, it is also a self-check against a service (what test/examples runs):
 *   TOPUP_BASE_URL=… TOPUP_API_KEY=… TOPUP_API_SECRET=… php TopupClient.php demo
 *   php TopupClient.php verify BODY_FILE TIMESTAMP SIGNATURE     # needs TOPUP_API_SECRET
 */

namespace Topup;

const VERSION = '1.0.0';
const CALLBACK_TOLERANCE_MS = 300000;
/** An order's failure_code (an open set: show failure_reason for a code not listed). */
const FAILURE_CODES = [
    'NO_SUPPLIER_AVAILABLE', 'PRODUCT_UNAVAILABLE', 'SUPPLIER_MAINTENANCE', 'SUPPLIER_UNREACHABLE',
    'SUPPLIER_REJECTED', 'INVALID_ID', 'REGION_LOCK', 'PURCHASE_LIMIT', 'WDP_LIMIT_LIKELY',
];

/** Base of every exception this client throws. */
class TopupException extends \Exception {
    /** May the same request succeed later (the client already retried as far as it may)? */
    public function isRetryable(): bool { return false; }
}

/** The service answered with its error envelope. Branch on $apiCode (or the class), never on the message. */
class ApiException extends TopupException {
    public const KIND = 'unknown';
    public function __construct(
        public readonly string $apiCode,
        public readonly string $apiMessage,
        public readonly int $status,
        public readonly ?string $requestId = null,
        /** Seconds, on 429. */
        public readonly ?int $retryAfter = null,
        public readonly ?array $rateLimit = null,
    ) {
        parent::__construct("$apiCode: $apiMessage" . ($requestId ? " (request $requestId)" : ''), $status);
    }
}
/** INVALID_API_KEY, INVALID_SIGNATURE, TIMESTAMP_EXPIRED, IP_NOT_WHITELISTED, RESELLER_INACTIVE, TOO_MANY_ATTEMPTS. */
class AuthenticationException extends ApiException { public const KIND = 'authentication'; }
/** Other 400s (VALIDATION_ERROR, INVALID_ID, REGION_LOCK, …), 411, 413, 415: the request must change. */
class ValidationException extends ApiException { public const KIND = 'validation'; }
/** 404 PRODUCT_NOT_FOUND (also an unknown ref_id), GAME_NOT_SUPPORTED. */
class NotFoundException extends ApiException { public const KIND = 'not_found'; }
/** 409 DUPLICATE_REF_ID, PRICE_NOT_MATCH. */
class ConflictException extends ApiException { public const KIND = 'conflict'; }
/** 402 INSUFFICIENT_BALANCE. */
class InsufficientBalanceException extends ApiException { public const KIND = 'insufficient_balance'; }
/** 429 RATE_LIMIT_EXCEEDED: wait $retryAfter seconds. */
class RateLimitException extends ApiException {
    public const KIND = 'rate_limit';
    public function isRetryable(): bool { return true; }
}
/** 5xx: 503 ORDER_FAILED_SUPPLIER_GATE, CHECKER_UNAVAILABLE, a proxy's 502. Nothing was done. */
class ServerException extends ApiException {
    public const KIND = 'server';
    public function isRetryable(): bool { return true; }
}
/**
 * No answer (NETWORK_ERROR or TIMEOUT). For POST /order the outcome is unknown: call
 * placeOrder again with the same ref_id and $resume = true, never with a new ref_id.
 */
class TransportException extends TopupException {
    public function __construct(public readonly string $transportCode, string $message) { parent::__construct($message); }
    public function isRetryable(): bool { return true; }
}
/** A callback to refuse: $reason is missing_headers, timestamp_expired, bad_signature or bad_body. */
class CallbackException extends TopupException {
    public function __construct(public readonly string $reason) { parent::__construct($reason); }
}

/** The spec's signature: lowercase hex HMAC-SHA256 over body + timestamp (GET: the timestamp alone). */
function sign(string $secret, string $timestamp, string $body = ''): string {
    return hash_hmac('sha256', $body . $timestamp, $secret);
}

function nowMs(): int { return (int) floor(microtime(true) * 1000); }

/**
 * Checks an order callback on its raw body (php://input, before json_decode) and headers
 * (any array; names in any case). Returns the parsed payload; throws CallbackException.
 */
function verifyCallback(string $rawBody, array $headers, string $secret, int $toleranceMs = CALLBACK_TOLERANCE_MS, ?int $nowMs = null): array {
    $headers = array_change_key_case($headers, CASE_LOWER);
    $timestamp = (string) ($headers['x-timestamp'] ?? '');
    $given = strtolower((string) ($headers['x-signature'] ?? ''));
    if (!ctype_digit($timestamp) || $given === '') throw new CallbackException('missing_headers');
    if (abs(($nowMs ?? nowMs()) - (int) $timestamp) > $toleranceMs) throw new CallbackException('timestamp_expired');
    if (!hash_equals(sign($secret, $timestamp, $rawBody), $given)) throw new CallbackException('bad_signature');
    $payload = json_decode($rawBody, true);
    if (!is_array($payload) || !is_string($payload['ref_id'] ?? null)) throw new CallbackException('bad_body');
    return $payload;
}

/** API v1: one method per endpoint. Each returns the answer's `data` (lists: with `meta`). */
final class TopupClient {
    private const AUTH_CODES = ['INVALID_API_KEY', 'INVALID_SIGNATURE', 'TIMESTAMP_EXPIRED', 'IP_NOT_WHITELISTED', 'RESELLER_INACTIVE', 'TOO_MANY_ATTEMPTS'];
    private const FINAL = ['success', 'failed', 'refunded'];
    private string $userAgent;
    /** status, request_id, rate_limit (['limit', 'remaining', 'reset']) and attempts of the latest answer. */
    public ?array $lastResponse = null;

    public function __construct(
        private string $baseUrl,
        private string $apiKey,
        private string $apiSecret,
        private float $timeout = 15.0,
        private int $retries = 3,
        ?string $userAgent = null,
    ) {
        if ($baseUrl === '' || $apiKey === '' || $apiSecret === '') throw new \InvalidArgumentException('baseUrl, apiKey and apiSecret are required');
        if (!function_exists('curl_init')) throw new \RuntimeException('the curl extension is required (apt-get install php-curl)');
        $this->baseUrl = rtrim($baseUrl, '/');
        $own = 'topup-client-php/' . VERSION;
        $this->userAgent = $userAgent ? "$userAgent $own" : $own;
    }

    // ---- endpoints

    public function categories(): array { return $this->call('GET', '/categories'); }
    public function products(array $query = []): array { return $this->call('GET', '/products', $query, null, true); }
    public function validate(array $request): array { return $this->call('POST', '/validation', [], $request, false, true); }
    public function orderStatus(string $refId): array { return $this->call('GET', '/order-status', ['ref_id' => $refId]); }
    public function orders(array $query = []): array { return $this->call('GET', '/orders', $query, null, true); }
    public function balance(): array { return $this->call('GET', '/balance'); }
    public function walletHistory(array $query = []): array { return $this->call('GET', '/wallet-history', $query, null, true); }
    public function callbackLog(string $refId): array { return $this->call('GET', '/callbacks', ['ref_id' => $refId]); }
    public function resendCallback(string $refId): array { return $this->call('POST', '/callbacks/resend', [], ['ref_id' => $refId], false, false); }

    /**
     * POST /order, retried with the same body on a lost answer or 5xx. A DUPLICATE_REF_ID
     * after such a retry (or with $resume) is the order an earlier attempt created.
     */
    public function placeOrder(array $order, bool $resume = false): array {
        try {
            return $this->call('POST', '/order', [], $order, false, true);
        } catch (ConflictException $e) {
            if ($e->apiCode === 'DUPLICATE_REF_ID' && ($resume || ($this->lastResponse['attempts'] ?? 1) > 1)) {
                $existing = $this->orderStatus($order['ref_id']);
                if ($existing['product_code'] === ($order['product_code'] ?? null) && $existing['target_id'] === ($order['target'] ?? null)) return $existing + ['recovered' => true];
            }
            throw $e;
        }
    }

    /**
     * Polls GET /order-status until success, failed or refunded. After each poll it waits at
     * least reset / (remaining × $rateShare) seconds, so polling fits the tier's limit.
     */
    public function waitForFinal(string $refId, float $interval = 1.0, float $timeout = 120.0, float $rateShare = 0.5): array {
        $deadline = microtime(true) + $timeout;
        while (true) {
            $order = $this->orderStatus($refId);
            if (in_array($order['status'], self::FINAL, true)) return $order;
            $gap = $interval;
            $rate = $this->lastResponse['rate_limit'] ?? null;
            if ($rate) {
                $budget = (int) floor($rate['remaining'] * $rateShare);
                $gap = max($gap, $budget >= 1 ? $rate['reset'] / $budget : $rate['reset'] + 0.25);
            }
            if (microtime(true) + $gap > $deadline) throw new TransportException('TIMEOUT', "order $refId still {$order['status']} after $timeout s");
            usleep((int) ($gap * 1e6));
        }
    }

    // ---- paging: every item, page after page (newest first; repeats skipped by id)

    public function iterOrders(array $query = []): \Generator { return $this->iterate(fn ($q) => $this->orders($q), 'orders', 'order_id', $query); }
    public function iterWalletHistory(array $query = []): \Generator { return $this->iterate(fn ($q) => $this->walletHistory($q), 'entries', 'id', $query); }
    public function iterProducts(array $query = []): \Generator { return $this->iterate(fn ($q) => $this->products($q), 'products', 'code', $query); }

    private function iterate(callable $fetch, string $key, string $idField, array $query): \Generator {
        $seen = [];
        $page = (int) ($query['page'] ?? 1);
        $query['limit'] ??= 100;
        while (true) {
            $answer = $fetch(['page' => $page] + $query);
            foreach ($answer[$key] as $item) {
                if (isset($seen[$item[$idField]])) continue;
                $seen[$item[$idField]] = true;
                yield $item;
            }
            if (!$answer['meta']['has_more'] || !$answer[$key]) return;
            $page++;
        }
    }

    // ---- transport

    private function call(string $method, string $path, array $query = [], ?array $body = null, bool $paged = false, ?bool $retry = null): array {
        $query = array_filter($query, fn ($v) => $v !== null);
        $url = $this->baseUrl . $path . ($query ? '?' . http_build_query($query) : '');
        // Serialised once: every attempt sends, and signs, these very bytes.
        $json = $body === null ? null : json_encode($body, JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE | JSON_THROW_ON_ERROR);
        $mayRetry = $retry ?? ($method === 'GET');
        for ($attempt = 1; ; $attempt++) {
            $last = $attempt > $this->retries;
            try {
                [$status, $headers, $text] = $this->send($method, $url, $json);
            } catch (TransportException $e) {
                if ($mayRetry && !$last) { usleep($this->backoff($attempt)); continue; }
                throw $e;
            }
            if ($status === 429 && !$last) {
                $wait = self::retryAfter($headers);
                if ($wait !== null && $wait <= 30) { sleep($wait); continue; }
            }
            if ($status >= 500 && $mayRetry && !$last) { usleep($this->backoff($attempt)); continue; }
            return $this->answer($status, $headers, $text, $attempt, $paged);
        }
    }

    private function send(string $method, string $url, ?string $json): array {
        $timestamp = (string) nowMs();
        $headerLines = [
            'Accept: application/json',
            'User-Agent: ' . $this->userAgent,
            'X-Api-Key: ' . $this->apiKey,
            'X-Timestamp: ' . $timestamp,
            'X-Signature: ' . sign($this->apiSecret, $timestamp, $json ?? ''),
            'Expect:', // no "100-continue" round trip
        ];
        $ch = curl_init($url);
        $headers = [];
        curl_setopt_array($ch, [
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_TIMEOUT_MS => (int) ($this->timeout * 1000),
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_HEADERFUNCTION => function ($ch, string $line) use (&$headers) {
                $parts = explode(':', $line, 2);
                if (count($parts) === 2) $headers[strtolower(trim($parts[0]))] = trim($parts[1]);
                return strlen($line);
            },
        ]);
        if ($json !== null) {
            $headerLines[] = 'Content-Type: application/json';
            curl_setopt($ch, CURLOPT_POSTFIELDS, $json); // the signed bytes, with their Content-Length
        }
        curl_setopt($ch, CURLOPT_HTTPHEADER, $headerLines);
        $text = curl_exec($ch);
        if ($text === false) {
            $code = curl_errno($ch) === CURLE_OPERATION_TIMEDOUT ? 'TIMEOUT' : 'NETWORK_ERROR';
            $message = "$method $url: " . curl_error($ch);
            curl_close($ch);
            throw new TransportException($code, $message);
        }
        $status = (int) curl_getinfo($ch, CURLINFO_HTTP_CODE);
        curl_close($ch);
        return [$status, $headers, $text];
    }

    private function answer(int $status, array $headers, string $text, int $attempts, bool $paged): array {
        $envelope = json_decode($text, true);
        $rate = isset($headers['x-ratelimit-limit'])
            ? ['limit' => (int) $headers['x-ratelimit-limit'], 'remaining' => (int) ($headers['x-ratelimit-remaining'] ?? 0), 'reset' => (int) ($headers['x-ratelimit-reset'] ?? 0)]
            : null;
        $requestId = (is_array($envelope) ? ($envelope['request_id'] ?? null) : null) ?? ($headers['x-request-id'] ?? null);
        $this->lastResponse = ['status' => $status, 'request_id' => $requestId, 'rate_limit' => $rate, 'attempts' => $attempts];
        if ($status === 200 && is_array($envelope) && ($envelope['success'] ?? null) === true) {
            return $paged ? $envelope['data'] + ['meta' => $envelope['meta']] : $envelope['data'];
        }
        if (is_array($envelope) && ($envelope['success'] ?? null) === false && is_string($envelope['error'] ?? null)) {
            [$code, $message] = [$envelope['error'], (string) ($envelope['message'] ?? '')];
        } else {
            [$code, $message] = ["HTTP_$status", 'unexpected answer: ' . substr($text, 0, 200)];
        }
        $class = match (true) {
            in_array($code, self::AUTH_CODES, true) => AuthenticationException::class,
            $status === 429 => RateLimitException::class,
            $status >= 500 => ServerException::class,
            $status === 402 => InsufficientBalanceException::class,
            $status === 404 => NotFoundException::class,
            $status === 409 => ConflictException::class,
            in_array($status, [400, 411, 413, 415, 422], true) => ValidationException::class,
            default => ApiException::class,
        };
        throw new $class($code, $message, $status, $requestId, $status === 429 ? self::retryAfter($headers) : null, $rate);
    }

    private function backoff(int $attempt): int {
        $step = min(5.0, 0.25 * 2 ** ($attempt - 1));
        return (int) (($step / 2 + mt_rand() / mt_getrandmax() * $step / 2) * 1e6);
    }

    private static function retryAfter(array $headers): ?int {
        $v = trim((string) ($headers['retry-after'] ?? ''));
        return ctype_digit($v) ? (int) $v : null;
    }
}

// ---- the self-check run by test/examples (and a quick tour of the client)

function demo(): void {
    $env = fn (string $n, ?string $d = null) => (getenv($n) !== false && getenv($n) !== '') ? getenv($n) : $d;
    $topup = new TopupClient($env('TOPUP_BASE_URL'), $env('TOPUP_API_KEY'), $env('TOPUP_API_SECRET'), userAgent: 'topup-demo');
    $balance = $topup->balance();
    echo "balance: {$balance['balance']} {$balance['currency']}\n";
    echo 'rate limit: ' . json_encode($topup->lastResponse['rate_limit']) . "\n";
    $ref = $env('TOPUP_REF_ID', 'php-client-' . nowMs());
    $product = $env('TOPUP_PRODUCT_CODE', 'FF-100');
    $placed = $topup->placeOrder(['ref_id' => $ref, 'product_code' => $product, 'target' => $env('TOPUP_TARGET', '123456789')]);
    echo "order placed: ref_id={$placed['ref_id']} order_code={$placed['order_code']} request_id={$topup->lastResponse['request_id']}\n";
    $final = $topup->waitForFinal($ref, 0.2, (float) $env('TOPUP_WAIT_SECONDS', '60'));
    echo "final status: {$final['status']}\n";
    $count = 0;
    foreach ($topup->iterOrders(['limit' => (int) $env('TOPUP_PAGE_LIMIT', '100')]) as $_) $count++;
    echo "orders paged: $count\n";
    $products = 0;
    foreach ($topup->iterProducts(['limit' => 3]) as $_) $products++;
    echo "products paged: $products\n";
    $typed = function (callable $f) {
        try { $f(); } catch (ApiException $e) {
            echo 'typed error: ' . (new \ReflectionClass($e))->getShortName() . " {$e->apiCode} {$e->status} retryable=" . ($e->isRetryable() ? 'True' : 'False') . "\n";
        }
    };
    $typed(fn () => $topup->orderStatus("never-placed-$ref"));
    $typed(fn () => $topup->placeOrder(['ref_id' => $ref, 'product_code' => $product, 'target' => '123456789']));
    $typed(fn () => (new TopupClient($env('TOPUP_BASE_URL'), $env('TOPUP_API_KEY'), 'not-the-secret'))->balance());
}

function verifyFile(string $bodyFile, string $timestamp, string $signature): int {
    try {
        $payload = verifyCallback(file_get_contents($bodyFile), ['X-Timestamp' => $timestamp, 'X-Signature' => $signature], (string) getenv('TOPUP_API_SECRET'));
    } catch (CallbackException $e) {
        echo "callback refused: {$e->reason}\n";
        return 1;
    }
    echo "callback verified: ref_id={$payload['ref_id']} status={$payload['status']}\n";
    return 0;
}

if (PHP_SAPI === 'cli' && realpath($_SERVER['SCRIPT_FILENAME'] ?? '') === __FILE__) {
    if (($argv[1] ?? '') === 'verify') exit(verifyFile($argv[2] ?? '', $argv[3] ?? '', $argv[4] ?? ''));
    demo();
}

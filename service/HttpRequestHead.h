#pragma once

#include <QByteArray>

namespace md {

// What the metrics endpoint makes of the bytes a client sent so far. Pure (no
// socket), so the exporter's request reading can be unit-tested and fuzzed.
struct HttpRequestVerdict {
    enum class Kind {
        Incomplete,       // no end of head yet: wait for more
        TooLarge,         // 431: the head passed maxHead bytes
        Malformed,        // 400: the request line is not "METHOD PATH HTTP/x"
        MethodNotAllowed, // 405: not GET or HEAD
        NotFound,         // 404: a path other than /metrics
        Metrics,          // 200: GET or HEAD /metrics
    };
    Kind kind = Kind::Incomplete;
    bool head = false; // HEAD: answer without a body

    bool operator==(const HttpRequestVerdict &) const = default;
};

// The exporter reads at most this much request head.
inline constexpr qsizetype kMaxHttpRequestHead = 16 * 1024;

// The head ends at the first blank line ("\r\n\r\n", or "\n\n" for hand-typed
// requests); a query string is ignored.
HttpRequestVerdict readHttpRequestHead(const QByteArray &buffer, qsizetype maxHead = kMaxHttpRequestHead);

} // namespace md

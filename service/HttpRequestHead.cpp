#include "service/HttpRequestHead.h"

#include <QList>

#include <algorithm>

namespace md {

HttpRequestVerdict readHttpRequestHead(const QByteArray &buffer, qsizetype maxHead)
{
    using Kind = HttpRequestVerdict::Kind;
    // The first blank line ends the head, whichever spelling comes first: a
    // later "\r\n\r\n" belongs to what was pipelined after it.
    const qsizetype crlf = buffer.indexOf("\r\n\r\n");
    const qsizetype lf = buffer.indexOf("\n\n"); // lenient: hand-typed requests
    const qsizetype end = crlf < 0 ? lf : lf < 0 ? crlf : std::min(crlf, lf);
    // A head longer than the limit is refused whether or not its end has
    // arrived in the same read.
    if (end < 0 ? buffer.size() > maxHead : end > maxHead)
        return {Kind::TooLarge};
    if (end < 0)
        return {Kind::Incomplete};

    const qsizetype lineEnd = buffer.indexOf('\n');
    const QList<QByteArray> parts = buffer.left(lineEnd).trimmed().split(' ');
    if (parts.size() != 3 || !parts[2].startsWith("HTTP/"))
        return {Kind::Malformed};
    const QByteArray &method = parts[0];
    QByteArray path = parts[1];
    if (const qsizetype q = path.indexOf('?'); q >= 0)
        path.truncate(q);
    const bool head = method == "HEAD";
    if (method != "GET" && !head)
        return {Kind::MethodNotAllowed};
    if (path != "/metrics")
        return {Kind::NotFound, head};
    return {Kind::Metrics, head};
}

} // namespace md

// libFuzzer target: the metrics endpoint's request reader. Besides not
// crashing, a verdict must not depend on bytes after the head's end, and a
// head cut short must wait for more (Incomplete) or be refused as too large.
#include "service/HttpRequestHead.h"

#include <QByteArray>

#include <cstdint>
#include <cstdlib>

using namespace md;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    using Kind = HttpRequestVerdict::Kind;
    // A small limit too, so the too-large path is reached with small inputs.
    for (qsizetype limit : {kMaxHttpRequestHead, qsizetype(64)}) {
        const HttpRequestVerdict verdict = readHttpRequestHead(bytes, limit);
        if (verdict.kind == Kind::Incomplete && bytes.size() > limit)
            std::abort(); // would buffer without bound
        if (verdict.kind != Kind::Incomplete && verdict.kind != Kind::TooLarge) {
            // Anything pipelined after the head must not change the answer.
            QByteArray pipelined = bytes;
            pipelined.append("\r\n\r\nGET /x HTTP/1.1\r\n\r\n");
            if (!(readHttpRequestHead(pipelined, limit) == verdict))
                std::abort();
        }
    }
    return 0;
}

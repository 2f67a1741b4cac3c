// libFuzzer target: the message search's JSON path predicate. The first byte
// is the length of the expression (UTF-8), the rest is the document; every
// expression that parses is evaluated on it, then on a few of its prefixes
// (truncated records), and must give the same answer twice.
#include "engine/query/JsonPath.h"

#include <QString>

#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace md;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const size_t exprLen = std::min<size_t>(data[0], size - 1);
    const auto *chars = reinterpret_cast<const char *>(data + 1);
    const QString expr = QString::fromUtf8(chars, qsizetype(exprLen));
    const std::string_view doc(chars + exprLen, size - 1 - exprLen);

    QString error;
    const auto predicate = JsonPredicate::parse(expr, &error);
    if (!predicate) {
        // Every refusal says where.
        if (!error.contains(QStringLiteral(" at column ")))
            std::abort();
        return 0;
    }
    const auto first = predicate->evaluate(doc);
    if (predicate->evaluate(doc) != first)
        std::abort();
    for (size_t cut : {doc.size() / 2, doc.size() / 3, size_t(1)})
        (void)predicate->evaluate(doc.substr(0, std::min(cut, doc.size())));
    return 0;
}

// Evaluations per second of JsonPredicate on a realistic ~200-byte order
// record (message search scans topics with it; the goal is well under 1 us).
//   build-ci/tests/bench/bench_jsonpath [seconds per expression, default 1]
#include "engine/query/JsonPath.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <cstdio>
#include <cstdlib>
#include <string>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
    const std::string doc = R"({"id":"o-88213","ts":1733212800123,"customer":{"id":42,"name":"Ann Lee","tier":"gold"},)"
                            R"("items":[{"sku":"B7","qty":1,"price":20.0},{"sku":"A1","qty":2,"price":9.5}],)"
                            R"("total":39.0,"currency":"EUR","paid":true,"note":null})";
    const char *exprs[] = {"$.customer.id == 42", "$.items[*].sku == \"A1\"", "$.note == 1",
                           "$.customer.tier =~ \"^go\""};
    std::printf("document: %zu bytes\n", doc.size());
    for (const char *text : exprs) {
        QString error;
        const auto p = md::JsonPredicate::parse(QString::fromUtf8(text), &error);
        if (!p) {
            std::fprintf(stderr, "%s: %s\n", text, qPrintable(error));
            return 1;
        }
        QElapsedTimer timer;
        timer.start();
        long long n = 0;
        int matches = 0;
        while (timer.nsecsElapsed() < qint64(seconds * 1e9)) {
            for (int i = 0; i < 10000; ++i)
                matches += p->evaluate(doc) == md::JsonPredicate::Outcome::Match;
            n += 10000;
        }
        const double s = double(timer.nsecsElapsed()) / 1e9;
        std::printf("%-28s %12.0f evaluations/s  %7.1f ns each  (match: %s)\n", text, double(n) / s,
                    s * 1e9 / double(n), matches > 0 ? "yes" : "no");
    }
    return 0;
}

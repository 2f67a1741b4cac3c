// Message search (engine/query/MessageSearch) against the real "source" broker, on
// records written by the test's own librdkafka producer: each filter (JSON
// path with wildcards and &&, contains on the key, regex on the value, a
// header by name, a time range) finds exactly the records the test's own
// predicate selects, no more, no fewer; the match limit stops a forward scan
// early with the first matches in offset order; from the end backwards gives
// the newest matches first and stops early; a cancel ends the search with
// what it had; values that are not JSON are counted; mistakes fail clearly.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "engine/query/MessageSearch.h"

#include <QElapsedTimer>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include <functional>

using namespace md;
using namespace md::test;

namespace {

constexpr int recordCount = 3000;
constexpr int partitions = 3;
constexpr qint64 baseTs = 1700000000000LL;

QByteArray valueOf(int n)
{
    if (n % 250 == 0)
        return QByteArrayLiteral("not json ") + QByteArray::number(n);
    return QStringLiteral(R"({"id":%1,"customer":{"id":%2,"tier":"%3"},"items":[{"sku":"A%4"},{"sku":"B%5"}],)"
                          "\"note\":\"order %1 [see \\\"notes\\\"]\"}")
        .arg(n)
        .arg(n % 100)
        .arg(n % 3 == 0 ? QStringLiteral("gold") : QStringLiteral("basic"))
        .arg(n % 7)
        .arg(n % 5)
        .toUtf8();
}

QByteArray keyOf(int n)
{
    return QByteArrayLiteral("order-") + QByteArray::number(n);
}

TestRecord recordOf(int n)
{
    TestRecord r;
    r.key = keyOf(n);
    r.value = valueOf(n);
    r.partition = n % partitions;
    r.timestamp = baseTs + qint64(n) * 1000;
    if (n % 10 == 0)
        r.headers.append({QStringLiteral("source"), std::nullopt});
    r.headers.append({QStringLiteral("source"), n % 2 ? QByteArray("web") : QByteArray("mobile-app")});
    return r;
}

FilterCondition cond(FilterCondition::Field field, FilterCondition::Match match, const QString &text,
                     const QString &header = {})
{
    FilterCondition c;
    c.field = field;
    c.match = match;
    c.text = text;
    c.header = header;
    return c;
}

int numberOf(const KafkaMessage &m)
{
    return m.key ? m.key->mid(6).toInt() : -1;
}

QSet<int> numbers(const QList<KafkaMessage> &messages)
{
    QSet<int> out;
    for (const KafkaMessage &m : messages)
        out.insert(numberOf(m));
    return out;
}

QSet<int> expected(const std::function<bool(int)> &pick)
{
    QSet<int> out;
    for (int n = 0; n < recordCount; ++n) {
        if (pick(n))
            out.insert(n);
    }
    return out;
}

using F = FilterCondition::Field;
using M = FilterCondition::Match;

} // namespace

class TstMessageSearch final : public QObject {
    Q_OBJECT

    QString m_topic = QStringLiteral("search-orders");

    SearchSpec spec(const MessageFilter &filter, SearchSpec::Start start = SearchSpec::Start::Beginning,
                    int maxMatches = 100000) const
    {
        SearchSpec s;
        s.cluster = clusterConfig(QStringLiteral("source"));
        s.topic = m_topic;
        s.start = start;
        s.filter = filter;
        s.maxMatches = maxMatches;
        s.timeoutMs = 15000;
        return s;
    }

    // Runs a search, collecting every batch the way the job hands them on.
    static SearchResult run(const SearchSpec &s, QList<KafkaMessage> *found, int *batches = nullptr)
    {
        return searchMessages(s, nullptr, [found, batches](const QList<KafkaMessage> &matches, const SearchProgress &) {
            found->append(matches);
            if (batches)
                ++*batches;
        });
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"));
        QString error;
        deleteTopic(sourceBootstrap(), m_topic);
        QVERIFY2(createTopic(sourceBootstrap(), m_topic, partitions, {}, &error), qPrintable(error));
        QList<TestRecord> records;
        for (int n = 0; n < recordCount; ++n)
            records.append(recordOf(n));
        QVERIFY2(produce(sourceBootstrap(), m_topic, records, &error), qPrintable(error));
        // A fresh topic may not answer ListOffsets for a moment (KRaft): wait until a search runs.
        QElapsedTimer t;
        t.start();
        QList<KafkaMessage> found;
        SearchResult r = run(spec({}), &found);
        while (!r.ok() && t.elapsed() < 20000) {
            QTest::qWait(500);
            found.clear();
            r = run(spec({}), &found);
        }
        QVERIFY2(r.ok(), qPrintable(r.error));
    }

    void filtersFindExactlyTheirRecords_data()
    {
        QTest::addColumn<MessageFilter>("filter");
        QTest::addColumn<QSet<int>>("want");
        auto one = [](const FilterCondition &c) {
            MessageFilter f;
            f.conditions = {c};
            return f;
        };
        QTest::newRow("json path ==") << one(cond(F::Value, M::JsonPath, QStringLiteral("$.customer.id == 42")))
                                      << expected([](int n) { return n % 250 != 0 && n % 100 == 42; });
        QTest::newRow("json path wildcard && string")
            << one(cond(F::Value, M::JsonPath,
                        QStringLiteral(R"($.items[*].sku == "A3" && $.customer.tier == "gold")")))
            << expected([](int n) { return n % 250 != 0 && n % 7 == 3 && n % 3 == 0; });
        QTest::newRow("json path range ||")
            << one(cond(F::Value, M::JsonPath, QStringLiteral("$.id < 10 || $.id >= 2990")))
            << expected([](int n) { return n % 250 != 0 && (n < 10 || n >= 2990); });
        QTest::newRow("key contains, any case")
            << one(cond(F::Key, M::Contains, QStringLiteral("ORDER-123")))
            << expected([](int n) { return QByteArray::number(n).startsWith("123"); });
        QTest::newRow("value regex") << one(cond(F::Value, M::Regex, QStringLiteral(R"(^not json \d+5\d$)")))
                                     << expected([](int n) { return n % 250 == 0 && (n / 10) % 10 == 5; });
        QTest::newRow("header by name") << one(cond(F::Header, M::Contains, QStringLiteral("mobile"),
                                                    QStringLiteral("source")))
                                        << expected([](int n) { return n % 2 == 0; });
        MessageFilter range;
        range.fromMs = baseTs + 100 * 1000;
        range.toMs = baseTs + 199 * 1000;
        QTest::newRow("time range, inclusive") << range << expected([](int n) { return n >= 100 && n <= 199; });
        MessageFilter both = one(cond(F::Value, M::JsonPath, QStringLiteral("$.customer.id == 7")));
        both.fromMs = baseTs + 1000 * 1000;
        QTest::newRow("json path and time")
            << both << expected([](int n) { return n >= 1000 && n % 250 != 0 && n % 100 == 7; });
    }

    void filtersFindExactlyTheirRecords()
    {
        QFETCH(MessageFilter, filter);
        QFETCH(QSet<int>, want);
        QVERIFY(!want.isEmpty());
        QList<KafkaMessage> found;
        const SearchResult r = run(spec(filter), &found);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.progress.total, qint64(recordCount));
        QCOMPARE(r.progress.scanned, qint64(recordCount));
        QCOMPARE(r.progress.matched, qint64(found.size()));
        QCOMPARE(found.size(), want.size()); // no record twice
        QCOMPARE(numbers(found), want);
        // Each match is the record as written, headers included.
        for (const KafkaMessage &m : std::as_const(found)) {
            const TestRecord w = recordOf(numberOf(m));
            QCOMPARE(m.value, w.value);
            QCOMPARE(m.partition, w.partition);
            QCOMPARE(m.timestampMs, w.timestamp);
            QCOMPARE(m.headers.size(), w.headers.size());
        }
        QVERIFY(!r.limitReached);
    }

    void valuesThatAreNotJsonAreCounted()
    {
        MessageFilter f;
        f.conditions = {cond(F::Value, M::JsonPath, QStringLiteral("$.id == -1"))};
        QList<KafkaMessage> found;
        const SearchResult r = run(spec(f), &found);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(r.progress.matched, 0);
        QCOMPARE(r.progress.notJson, qint64(recordCount / 250));
        QVERIFY2(r.summary().contains(QLatin1String("12 were not JSON")), qPrintable(r.summary()));
    }

    void theLimitStopsAForwardScanWithTheFirstMatches()
    {
        MessageFilter f;
        f.conditions = {cond(F::Value, M::JsonPath, QStringLiteral("$.customer.tier == \"gold\""))};
        SearchSpec s = spec(f, SearchSpec::Start::Offset, 5);
        s.partition = 0;
        s.offset = 100; // partition 0 holds n = 3 * offset
        QList<KafkaMessage> found;
        const SearchResult r = run(s, &found);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.limitReached);
        QCOMPARE(found.size(), 5);
        // Every n of partition 0 is a multiple of 3 ("gold") except the not-JSON ones.
        QList<qint64> offsets;
        for (const KafkaMessage &m : found)
            offsets.append(m.offset);
        QCOMPARE(offsets, (QList<qint64>{100, 101, 102, 103, 104}));
        QVERIFY2(r.progress.scanned < r.progress.total, "the scan went on after the limit");
        QCOMPARE(r.progress.total, qint64(recordCount / partitions - 100));
        QVERIFY2(r.summary().contains(QLatin1String("match limit")), qPrintable(r.summary()));
    }

    void backwardsGivesTheNewestFirstAndStopsEarly()
    {
        MessageFilter f;
        f.conditions = {cond(F::Header, M::Contains, QStringLiteral("web"), QStringLiteral("source"))};
        SearchSpec s = spec(f, SearchSpec::Start::EndBackwards, 4);
        s.partition = 1;       // n = 3 * offset + 1; "web" when n is odd, i.e. offset even
        s.backwardsChunk = 50; // so that stopping early shows
        QList<KafkaMessage> found;
        const SearchResult r = run(s, &found);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QList<qint64> offsets;
        for (const KafkaMessage &m : found)
            offsets.append(m.offset);
        QCOMPARE(offsets, (QList<qint64>{998, 996, 994, 992}));
        QVERIFY(r.limitReached);
        QCOMPARE(r.progress.scanned, 50);
        QCOMPARE(r.progress.total, qint64(recordCount / partitions));

        // Across chunks and partitions: every match once, newest chunk first.
        SearchSpec all = spec(f, SearchSpec::Start::EndBackwards);
        all.backwardsChunk = 300;
        found.clear();
        const SearchResult r2 = run(all, &found);
        QVERIFY2(r2.ok(), qPrintable(r2.error));
        QCOMPARE(numbers(found), expected([](int n) { return n % 2 == 1; }));
        QCOMPARE(found.size(), recordCount / 2);
        QVERIFY(found.first().timestampMs > found.last().timestampMs);
        for (qsizetype i = 1; i < found.size(); ++i) {
            if (found[i].partition == found[i - 1].partition && found[i].offset > found[i - 1].offset &&
                found[i].offset - found[i - 1].offset < 100)
                QFAIL("a chunk's matches are not newest first");
        }
    }

    void fromATimeStartsThere()
    {
        SearchSpec s = spec({}, SearchSpec::Start::Timestamp);
        s.timestampMs = baseTs + 2900 * 1000;
        QList<KafkaMessage> found;
        const SearchResult r = run(s, &found);
        QVERIFY2(r.ok(), qPrintable(r.error));
        QCOMPARE(numbers(found), expected([](int n) { return n >= 2900; }));
        QCOMPARE(r.progress.total, 100);
    }

    void aCancelEndsTheSearchWithWhatItHad()
    {
        // A topic larger than one fetch batch, so that a cancel at the first report lands mid-way.
        const QString big = QStringLiteral("search-cancel");
        QString error;
        deleteTopic(sourceBootstrap(), big);
        QVERIFY2(createTopic(sourceBootstrap(), big, 1, {}, &error), qPrintable(error));
        QList<TestRecord> records;
        for (int n = 0; n < 60000; ++n) {
            TestRecord rec;
            rec.value = QByteArray::number(n);
            records.append(rec);
        }
        QVERIFY2(produce(sourceBootstrap(), big, records, &error), qPrintable(error));
        MessageFilter never;
        never.conditions = {cond(F::Value, M::Contains, QStringLiteral("no record holds this"))};
        SearchSpec s = spec(never);
        s.topic = big;
        std::atomic_bool cancel = false;
        int calls = 0;
        const SearchResult r = searchMessages(s, &cancel, [&](const QList<KafkaMessage> &, const SearchProgress &) {
            ++calls;
            cancel = true; // at the first report: after the first batch at most
        });
        QVERIFY2(r.ok(), qPrintable(r.error));
        QVERIFY(r.cancelled);
        QVERIFY(calls >= 1);
        QVERIFY2(r.progress.scanned < r.progress.total, qPrintable(r.summary()));
        QVERIFY2(r.summary().startsWith(QLatin1String("cancelled")), qPrintable(r.summary()));

        // The job: matches and the result arrive as signals; cancel answers promptly.
        MessageFilter all;
        MessageSearchJob job(spec(all));
        QSignalSpy batches(&job, &MessageSearchJob::matchesFound);
        QSignalSpy finished(&job, &MessageSearchJob::finished);
        job.start();
        QVERIFY(job.isRunning());
        QVERIFY(finished.wait(20000));
        const auto result = finished.first().first().value<SearchResult>();
        QVERIFY2(result.ok(), qPrintable(result.error));
        qint64 streamed = 0;
        for (const QList<QVariant> &b : batches)
            streamed += b.first().value<QList<KafkaMessage>>().size();
        QCOMPARE(streamed, qint64(recordCount));
        QVERIFY2(batches.size() < 100, "one signal per record or close to it");
        QVERIFY(!job.isRunning());
    }

    void mistakesFailClearly()
    {
        SearchSpec missing = spec({});
        missing.topic = QStringLiteral("search-no-such-topic");
        SearchResult r = searchMessages(missing);
        QVERIFY(!r.ok());
        QVERIFY2(r.error.contains(QLatin1String("search-no-such-topic")) &&
                     r.error.contains(QLatin1String("does not exist")),
                 qPrintable(r.error));

        SearchSpec partition = spec({});
        partition.partition = 7;
        r = searchMessages(partition);
        QVERIFY2(r.error.contains(QLatin1String("no partition 7")), qPrintable(r.error));

        MessageFilter bad;
        bad.conditions = {cond(F::Value, M::JsonPath, QStringLiteral("$.customer[ == 1"))};
        r = searchMessages(spec(bad));
        QVERIFY2(r.error.contains(QLatin1String("JSON path")) && r.error.contains(QLatin1String("column")),
                 qPrintable(r.error));
        QCOMPARE(r.progress.scanned, 0);

        SearchSpec unreachable = spec({});
        unreachable.cluster.bootstrap = QStringLiteral("127.0.0.1:1");
        unreachable.timeoutMs = 2000;
        QElapsedTimer t;
        t.start();
        r = searchMessages(unreachable);
        QVERIFY(!r.ok());
        QVERIFY2(t.elapsed() < 15000, "an unreachable cluster must fail within the timeout");
    }
};

QTEST_GUILESS_MAIN(TstMessageSearch)
#include "tst_messagesearch.moc"

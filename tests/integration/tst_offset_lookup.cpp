// "Show on the other cluster" (engine/offsetmap/OffsetLookup.h) with real brokers and
// the real `mirrordesk run`: a source topic with committed and aborted
// transactions (gaps on the source side) mirrored exactly-once with small
// transactions (a marker after every few records: gaps on the target side).
// Every source record looks up its copy and every copy its source record,
// checked against both topics read independently (record values are unique);
// markers, aborted records and offsets past the copy are refused with a reason.
#include "headless_support.h"

#include "engine/offsetmap/OffsetLookup.h"
#include "model/profile/JobProfile.h"

#include <QTemporaryDir>

using namespace md;
using namespace md::test;

namespace {

// offset -> value of partition 0 (read_committed: records only, no markers or aborted ones).
std::optional<QMap<qint64, QByteArray>> recordsOf(const QString &bootstrap, const QString &topic, QString *error)
{
    ConsumeOptions o;
    o.readCommitted = true;
    o.timeoutMs = 60000;
    const auto records = consumeAll(bootstrap, topic, error, o);
    if (!records)
        return std::nullopt;
    QMap<qint64, QByteArray> out;
    for (const TestRecord &r : *records)
        out.insert(r.offset, r.value.value_or(QByteArray()));
    return out;
}

QList<TestRecord> batch(const char *tag, int from, int n)
{
    QList<TestRecord> out;
    for (int i = from; i < from + n; ++i) {
        TestRecord r;
        r.value = QByteArray(tag) + QByteArray::number(i);
        r.partition = 0;
        out << r;
    }
    return out;
}

QString outcome(const OtherSideOffset &r)
{
    return QStringLiteral("kind %1 %2 [%3] %4: %5")
        .arg(int(r.kind))
        .arg(r.topic)
        .arg(r.partition)
        .arg(r.offset)
        .arg(r.why);
}

} // namespace

class TestOffsetLookup final : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        MD_REQUIRE_BROKERS_NAMED(QStringLiteral("source"), QStringLiteral("target"));
        QVERIFY(QFile::exists(mirrordeskExe()));
        QVERIFY(m_dir.isValid());
    }

    void bothDirectionsAcrossGaps()
    {
        const QString topic = uniqueName(QStringLiteral("lookup"));
        const QString targetTopic = QStringLiteral("src.") + topic;
        QString error;
        QVERIFY2(createTopic(sourceBootstrap(), topic, 1, {}, &error), qPrintable(error));
        // Source: v0..v9 at 0-9, marker 10, aborted 11-20, marker 21, v10..v19 at 22-31, marker 32.
        QVERIFY2(produceTransactionalCommitted(sourceBootstrap(), topic, batch("v", 0, 10), &error), qPrintable(error));
        QVERIFY2(produceTransactionalAborted(sourceBootstrap(), topic, batch("x", 0, 10), &error), qPrintable(error));
        QVERIFY2(produceTransactionalCommitted(sourceBootstrap(), topic, batch("v", 10, 10), &error),
                 qPrintable(error));

        ProfileSpec p;
        p.name = topic;
        p.topic = topic;
        // At most 3 records a target transaction: a marker on the target after every few copies.
        p.extra = QStringLiteral(",\n \"delivery\": \"exactly-once\",\n \"transactionMaxRecords\": 3");
        const QString profile = writeProfile(m_dir.path(), topic + QStringLiteral(".mirrorjob"), p);
        const ExeResult run =
            runMirrordesk({QStringLiteral("run"), profile, QStringLiteral("--until-caught-up")}, 240000);
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));

        const auto source = recordsOf(sourceBootstrap(), topic, &error);
        QVERIFY2(source, qPrintable(error));
        const auto target = recordsOf(targetBootstrap(), targetTopic, &error);
        QVERIFY2(target, qPrintable(error));
        QCOMPARE(source->size(), qsizetype(20));
        QCOMPARE(target->size(), qsizetype(20));
        QHash<QByteArray, qint64> sourceOf, targetOf;
        for (auto it = source->cbegin(); it != source->cend(); ++it)
            sourceOf.insert(it.value(), it.key());
        for (auto it = target->cbegin(); it != target->cend(); ++it)
            targetOf.insert(it.value(), it.key());
        // The test means something only if the target has gaps of its own.
        const qint64 lastTarget = target->lastKey();
        QVERIFY2(lastTarget >= 25,
                 qPrintable(QStringLiteral("no markers on the target: last copy at %1").arg(lastTarget)));

        MirrorJobSpec spec;
        spec.name = topic;
        spec.source.alias = QStringLiteral("src");
        spec.source.bootstrap = sourceBootstrap();
        spec.target.alias = QStringLiteral("dst");
        spec.target.bootstrap = targetBootstrap();
        spec.include = {QRegularExpression::escape(topic)};
        spec.naming = NamingPolicy::Prefix;
        spec.groupId = JobProfile::groupIdForName(topic);

        int discontinuities = 0;
        qint64 lastDelta = -1;
        for (auto it = source->cbegin(); it != source->cend(); ++it) {
            const OtherSideOffset r = lookUpOtherSide(spec, topic, 0, it.key(), LookupDirection::SourceToTarget, 30000);
            const qint64 copy = targetOf.value(it.value(), -1);
            QVERIFY2(r.found() && r.topic == targetTopic && r.partition == 0 && r.offset == copy,
                     qPrintable(QStringLiteral("source %1 (%2, copy at %3): %4")
                                    .arg(it.key())
                                    .arg(QString::fromUtf8(it.value()))
                                    .arg(copy)
                                    .arg(outcome(r))));
            const OtherSideOffset back =
                lookUpOtherSide(spec, targetTopic, 0, copy, LookupDirection::TargetToSource, 30000);
            QVERIFY2(
                back.found() && back.topic == topic && back.partition == 0 && back.offset == it.key(),
                qPrintable(
                    QStringLiteral("target %1 (%2): %3").arg(copy).arg(QString::fromUtf8(it.value()), outcome(back))));
            const qint64 delta = copy - it.key();
            discontinuities += lastDelta != -1 && delta != lastDelta;
            lastDelta = delta;
        }
        QVERIFY2(discontinuities >= 2, "source and target offsets never drift apart: no discontinuity tested");

        // A target offset inside the copy that holds no record: a transaction marker.
        qint64 marker = -1;
        for (qint64 o = target->firstKey(); o < lastTarget && marker < 0; ++o)
            if (!target->contains(o))
                marker = o;
        QVERIFY(marker >= 0);
        const OtherSideOffset atMarker =
            lookUpOtherSide(spec, targetTopic, 0, marker, LookupDirection::TargetToSource, 30000);
        QVERIFY2(atMarker.kind == OtherSideOffset::Kind::NoRecord && atMarker.why.contains(QString::number(marker)),
                 qPrintable(outcome(atMarker)));
        // Source gaps: a marker and an aborted record have no copy.
        for (qint64 gap : {10, 15, 21}) {
            const OtherSideOffset r = lookUpOtherSide(spec, topic, 0, gap, LookupDirection::SourceToTarget, 30000);
            QVERIFY2(r.kind == OtherSideOffset::Kind::NoRecord, qPrintable(outcome(r)));
        }
        // Past the copy, both ways: not copied, naming the offset.
        const OtherSideOffset ahead = lookUpOtherSide(spec, topic, 0, 40, LookupDirection::SourceToTarget, 30000);
        QVERIFY2(ahead.kind == OtherSideOffset::Kind::NotCopied && ahead.why.contains(QLatin1String("offset 40")) &&
                     ahead.why.contains(QLatin1String("not copied yet")),
                 qPrintable(outcome(ahead)));
        const OtherSideOffset after =
            lookUpOtherSide(spec, targetTopic, 0, lastTarget + 5, LookupDirection::TargetToSource, 30000);
        QVERIFY2(after.kind == OtherSideOffset::Kind::NotCopied, qPrintable(outcome(after)));
        // Another partition: the map knows nothing of it.
        const OtherSideOffset none = lookUpOtherSide(spec, topic, 3, 0, LookupDirection::SourceToTarget, 30000);
        QVERIFY2(none.kind == OtherSideOffset::Kind::NotInMap, qPrintable(outcome(none)));
        qInfo("20 records, source offsets 0..32, target offsets %lld..%lld: %d discontinuities crossed both ways",
              target->firstKey(), lastTarget, discontinuities);
    }

    void unreachableTargetIsAnError()
    {
        MirrorJobSpec spec;
        spec.name = QStringLiteral("nowhere");
        spec.source.bootstrap = sourceBootstrap();
        spec.target.bootstrap = QStringLiteral("127.0.0.1:1");
        spec.include = {QStringLiteral("t")};
        const OtherSideOffset r =
            lookUpOtherSide(spec, QStringLiteral("t"), 0, 0, LookupDirection::SourceToTarget, 3000);
        QVERIFY2(r.kind == OtherSideOffset::Kind::Error && r.why.contains(QLatin1String("127.0.0.1:1")),
                 qPrintable(outcome(r)));
    }
};

QTEST_GUILESS_MAIN(TestOffsetLookup)
#include "tst_offset_lookup.moc"

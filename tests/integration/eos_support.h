#pragma once

// Shared by tst_exactly_once: the exactly-once profile, and the independent
// check that a target holds each source record once, in order per partition.
// The target is read with Kafka's own ConsoleConsumer (read_committed, what an
// application sees), the source with plain librdkafka (KafkaTestUtil), so no
// MirrorDesk code judges MirrorDesk.

#include "failover_support.h"

#include <QHash>
#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>
#include <algorithm>

#include <optional>

namespace md::test {

// Group settings that let a killed instance's partitions move within seconds
// (the broker's minimum session timeout) instead of the default 45 s.
inline const QMap<QString, QString> kQuickGroup{{QStringLiteral("session.timeout.ms"), QStringLiteral("6000")},
                                                {QStringLiteral("heartbeat.interval.ms"), QStringLiteral("1000")}};

inline QString eosGroupFor(const QString &topic)
{
    return QStringLiteral("mirror-") + topic;
}

// A profile of one topic, prefix naming ("src.<topic>") unless `identity`,
// the given delivery guarantee, its own group (eosGroupFor) and quick group
// failure detection.
inline QString writeEosProfile(const QString &dir, const QString &topic, qint64 throttle, const QString &delivery,
                               bool identity)
{
    ProfileSpec spec;
    if (identity)
        spec.naming = QStringLiteral("{\"policy\": \"identity\"}");
    spec.name = topic;
    spec.topic = topic;
    spec.throttleBytesPerSecond = throttle;
    spec.consumerProperties = kQuickGroup;
    spec.extra = QStringLiteral(",\n \"groupId\": \"%1\",\n \"delivery\": \"%2\"").arg(eosGroupFor(topic), delivery);
    return writeProfile(dir, topic + QStringLiteral(".mirrorjob"), spec);
}

using PartitionValues = QMap<int, QStringList>; // partition -> values in offset order

// The source's committed records (no aborted ones, no markers), by partition.
inline std::optional<PartitionValues> sourceValues(const QString &topic, QString *error)
{
    ConsumeOptions o;
    o.readCommitted = true;
    o.timeoutMs = 60000;
    const auto records = consumeAll(sourceBootstrap(), topic, error, o);
    if (!records)
        return std::nullopt;
    PartitionValues out;
    for (const TestRecord &r : *records)
        out[r.partition].append(QString::fromUtf8(r.value.value_or(QByteArray("<null>"))));
    return out;
}

// Data records the target's log holds, aborted ones included (markers are not
// records): what the job produced there in all its runs.
inline std::optional<qint64> uncommittedRecords(const QString &topic, QString *error)
{
    ConsumeOptions o;
    o.timeoutMs = 60000;
    const auto records = consumeAll(targetBootstrap(), topic, error, o);
    return records ? std::optional<qint64>(records->size()) : std::nullopt;
}

// Kafka's ConsoleConsumer, read_committed, a fresh group, from the beginning,
// until it has read `atMost` records or `idleMs` pass without one. The bound
// is an upper one (e.g. the target's end offsets): stopping at the expected
// count could hide a duplicate behind a missing record.
inline std::optional<QList<ReadRecord>> consoleReadCommitted(const QString &bootstrap, const QString &topic,
                                                             qint64 atMost, QString *error, int idleMs = 10000)
{
    QString out;
    if (!runKafkaTool(QStringLiteral("org.apache.kafka.tools.consumer.ConsoleConsumer"),
                      {QStringLiteral("--bootstrap-server"), bootstrap, QStringLiteral("--topic"), topic,
                       QStringLiteral("--group"), uniqueName(QStringLiteral("eos-reader")),
                       QStringLiteral("--from-beginning"), QStringLiteral("--max-messages"),
                       QString::number(std::max<qint64>(atMost, 1)), QStringLiteral("--timeout-ms"),
                       QString::number(idleMs), QStringLiteral("--isolation-level"), QStringLiteral("read_committed"),
                       QStringLiteral("--property"), QStringLiteral("print.partition=true"),
                       QStringLiteral("--property"), QStringLiteral("print.offset=true")},
                      &out, error, 240000))
        return std::nullopt;
    static const QRegularExpression line(QStringLiteral("^Partition:(\\d+)\\tOffset:(\\d+)\\t(.*)$"));
    QList<ReadRecord> records;
    for (const QString &l : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QRegularExpressionMatch m = line.match(l);
        if (m.hasMatch())
            records.append({m.captured(1).toInt(), m.captured(2).toLongLong(), m.captured(3)});
    }
    return records;
}

// What a read_committed reader of the target saw against the source.
struct OnceCheck {
    qint64 sourceRecords = 0;
    qint64 targetRecords = 0;
    qint64 duplicates = 0;     // target records whose value it had shown before in the partition
    qint64 missing = 0;        // source records the target never showed
    qint64 unexpected = 0;     // target records that are not source records of the partition
    QStringList firstProblems; // a few, for the failure message
    bool inOrder = true;       // every partition's sequence equals the source's
    bool exactlyOnce() const { return duplicates == 0 && missing == 0 && unexpected == 0 && inOrder; }
    QString summary() const
    {
        return QStringLiteral(
                   "source %1 records, target (read_committed) %2: %3 duplicates, %4 missing, %5 unexpected, "
                   "%6; %7")
            .arg(sourceRecords)
            .arg(targetRecords)
            .arg(duplicates)
            .arg(missing)
            .arg(unexpected)
            .arg(inOrder ? QStringLiteral("in order") : QStringLiteral("OUT OF ORDER"),
                 firstProblems.mid(0, 8).join(QStringLiteral("; ")));
    }
};

// Each partition of the target must show exactly the source partition's
// values, in the same order. Duplicates are counted on their own: a target
// holding everything plus replays (at-least-once after a crash) fails.
inline OnceCheck checkOnce(const PartitionValues &source, const QList<ReadRecord> &target)
{
    OnceCheck c;
    PartitionValues got;
    for (const ReadRecord &r : target)
        got[r.partition].append(r.value);
    QSet<int> partitions;
    for (auto it = source.cbegin(); it != source.cend(); ++it)
        partitions.insert(it.key());
    for (auto it = got.cbegin(); it != got.cend(); ++it)
        partitions.insert(it.key());
    for (int p : partitions) {
        const QStringList want = source.value(p), have = got.value(p);
        c.sourceRecords += want.size();
        c.targetRecords += have.size();
        const QSet<QString> wanted(want.cbegin(), want.cend());
        QSet<QString> seen;
        for (const QString &v : have) {
            if (seen.contains(v)) {
                if (++c.duplicates <= 3)
                    c.firstProblems << QStringLiteral("partition %1: %2 twice").arg(p).arg(v);
            } else if (!wanted.contains(v)) {
                if (++c.unexpected <= 3)
                    c.firstProblems << QStringLiteral("partition %1: %2 is not a source record").arg(p).arg(v);
            }
            seen.insert(v);
        }
        for (const QString &v : want) {
            if (!seen.contains(v) && ++c.missing <= 3)
                c.firstProblems << QStringLiteral("partition %1: %2 missing").arg(p).arg(v);
        }
        if (want != have) {
            c.inOrder = false;
            qsizetype i = 0;
            while (i < want.size() && i < have.size() && want[i] == have[i])
                ++i;
            c.firstProblems << QStringLiteral("partition %1 differs at record %2: source %3, target %4")
                                   .arg(p)
                                   .arg(i)
                                   .arg(i < want.size() ? want[i] : QStringLiteral("<end>"),
                                        i < have.size() ? have[i] : QStringLiteral("<end>"));
        }
    }
    return c;
}

// Reads the target topic with ConsoleConsumer (bounded by its end offsets,
// which count every record and marker) and checks it against the source.
inline std::optional<OnceCheck> readAndCheckOnce(const QString &sourceTopic, const QString &targetTopic, QString *error,
                                                 QList<ReadRecord> *targetRead = nullptr)
{
    const auto source = sourceValues(sourceTopic, error);
    if (!source)
        return std::nullopt;
    const auto ends = endOffsets(targetBootstrap(), targetTopic, error);
    if (!ends)
        return std::nullopt;
    const auto target = consoleReadCommitted(targetBootstrap(), targetTopic, sumOf(*ends), error);
    if (!target)
        return std::nullopt;
    if (targetRead)
        *targetRead = *target;
    return checkOnce(*source, *target);
}

// `mirrordesk verify FILE`: empty when it exits 0 and reports no duplicate
// (an at-least-once replay is only a warning there, so the text is checked
// too), else why not. *summary: its last line, for the test log.
inline QString verifyProblem(const QString &profilePath, QString *summary)
{
    const ExeResult r = runMirrordesk({QStringLiteral("verify"), profilePath}, 180000);
    const QStringList lines = r.out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    *summary = lines.isEmpty() ? QString() : lines.last();
    if (r.exitCode != 0 || r.out.contains(QLatin1String("duplicate")) || r.err.contains(QLatin1String("duplicate")))
        return QStringLiteral("verify exit %1:\n%2\n%3").arg(r.exitCode).arg(r.out.right(3000), r.err.right(2000));
    return {};
}

} // namespace md::test

#pragma once

// Shared by tst_failover and tst_groupsync: independent readers of consumer
// group positions. A group's committed offsets are read with plain librdkafka
// (OffsetFetch, without joining the group), and what a group reads first on a
// cluster with Kafka's own ConsoleConsumer (--group: it starts at the group's
// committed offsets), so MirrorDesk's code never checks itself.

#include "headless_support.h"

#include <librdkafka/rdkafka.h>

#include <QMap>
#include <QRegularExpression>
#include <QString>

#include <optional>

namespace md::test {

inline ExeResult failoverCommand(const QStringList &args, int timeoutMs = 180000)
{
    return runMirrordesk(QStringList{QStringLiteral("failover")} + args, timeoutMs);
}

inline ExeResult runToTheEnd(const QString &profile)
{
    return runMirrordesk({QStringLiteral("run"), profile, QStringLiteral("--until-caught-up")}, 240000);
}

// The group's committed offsets of partitions 0..partitions-1 of `topic` (-1: none).
inline std::optional<QMap<int, qint64>> committedOffsets(const QString &bootstrap, const QString &group,
                                                         const QString &topic, int partitions, QString *error)
{
    char errstr[512];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    const QByteArray servers = bootstrap.toUtf8(), id = group.toUtf8();
    rd_kafka_conf_set(conf, "bootstrap.servers", servers.constData(), errstr, sizeof errstr);
    rd_kafka_conf_set(conf, "group.id", id.constData(), errstr, sizeof errstr);
    rd_kafka_conf_set(conf, "enable.auto.commit", "false", errstr, sizeof errstr);
    rd_kafka_conf_set_log_cb(conf, [](const rd_kafka_t *, int, const char *, const char *) {});
    rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, errstr, sizeof errstr);
    if (!rk) {
        rd_kafka_conf_destroy(conf);
        *error = QString::fromUtf8(errstr);
        return std::nullopt;
    }
    rd_kafka_topic_partition_list_t *list = rd_kafka_topic_partition_list_new(partitions);
    const QByteArray t = topic.toUtf8();
    for (int p = 0; p < partitions; ++p)
        rd_kafka_topic_partition_list_add(list, t.constData(), p);
    const rd_kafka_resp_err_t err = rd_kafka_committed(rk, list, 20000);
    std::optional<QMap<int, qint64>> out;
    if (err) {
        *error = QStringLiteral("committed(%1): %2").arg(group, QString::fromUtf8(rd_kafka_err2str(err)));
    } else {
        out.emplace();
        for (int i = 0; i < list->cnt; ++i)
            out->insert(list->elems[i].partition,
                        list->elems[i].err || list->elems[i].offset < 0 ? -1 : qint64(list->elems[i].offset));
    }
    rd_kafka_topic_partition_list_destroy(list);
    rd_kafka_consumer_close(rk);
    rd_kafka_destroy(rk);
    return out;
}

struct ReadRecord {
    int partition = -1;
    qint64 offset = -1;
    QString value;
};

// Kafka's ConsoleConsumer as a member of `group` (it starts where the group's
// committed offsets are; read_committed), `count` records or until 20 s pass
// without one. Records in the order it printed them.
// `fromBeginning`: a group without committed offsets starts at the log start
// (otherwise at the end, the tool's default).
inline std::optional<QList<ReadRecord>> consumeAsGroup(const QString &bootstrap, const QString &topic,
                                                       const QString &group, qint64 count, QString *error,
                                                       bool fromBeginning = false)
{
    QString out;
    QStringList args{QStringLiteral("--bootstrap-server"),
                     bootstrap,
                     QStringLiteral("--topic"),
                     topic,
                     QStringLiteral("--group"),
                     group,
                     QStringLiteral("--max-messages"),
                     QString::number(count),
                     QStringLiteral("--timeout-ms"),
                     QStringLiteral("20000"),
                     QStringLiteral("--isolation-level"),
                     QStringLiteral("read_committed"),
                     QStringLiteral("--property"),
                     QStringLiteral("print.partition=true"),
                     QStringLiteral("--property"),
                     QStringLiteral("print.offset=true")};
    if (fromBeginning)
        args << QStringLiteral("--from-beginning");
    if (!runKafkaTool(QStringLiteral("org.apache.kafka.tools.consumer.ConsoleConsumer"), args, &out, error, 180000)) {
        // A timeout before `count` records exits non-zero too: what was read still counts.
        if (!out.contains(QLatin1String("Partition:")))
            return std::nullopt;
    }
    static const QRegularExpression line(QStringLiteral("^Partition:(\\d+)\\tOffset:(\\d+)\\t(.*)$"));
    QList<ReadRecord> records;
    for (const QString &l : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QRegularExpressionMatch m = line.match(l);
        if (m.hasMatch())
            records.append({m.captured(1).toInt(), m.captured(2).toLongLong(), m.captured(3)});
    }
    return records;
}

// Per partition, the values read, in order.
inline QMap<int, QStringList> valuesByPartition(const QList<ReadRecord> &records)
{
    QMap<int, QStringList> out;
    for (const ReadRecord &r : records)
        out[r.partition].append(r.value);
    return out;
}

// Per partition, the value of the first committed record at or after `offsets`
// on the source: what a consumer of the group reads next there.
inline std::optional<QMap<int, QString>> nextOnSource(const QString &topic, const QMap<int, qint64> &offsets,
                                                      QString *error, const QString &source = sourceBootstrap())
{
    ConsumeOptions o;
    o.readCommitted = true;
    const auto all = consumeAll(source, topic, error, o);
    if (!all)
        return std::nullopt;
    QMap<int, QString> next;
    for (const TestRecord &r : *all) {
        if (!offsets.contains(r.partition) || r.offset < offsets.value(r.partition) || next.contains(r.partition))
            continue;
        next.insert(r.partition, QString::fromUtf8(r.value.value_or(QByteArray())));
    }
    return next;
}

// The profile of these tests: one topic, prefix naming ("src.<topic>"), these groups.
inline QString writeGroupsProfile(const QString &dir, const QString &name, const QString &topic,
                                  const QStringList &groups, const QString &more = {}, qint64 throttle = 0)
{
    QStringList quoted;
    for (const QString &g : groups)
        quoted << QStringLiteral("\"%1\"").arg(jsonEscaped(QRegularExpression::escape(g)));
    ProfileSpec spec;
    spec.name = name;
    spec.topic = topic;
    spec.throttleBytesPerSecond = throttle;
    spec.extra = QStringLiteral(",\n \"groups\": {\"include\": [%1]}%2").arg(quoted.join(QStringLiteral(", ")), more);
    return writeProfile(dir, name + QStringLiteral(".mirrorjob"), spec);
}

// `each` records on every one of `partitions`, valued "0", "1", ... per partition.
inline QList<TestRecord> countedRecords(int partitions, int each)
{
    QList<TestRecord> records;
    for (int p = 0; p < partitions; ++p)
        for (int i = 0; i < each; ++i) {
            TestRecord r;
            r.partition = p;
            r.value = QByteArray::number(i);
            records.append(r);
        }
    return records;
}

} // namespace md::test

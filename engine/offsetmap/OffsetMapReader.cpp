#include "engine/admin/AdminCall.h"
#include "engine/core/ClusterConfig.h"
#include "engine/core/KafkaHandles.h"
#include "engine/core/ReaderConsumer.h"
#include "engine/offsetmap/OffsetMap.h"

#include <QDeadlineTimer>
#include <QLoggingCategory>

#include <algorithm>
#include <vector>

namespace md {

namespace {

Q_LOGGING_CATEGORY(lcMap, "mirrordesk.offsetmap")

void ignoreLog(const rd_kafka_t *, int, const char *, const char *)
{
}

} // namespace

namespace {

// A whole read at least this often even with a cursor: a map topic deleted and
// created again under the same name, with more records than the cursor had
// read, is not told apart by its offsets.
constexpr qint64 kWholeReadEveryMs = 10 * 60 * 1000;

bool readMapOnce(const ClusterConfig &target, const QString &mapTopic, int timeoutMs, const OffsetMapRecordSink &sink,
                 QString *error, OffsetMapCursor *cursor, bool *readWholeAgain)
{
    const QString where = QStringLiteral("target cluster %1%2, offset map topic %3")
                              .arg(target.alias.isEmpty() ? QString() : target.alias + QLatin1Char(' '),
                                   QLatin1Char('(') + target.bootstrap + QLatin1Char(')'), mapTopic);
    const auto failWith = [&](const QString &why) {
        *error = where + QStringLiteral(": ") + why;
        return false;
    };
    QDeadlineTimer deadline(std::max(timeoutMs, 1000));
    const auto left = [&] { return int(std::max<qint64>(500, deadline.remainingTime())); };

    KafkaPtr own;
    KafkaPtr &rk = cursor ? cursor->reader : own;
    if (!rk) {
        // A cursor's position gone from the log is an error (then a whole read), never a jump.
        ReaderOptions reader{.groupId = QStringLiteral("mirrordesk-offset-map-reader"),
                             .offsetReset = QStringLiteral("error")};
        reader.extra = {{QStringLiteral("allow.auto.create.topics"), QStringLiteral("false")}};
        ConfResult conf = readerConf(target, reader);
        if (!conf.conf)
            return failWith(QStringLiteral("invalid client setting ") + conf.error);
        rd_kafka_conf_set_log_cb(conf.conf.get(), &ignoreLog);
        char errstr[512];
        rk.reset(rd_kafka_new(RD_KAFKA_CONSUMER, conf.conf.get(), errstr, sizeof errstr));
        if (!rk)
            return failWith(QString::fromUtf8(errstr));
        (void)conf.conf.release(); // owned by the handle now
    }
    // A kept reader stops fetching between reads (see finish below).
    const struct Unassign {
        rd_kafka_t *h;
        ~Unassign() { rd_kafka_assign(h, nullptr); }
    } unassign{rk.get()};

    // The map topic only (a cluster may have thousands): absent is
    // UNKNOWN_TOPIC_OR_PART on the topic, never confused with a cluster that
    // did not answer (an error of the request).
    const QByteArray topic = mapTopic.toUtf8();
    const TopicPtr rkt(rd_kafka_topic_new(rk.get(), topic.constData(), nullptr));
    if (!rkt)
        return failWith(kafkaErrorText(rd_kafka_last_error()));
    const rd_kafka_metadata_t *raw = nullptr;
    const rd_kafka_resp_err_t merr = rd_kafka_metadata(rk.get(), 0, rkt.get(), &raw, left());
    MetadataPtr md(raw);
    if (merr != RD_KAFKA_RESP_ERR_NO_ERROR || !md)
        return failWith(QStringLiteral("cannot read the cluster's topics: ") + kafkaErrorText(merr));
    int partitions = -1;
    for (int i = 0; i < md->topic_cnt; ++i) {
        if (topic == md->topics[i].topic) {
            if (md->topics[i].err == RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART)
                break;
            if (md->topics[i].err)
                return failWith(kafkaErrorText(md->topics[i].err));
            partitions = md->topics[i].partition_cnt;
        }
    }
    md.reset();
    if (partitions <= 0) {
        // The job never wrote a map here: empty, not an error.
        sink.restart();
        if (cursor) {
            cursor->reset();
            cursor->lastReadWhole = true;
            cursor->lastRecords = 0;
        }
        return true;
    }

    // The end, read_committed (the last stable offset), as of now.
    PartitionListPtr ends(rd_kafka_topic_partition_list_new(partitions));
    for (int p = 0; p < partitions; ++p)
        rd_kafka_topic_partition_list_add(ends.get(), topic.constData(), p)->offset = RD_KAFKA_OFFSET_SPEC_LATEST;
    QString why;
    EventPtr ev = adminCall(
        rk.get(), RD_KAFKA_ADMIN_OP_LISTOFFSETS, left(),
        [&](rd_kafka_AdminOptions_t *o, rd_kafka_queue_t *q) {
            ErrorPtr(rd_kafka_AdminOptions_set_isolation_level(o, RD_KAFKA_ISOLATION_LEVEL_READ_COMMITTED));
            rd_kafka_ListOffsets(rk.get(), ends.get(), o, q);
        },
        &why);
    if (!ev)
        return failWith(QStringLiteral("cannot read the end offsets: ") + why);
    std::vector<qint64> end(size_t(partitions), -1);
    size_t n = 0;
    const rd_kafka_ListOffsetsResultInfo_t **infos =
        rd_kafka_ListOffsets_result_infos(rd_kafka_event_ListOffsets_result(ev.get()), &n);
    for (size_t i = 0; i < n; ++i) {
        const rd_kafka_topic_partition_t *tp = rd_kafka_ListOffsetsResultInfo_topic_partition(infos[i]);
        if (!tp || tp->partition < 0 || tp->partition >= partitions)
            continue;
        if (tp->err)
            return failWith(QStringLiteral("cannot read the end offset of partition %1: %2")
                                .arg(tp->partition)
                                .arg(kafkaErrorText(tp->err)));
        end[size_t(tp->partition)] = tp->offset;
    }
    ev.reset();

    for (int p = 0; p < partitions; ++p)
        if (end[size_t(p)] < 0)
            return failWith(QStringLiteral("no end offset for partition %1").arg(p));
    // From the cursor when it fits this topic as it is now, else from the start.
    bool incremental = cursor && cursor->topic == mapTopic && cursor->next.size() == size_t(partitions) &&
                       !cursor->wholeBy.hasExpired();
    for (int p = 0; incremental && p < partitions; ++p)
        incremental = cursor->next[size_t(p)] >= 0 && cursor->next[size_t(p)] <= end[size_t(p)];
    if (!incremental)
        sink.restart();
    PartitionListPtr assign(rd_kafka_topic_partition_list_new(partitions));
    int open = 0;
    std::vector<bool> done(size_t(partitions), false);
    for (int p = 0; p < partitions; ++p) {
        const qint64 from = incremental ? cursor->next[size_t(p)] : 0;
        if (end[size_t(p)] <= from) {
            done[size_t(p)] = true;
            continue;
        }
        rd_kafka_topic_partition_list_add(assign.get(), topic.constData(), p)->offset =
            incremental ? from : RD_KAFKA_OFFSET_BEGINNING;
        ++open;
    }
    qint64 records = 0;
    const auto finish = [&] {
        if (cursor) {
            cursor->topic = mapTopic;
            cursor->next.assign(end.begin(), end.end());
            cursor->lastReadWhole = !incremental;
            cursor->lastRecords = records;
            if (!incremental)
                cursor->wholeBy = QDeadlineTimer(kWholeReadEveryMs);
        }
        return true;
    };
    if (open == 0)
        return finish();
    if (const rd_kafka_resp_err_t aerr = rd_kafka_assign(rk.get(), assign.get()))
        return failWith(QStringLiteral("cannot assign its partitions: ") + kafkaErrorText(aerr));

    int skipped = 0;
    while (open > 0) {
        if (deadline.hasExpired())
            return failWith(
                QStringLiteral("not read to its end within %1 ms (%2 partitions left)").arg(timeoutMs).arg(open));
        MessagePtr m(rd_kafka_consumer_poll(rk.get(), 100));
        if (!m)
            continue;
        const int p = m->partition;
        if (p < 0 || p >= partitions || done[size_t(p)])
            continue;
        if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
            if (m->offset >= end[size_t(p)]) {
                done[size_t(p)] = true;
                --open;
            }
            continue;
        }
        if (m->err == RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET && incremental) {
            *readWholeAgain = true;
            return failWith(QStringLiteral("the position of partition %1 is gone from the log").arg(p));
        }
        if (m->err)
            return failWith(QStringLiteral("cannot read partition %1: %2")
                                .arg(p)
                                .arg(QString::fromUtf8(rd_kafka_message_errstr(m.get()))));
        ++records;
        const QByteArray key = QByteArray::fromRawData(static_cast<const char *>(m->key), qsizetype(m->key_len));
        const QByteArray value = QByteArray::fromRawData(static_cast<const char *>(m->payload), qsizetype(m->len));
        if (!sink.record(key, m->payload ? &value : nullptr))
            ++skipped;
        if (m->offset + 1 >= end[size_t(p)]) {
            done[size_t(p)] = true;
            --open;
        }
    }
    if (skipped > 0)
        qCWarning(lcMap, "%s: skipped %d records that are not offset map records", qPrintable(where), skipped);
    return finish();
}

} // namespace

bool readOffsetMapRecords(const ClusterConfig &target, const QString &mapTopic, int timeoutMs,
                          const OffsetMapRecordSink &sink, QString *error, OffsetMapCursor *cursor)
{
    bool again = false;
    if (readMapOnce(target, mapTopic, timeoutMs, sink, error, cursor, &again))
        return true;
    if (cursor) {
        cursor->reset();
        cursor->reader.reset(); // the next read connects afresh
    }
    return again && readMapOnce(target, mapTopic, timeoutMs, sink, error, cursor, &again);
}

bool readOffsetMap(const ClusterConfig &target, const QString &mapTopic, int timeoutMs, OffsetMap *map, QString *error,
                   OffsetMapCursor *cursor)
{
    const auto record = [map](const QByteArray &key, const QByteArray *value) {
        // A tombstone (null value) removes a key under compaction: nothing to apply.
        if (!value)
            return true;
        QString sourceTopic;
        int sourcePartition = -1;
        OffsetSegment segment;
        if (parseOffsetMapRecord(key, *value, &sourceTopic, &sourcePartition, &segment)) {
            map->apply(sourceTopic, sourcePartition, segment);
            return true;
        }
        if (!parseOffsetMapReset(key, *value, &sourceTopic, &sourcePartition))
            return false;
        map->forget(sourceTopic, sourcePartition); // what came before is of the partition's old log
        return true;
    };
    return readOffsetMapRecords(target, mapTopic, timeoutMs, OffsetMapRecordSink{[map] { *map = OffsetMap(); }, record},
                                error, cursor);
}

} // namespace md

#pragma once

// Shared by the tests of where a job starts (tst_jobprogress, tst_reset_command,
// tst_checkreadiness): records removed from the source with DeleteRecords through
// librdkafka directly, never through MirrorDesk's own code.

#include "KafkaTestEnv.h"
#include "engine/core/KafkaHandles.h"

#include <QString>

namespace md::test {

// DeleteRecords(topic[partition] before `before`) on the source broker: the
// partition's log start becomes `before`.
inline bool deleteRecordsBefore(const QString &topic, int partition, qint64 before, QString *error)
{
    char errstr[512];
    KafkaConfPtr conf(rd_kafka_conf_new());
    if (rd_kafka_conf_set(conf.get(), "bootstrap.servers", sourceBootstrap().toUtf8().constData(), errstr,
                          sizeof errstr) != RD_KAFKA_CONF_OK) {
        *error = QString::fromUtf8(errstr);
        return false;
    }
    KafkaPtr rk(rd_kafka_new(RD_KAFKA_PRODUCER, conf.get(), errstr, sizeof errstr));
    if (!rk) {
        *error = QString::fromUtf8(errstr);
        return false;
    }
    conf.release(); // rd_kafka_new took ownership
    PartitionListPtr list(rd_kafka_topic_partition_list_new(1));
    rd_kafka_topic_partition_list_add(list.get(), topic.toUtf8().constData(), partition)->offset = before;
    DeleteRecordsPtr del(rd_kafka_DeleteRecords_new(list.get()));
    QueuePtr queue(rd_kafka_queue_new(rk.get()));
    rd_kafka_DeleteRecords_t *arr[] = {del.get()};
    rd_kafka_DeleteRecords(rk.get(), arr, 1, nullptr, queue.get());
    EventPtr ev(rd_kafka_queue_poll(queue.get(), 30000));
    if (!ev) {
        *error = QStringLiteral("DeleteRecords %1[%2]: no answer in 30 s").arg(topic).arg(partition);
        return false;
    }
    if (rd_kafka_event_error(ev.get())) {
        *error = QStringLiteral("DeleteRecords %1[%2]: %3")
                     .arg(topic)
                     .arg(partition)
                     .arg(QString::fromUtf8(rd_kafka_event_error_string(ev.get())));
        return false;
    }
    const rd_kafka_topic_partition_list_t *res =
        rd_kafka_DeleteRecords_result_offsets(rd_kafka_event_DeleteRecords_result(ev.get()));
    if (!res || res->cnt != 1 || res->elems[0].err) {
        *error = QStringLiteral("DeleteRecords %1[%2]: %3")
                     .arg(topic)
                     .arg(partition)
                     .arg(res && res->cnt ? QString::fromUtf8(rd_kafka_err2str(res->elems[0].err))
                                          : QStringLiteral("empty result"));
        return false;
    }
    return true;
}

} // namespace md::test

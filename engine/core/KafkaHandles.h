#pragma once

// RAII owners for every librdkafka handle the project touches. Every raw handle
// that leaves a librdkafka call goes straight into one of these.

#include <librdkafka/rdkafka.h>

#include <memory>

namespace md {

void forgetCertificateFailure(const rd_kafka_t *rk); // CertificateCheck.h

struct KafkaDeleter {
    void operator()(rd_kafka_t *h) const noexcept
    {
        rd_kafka_destroy(h);
        forgetCertificateFailure(h); // after: no broker thread can record one any more
    }
    void operator()(rd_kafka_conf_t *h) const noexcept { rd_kafka_conf_destroy(h); }
    void operator()(rd_kafka_topic_conf_t *h) const noexcept { rd_kafka_topic_conf_destroy(h); }
    void operator()(rd_kafka_topic_partition_list_t *h) const noexcept { rd_kafka_topic_partition_list_destroy(h); }
    void operator()(rd_kafka_message_t *h) const noexcept { rd_kafka_message_destroy(h); }
    void operator()(rd_kafka_headers_t *h) const noexcept { rd_kafka_headers_destroy(h); }
    void operator()(rd_kafka_event_t *h) const noexcept { rd_kafka_event_destroy(h); }
    void operator()(rd_kafka_queue_t *h) const noexcept { rd_kafka_queue_destroy(h); }
    void operator()(rd_kafka_topic_t *h) const noexcept { rd_kafka_topic_destroy(h); }
    void operator()(rd_kafka_AdminOptions_t *h) const noexcept { rd_kafka_AdminOptions_destroy(h); }
    void operator()(rd_kafka_NewTopic_t *h) const noexcept { rd_kafka_NewTopic_destroy(h); }
    void operator()(rd_kafka_NewPartitions_t *h) const noexcept { rd_kafka_NewPartitions_destroy(h); }
    void operator()(rd_kafka_ConfigResource_t *h) const noexcept { rd_kafka_ConfigResource_destroy(h); }
    void operator()(rd_kafka_DeleteTopic_t *h) const noexcept { rd_kafka_DeleteTopic_destroy(h); }
    void operator()(rd_kafka_DeleteGroup_t *h) const noexcept { rd_kafka_DeleteGroup_destroy(h); }
    void operator()(rd_kafka_DeleteRecords_t *h) const noexcept { rd_kafka_DeleteRecords_destroy(h); }
    void operator()(rd_kafka_AclBinding_t *h) const noexcept { rd_kafka_AclBinding_destroy(h); }
    void operator()(rd_kafka_ListConsumerGroupOffsets_t *h) const noexcept
    {
        rd_kafka_ListConsumerGroupOffsets_destroy(h);
    }
    void operator()(rd_kafka_AlterConsumerGroupOffsets_t *h) const noexcept
    {
        rd_kafka_AlterConsumerGroupOffsets_destroy(h);
    }
    void operator()(rd_kafka_error_t *h) const noexcept { rd_kafka_error_destroy(h); }
    void operator()(const rd_kafka_metadata_t *h) const noexcept { rd_kafka_metadata_destroy(h); }
    void operator()(rd_kafka_consumer_group_metadata_t *h) const noexcept
    {
        rd_kafka_consumer_group_metadata_destroy(h);
    }
};

using KafkaPtr = std::unique_ptr<rd_kafka_t, KafkaDeleter>;
using KafkaConfPtr = std::unique_ptr<rd_kafka_conf_t, KafkaDeleter>;
using TopicConfPtr = std::unique_ptr<rd_kafka_topic_conf_t, KafkaDeleter>;
using PartitionListPtr = std::unique_ptr<rd_kafka_topic_partition_list_t, KafkaDeleter>;
using MessagePtr = std::unique_ptr<rd_kafka_message_t, KafkaDeleter>;
using HeadersPtr = std::unique_ptr<rd_kafka_headers_t, KafkaDeleter>;
using EventPtr = std::unique_ptr<rd_kafka_event_t, KafkaDeleter>;
using QueuePtr = std::unique_ptr<rd_kafka_queue_t, KafkaDeleter>;
using TopicPtr = std::unique_ptr<rd_kafka_topic_t, KafkaDeleter>;
using AdminOptionsPtr = std::unique_ptr<rd_kafka_AdminOptions_t, KafkaDeleter>;
using NewTopicPtr = std::unique_ptr<rd_kafka_NewTopic_t, KafkaDeleter>;
using NewPartitionsPtr = std::unique_ptr<rd_kafka_NewPartitions_t, KafkaDeleter>;
using ConfigResourcePtr = std::unique_ptr<rd_kafka_ConfigResource_t, KafkaDeleter>;
using DeleteTopicPtr = std::unique_ptr<rd_kafka_DeleteTopic_t, KafkaDeleter>;
using DeleteGroupPtr = std::unique_ptr<rd_kafka_DeleteGroup_t, KafkaDeleter>;
using DeleteRecordsPtr = std::unique_ptr<rd_kafka_DeleteRecords_t, KafkaDeleter>;
using ErrorPtr = std::unique_ptr<rd_kafka_error_t, KafkaDeleter>;
using MetadataPtr = std::unique_ptr<const rd_kafka_metadata_t, KafkaDeleter>;

} // namespace md

#pragma once

// Small helpers the AdminService*.cpp files share (the service is split by
// feature: topics and configs, groups and offsets, ACLs and messages). Not
// part of AdminService's interface.

#include <librdkafka/rdkafka.h>

#include <QString>

namespace md::admin_detail {

inline QString utf8(const char *s)
{
    return s ? QString::fromUtf8(s) : QString();
}

inline QString errorText(const rd_kafka_error_t *e)
{
    return e ? utf8(rd_kafka_error_string(e)) : QString();
}

} // namespace md::admin_detail

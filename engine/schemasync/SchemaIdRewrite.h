#pragma once

#include "engine/mirror/MirrorJobSpec.h"

#include <librdkafka/rdkafka.h>

#include <QHash>
#include <QSet>
#include <QString>

namespace md {

// A translate job's ids as the registries hold them now, for reading its
// source as the job copied it (verify): the ids of the versions the target
// registry has of the subjects that follow, and which topics' keys and
// values carry them. apply() rewrites a record's wire-format id in place;
// an id the target lacks stays (the comparison then shows the record).
struct SchemaIdRewrite {
    QHash<int, int> ids;
    QSet<QString> keyTopics, valueTopics;
    QString error;

    void apply(rd_kafka_message_t *m) const;
};
SchemaIdRewrite schemaIdRewriteOf(const MirrorJobSpec &spec, int timeoutMs);

} // namespace md

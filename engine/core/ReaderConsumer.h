#pragma once

#include "engine/core/ClusterConfig.h"

#include <QMap>
#include <QString>

namespace md {

// A consumer that only reads what it is assigned: never subscribed, nothing committed or
// stored, the end of a partition reported (enable.partition.eof). The message browser, a range
// copy, verify, `check`'s retention probe and the offset map's reader each make one; they differ
// only in what ReaderOptions names, so the properties they share are written once here.
struct ReaderOptions {
    // assign() needs a group id; it is never joined. Empty: "mirrordesk-<purpose>-<uuid>".
    QString groupId;
    QString purpose = QStringLiteral("reader");
    bool readCommitted = true; // as the mirror: records of aborted transactions are never read
    // Where a start offset that is not (or no longer) in the log leads: "earliest", or "error"
    // where a vanished start must be reported instead of skipped.
    QString offsetReset = QStringLiteral("earliest");
    QMap<QString, QString> extra; // more properties (prefetch bounds, fetch waits), these win
};

// The librdkafka configuration of such a consumer of `cluster` (makeKafkaConf's, so the
// connection's security and free properties apply as for every client).
ConfResult readerConf(const ClusterConfig &cluster, const ReaderOptions &options);

} // namespace md

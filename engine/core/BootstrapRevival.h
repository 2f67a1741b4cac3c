#pragma once

#include <QString>

#include <librdkafka/rdkafka.h>

namespace md {

// librdkafka 2.10 and later forgets every broker it knew when a Metadata
// answer lists none (librdkafka issue 5301, open). Built without working
// atomics (before installer/librdkafka.sh set HAVE_ATOMICS_*) it never
// connected again; built with them it re-bootstraps by itself, and this
// stays as a second way back. A broker that its own KRaft
// controller fenced answers so for a moment: after a long GC pause, a frozen
// VM, or a machine so loaded that heartbeats come late. Seen here: ten jobs
// on two cores starved the source broker for 36 s, and every job then said
// "cannot list topics" for minutes while a new client reached the broker at
// once. Adding the bootstrap servers again gives the handle somewhere to
// start. An address it still has as a bootstrap entry is not added twice;
// each call also keeps the list for librdkafka's own re-bootstrap (a few
// bytes), so callers call it when the handle is in trouble, and not often.
// Returns how many of the servers the handle has as bootstrap entries now.
int reviveBootstrapBrokers(rd_kafka_t *rk, const QString &bootstrap);

} // namespace md

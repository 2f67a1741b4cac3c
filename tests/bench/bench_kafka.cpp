// Load generator, limit probes and target watcher for tests/bench/mm2-compare.sh (issue 7).
//
//   bench_kafka create  BOOTSTRAP TOPIC PARTITIONS [--topics T]
//   bench_kafka delete  BOOTSTRAP TOPIC [--topics T]
//   bench_kafka load    BOOTSTRAP TOPIC --records N --size BYTES [--rate R] [--topics T]
//   bench_kafka consume BOOTSTRAP TOPIC --records N [--topics T]
//   bench_kafka watch   BOOTSTRAP TOPIC --records N [--timeout S] [--committed 1] [--topics T]
//   bench_kafka latency BOOTSTRAP TOPIC --records N [--skip K] [--timeout S]
//   bench_kafka copy    BOOTSTRAP TOPIC --records N --to BOOTSTRAP2 --to-topic TOPIC2
//
// delete: removes a topic (a long benchmark frees each run's copy before the next one).
// load: one librdkafka producer (the engine's producer settings: idempotent, acks=all,
//   linger.ms=5), records spread round-robin over the partitions, each value starting with
//   its send time (microseconds since the epoch, 8 bytes little-endian) so `latency` can
//   tell how long the record took to reach the target. --rate paces it (records/s).
//   The progress (acknowledged records over time) gives the target-alone limit.
// consume: one librdkafka consumer, no group, every partition from the beginning, until N
//   records: the source-alone limit.
// watch: the target's high watermarks summed every 100 ms (waits for the topic to exist)
//   until N records: how fast a mirror lands records, whatever the mirror is. --committed 1
//   sums the last stable offsets instead (ListOffsets, read_committed): records count once
//   their transaction commits, what a read_committed consumer can read.
// copy: the bare pipe. One consumer of the source (as `consume`) and one producer into the
//   target (as `load`); each record is produced zero-copy to the same partition with its
//   headers and timestamp (what any faithful copy must carry) and released on its delivery
//   report, and nothing else happens: no group, no offsets kept, no metrics. What a mirror could reach on this machine
//   if its own work cost nothing; the target topic must exist with at least the source's partitions.
// latency: a consumer on the target from the beginning; per record, now minus the embedded
//   send time; the first K records are warm-up and not counted.
// --wire-id N (load): each value begins with a schema registry's wire-format prefix (magic
//   byte 0, id N big-endian), the send time after it (schema-cost.sh: what translating ids costs).
// --topics T (create, delete, load, consume, watch): the T topics TOPIC-0 .. TOPIC-(T-1)
//   instead of TOPIC (many-partitions.sh, issue 20). create and delete make one admin call
//   for all; load spreads the records round-robin over every partition of all T topics;
//   consume reads them all; watch sums the end offsets of all T, read with ListOffsets in
//   calls of whole topics of about 1,000 partitions each (librdkafka's ListOffsets costs
//   the square of a call's size, see engine/admin/ProbeClient.cpp).
//
// Every command ends with one line of key=value pairs on stdout (times in ms since the
// epoch, rates over the 10%..90% stretch of the records) that the script parses.
//
// This file holds main(); the commands are in bench_kafka_load.cpp (create, delete, load) and
// bench_kafka_copy.cpp (consume, copy, watch, latency), what they share in bench_kafka_common.h.

#include "bench_kafka_common.h"

#include <string>

using namespace benchkafka;

int main(int argc, char **argv)
{
    const Args a = parse(argc, argv);
    if (a.topics > 0 && (a.command == "copy" || a.command == "latency"))
        die(a.command + " works on one topic: no --topics");
    if (a.command == "create")
        return cmdCreate(a);
    if (a.command == "delete")
        return cmdDelete(a);
    if (a.command == "load")
        return cmdLoad(a);
    if (a.command == "consume")
        return cmdConsume(a);
    if (a.command == "watch")
        return cmdWatch(a);
    if (a.command == "latency")
        return cmdLatency(a);
    if (a.command == "copy")
        return cmdCopy(a);
    die("unknown command " + a.command);
}

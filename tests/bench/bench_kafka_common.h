// What bench_kafka's commands share: the command line, clocks, client setup, the topics'
// partition counts and end offsets, the progress that becomes each RESULT line, and the
// producer of `load` and `copy`. The commands are in bench_kafka_load.cpp (create, delete,
// load) and bench_kafka_copy.cpp (consume, copy, watch, latency); bench_kafka.cpp documents
// the command line.
#pragma once

#include <librdkafka/rdkafka.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace benchkafka {

using Clock = std::chrono::steady_clock;

double wallMs();
int64_t wallUs();
[[noreturn]] void die(const std::string &what);

struct Args {
    std::string command, bootstrap, topic;
    std::string toBootstrap, toTopic; // copy
    int partitions = 0;
    long long records = 0;
    int size = 200;
    double rate = 0;
    long long skip = 0;
    double timeoutS = 600;
    bool committed = false; // watch: last stable offsets, not high watermarks
    int topics = 0;         // > 0: TOPIC-0 .. TOPIC-(topics-1) instead of TOPIC
    int wireId = 0;         // load: > 0, values in a registry's wire format with this schema id
};

// The command line; dies with the usage or the fault when it does not parse.
Args parse(int argc, char **argv);

// The topics a command works on: TOPIC, or with --topics T the T numbered ones.
std::vector<std::string> topicNames(const Args &a);

rd_kafka_conf_t *baseConf(const Args &a);
void set(rd_kafka_conf_t *conf, const char *k, const char *v);
rd_kafka_t *client(rd_kafka_type_t type, rd_kafka_conf_t *conf);

// Partition count of `topic`, or -1 while it does not exist.
int partitionsOf(rd_kafka_t *rk, const std::string &topic);

// Partition counts of `names` from one metadata request for all topics, -1 for each that
// does not exist (yet).
std::vector<int> partitionsOfAll(rd_kafka_t *rk, const std::vector<std::string> &names);

// Sum of high watermarks, or -1 when a partition does not answer yet.
long long highWatermarks(rd_kafka_t *rk, const std::string &topic, int partitions);

// The sum of the partitions' last stable offsets (read_committed end offsets), -1 on error.
long long lastStableOffsets(rd_kafka_t *rk, const std::string &topic, int partitions);

// The sum of the end offsets of every partition of `names` (counts[i] partitions each):
// high watermarks, or with `committed` the last stable offsets; -1 when a partition does not
// answer. One ListOffsets call per whole topics of about 1,000 partitions, all in flight at
// once: librdkafka matches each answered partition to its call's list by a linear search,
// so one call for thousands of partitions costs the square of its size.
long long endOffsetsOf(rd_kafka_t *rk, const std::vector<std::string> &names, const std::vector<int> &counts,
                       bool committed, int timeoutMs);

// Wall times at which a count passed 10% and 90% of the total, for the steady rate.
struct Progress {
    long long total = 0;
    double t10 = -1, t90 = -1, first = -1, done = -1;
    void update(long long n, double now);
    void print(const char *what, int size) const;
};

struct LoadState {
    long long acked = 0, failed = 0;
    Progress progress;
};

// The engine's producer settings (idempotent, acks=all, linger.ms=5) with room for every
// record of a run in the queue; `st` counts the delivery reports.
rd_kafka_t *benchProducer(const std::string &bootstrap, LoadState *st,
                          void (*dr)(rd_kafka_t *, const rd_kafka_message_t *, void *));

// Serves delivery reports until `sent` records are answered; dies if any failed.
void awaitDeliveries(rd_kafka_t *producer, LoadState &st, long long sent);

// The commands; each returns the process's exit code.
int cmdCreate(const Args &a);
int cmdDelete(const Args &a);
int cmdLoad(const Args &a);
int cmdConsume(const Args &a);
int cmdCopy(const Args &a);
int cmdWatch(const Args &a);
int cmdLatency(const Args &a);

} // namespace benchkafka

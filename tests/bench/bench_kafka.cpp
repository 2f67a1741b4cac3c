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
// --topics T (create, delete, load, consume, watch): the T topics TOPIC-0 .. TOPIC-(T-1)
//   instead of TOPIC (many-partitions.sh, issue 20). create and delete make one admin call
//   for all; load spreads the records round-robin over every partition of all T topics;
//   consume reads them all; watch sums the end offsets of all T, read with ListOffsets in
//   calls of whole topics of about 1,000 partitions each (librdkafka's ListOffsets costs
//   the square of a call's size, see engine/ProbeClient.cpp).
//
// Every command ends with one line of key=value pairs on stdout (times in ms since the
// epoch, rates over the 10%..90% stretch of the records) that the script parses.

#include <librdkafka/rdkafka.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double wallMs()
{
    return double(std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count()) /
           1000.0;
}

int64_t wallUs()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

[[noreturn]] void die(const std::string &what)
{
    std::fprintf(stderr, "bench_kafka: %s\n", what.c_str());
    std::exit(1);
}

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
};

// The topics a command works on: TOPIC, or with --topics T the T numbered ones.
std::vector<std::string> topicNames(const Args &a)
{
    if (a.topics <= 0)
        return {a.topic};
    std::vector<std::string> names;
    names.reserve(size_t(a.topics));
    for (int i = 0; i < a.topics; ++i)
        names.push_back(a.topic + "-" + std::to_string(i));
    return names;
}

Args parse(int argc, char **argv)
{
    if (argc < 4)
        die("usage: bench_kafka create|delete|load|consume|watch|latency|copy BOOTSTRAP TOPIC [options] (see the "
            "source's "
            "header)");
    Args a;
    a.command = argv[1];
    a.bootstrap = argv[2];
    a.topic = argv[3];
    int i = 4;
    if (a.command == "create") {
        if (argc < 5)
            die("create needs a partition count");
        a.partitions = std::atoi(argv[4]);
        i = 5;
    }
    for (; i < argc; ++i) {
        const std::string k = argv[i];
        if (i + 1 >= argc)
            die("option " + k + " needs a value");
        const char *v = argv[++i];
        if (k == "--records")
            a.records = std::atoll(v);
        else if (k == "--size")
            a.size = std::atoi(v);
        else if (k == "--rate")
            a.rate = std::atof(v);
        else if (k == "--skip")
            a.skip = std::atoll(v);
        else if (k == "--timeout")
            a.timeoutS = std::atof(v);
        else if (k == "--to")
            a.toBootstrap = v;
        else if (k == "--to-topic")
            a.toTopic = v;
        else if (k == "--committed")
            a.committed = std::atoi(v) != 0;
        else if (k == "--topics")
            a.topics = std::atoi(v);
        else
            die("unknown option " + k);
    }
    return a;
}

rd_kafka_conf_t *baseConf(const Args &a)
{
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    char err[512];
    if (rd_kafka_conf_set(conf, "bootstrap.servers", a.bootstrap.c_str(), err, sizeof err) != RD_KAFKA_CONF_OK)
        die(err);
    return conf;
}

void set(rd_kafka_conf_t *conf, const char *k, const char *v)
{
    char err[512];
    if (rd_kafka_conf_set(conf, k, v, err, sizeof err) != RD_KAFKA_CONF_OK)
        die(std::string(k) + ": " + err);
}

rd_kafka_t *client(rd_kafka_type_t type, rd_kafka_conf_t *conf)
{
    char err[512];
    rd_kafka_t *rk = rd_kafka_new(type, conf, err, sizeof err);
    if (!rk)
        die(err);
    return rk;
}

// Partition count of `topic`, or -1 while it does not exist.
int partitionsOf(rd_kafka_t *rk, const std::string &topic)
{
    rd_kafka_topic_t *rkt = rd_kafka_topic_new(rk, topic.c_str(), nullptr);
    const rd_kafka_metadata_t *md = nullptr;
    int n = -1;
    if (rd_kafka_metadata(rk, 0, rkt, &md, 5000) == RD_KAFKA_RESP_ERR_NO_ERROR) {
        if (md->topic_cnt == 1 && md->topics[0].err == RD_KAFKA_RESP_ERR_NO_ERROR && md->topics[0].partition_cnt > 0)
            n = md->topics[0].partition_cnt;
        rd_kafka_metadata_destroy(md);
    }
    rd_kafka_topic_destroy(rkt);
    return n;
}

// Sum of high watermarks, or -1 when a partition does not answer yet.
long long highWatermarks(rd_kafka_t *rk, const std::string &topic, int partitions)
{
    long long sum = 0;
    for (int p = 0; p < partitions; ++p) {
        int64_t lo = 0, hi = 0;
        if (rd_kafka_query_watermark_offsets(rk, topic.c_str(), p, &lo, &hi, 5000) != RD_KAFKA_RESP_ERR_NO_ERROR)
            return -1;
        sum += hi;
    }
    return sum;
}

// The sum of the partitions' last stable offsets (read_committed end offsets), -1 on error.
long long lastStableOffsets(rd_kafka_t *rk, const std::string &topic, int partitions)
{
    rd_kafka_topic_partition_list_t *list = rd_kafka_topic_partition_list_new(partitions);
    for (int p = 0; p < partitions; ++p)
        rd_kafka_topic_partition_list_add(list, topic.c_str(), p)->offset = RD_KAFKA_OFFSET_SPEC_LATEST;
    rd_kafka_AdminOptions_t *o = rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_LISTOFFSETS);
    rd_kafka_error_t *e = rd_kafka_AdminOptions_set_isolation_level(o, RD_KAFKA_ISOLATION_LEVEL_READ_COMMITTED);
    if (e)
        rd_kafka_error_destroy(e);
    rd_kafka_queue_t *q = rd_kafka_queue_new(rk);
    rd_kafka_ListOffsets(rk, list, o, q);
    rd_kafka_event_t *ev = rd_kafka_queue_poll(q, 5000);
    long long sum = -1;
    if (ev && !rd_kafka_event_error(ev)) {
        size_t n = 0;
        const rd_kafka_ListOffsetsResultInfo_t **infos =
            rd_kafka_ListOffsets_result_infos(rd_kafka_event_ListOffsets_result(ev), &n);
        sum = 0;
        for (size_t i = 0; i < n && sum >= 0; ++i) {
            const rd_kafka_topic_partition_t *tp = rd_kafka_ListOffsetsResultInfo_topic_partition(infos[i]);
            sum = tp->err ? -1 : sum + tp->offset;
        }
        if (n != size_t(partitions))
            sum = -1;
    }
    if (ev)
        rd_kafka_event_destroy(ev);
    rd_kafka_queue_destroy(q);
    rd_kafka_AdminOptions_destroy(o);
    rd_kafka_topic_partition_list_destroy(list);
    return sum;
}

// Partition counts of `names` from one metadata request for all topics, -1 for each that
// does not exist (yet).
std::vector<int> partitionsOfAll(rd_kafka_t *rk, const std::vector<std::string> &names)
{
    std::vector<int> counts(names.size(), -1);
    const rd_kafka_metadata_t *md = nullptr;
    if (rd_kafka_metadata(rk, 1, nullptr, &md, 10000) != RD_KAFKA_RESP_ERR_NO_ERROR)
        return counts;
    std::unordered_map<std::string, int> found;
    for (int i = 0; i < md->topic_cnt; ++i)
        if (md->topics[i].err == RD_KAFKA_RESP_ERR_NO_ERROR && md->topics[i].partition_cnt > 0)
            found[md->topics[i].topic] = md->topics[i].partition_cnt;
    rd_kafka_metadata_destroy(md);
    for (size_t i = 0; i < names.size(); ++i)
        if (auto it = found.find(names[i]); it != found.end())
            counts[i] = it->second;
    return counts;
}

// The sum of the end offsets of every partition of `names` (counts[i] partitions each):
// high watermarks, or with `committed` the last stable offsets; -1 when a partition does not
// answer. One ListOffsets call per whole topics of about 1,000 partitions, all in flight at
// once: librdkafka matches each answered partition to its call's list by a linear search,
// so one call for thousands of partitions costs the square of its size.
long long endOffsetsOf(rd_kafka_t *rk, const std::vector<std::string> &names, const std::vector<int> &counts,
                       bool committed, int timeoutMs)
{
    constexpr int kChunk = 1000;
    rd_kafka_queue_t *q = rd_kafka_queue_new(rk);
    std::vector<rd_kafka_topic_partition_list_t *> lists;
    std::vector<rd_kafka_AdminOptions_t *> options;
    size_t first = 0;
    long long asked = 0;
    while (first < names.size()) {
        rd_kafka_topic_partition_list_t *list = rd_kafka_topic_partition_list_new(kChunk);
        while (first < names.size() && (list->cnt == 0 || list->cnt + counts[first] <= kChunk)) {
            for (int p = 0; p < counts[first]; ++p)
                rd_kafka_topic_partition_list_add(list, names[first].c_str(), p)->offset = RD_KAFKA_OFFSET_SPEC_LATEST;
            ++first;
        }
        rd_kafka_AdminOptions_t *o = rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_LISTOFFSETS);
        char err[256];
        rd_kafka_AdminOptions_set_request_timeout(o, timeoutMs, err, sizeof err);
        if (committed) {
            if (rd_kafka_error_t *e =
                    rd_kafka_AdminOptions_set_isolation_level(o, RD_KAFKA_ISOLATION_LEVEL_READ_COMMITTED))
                rd_kafka_error_destroy(e);
        }
        rd_kafka_ListOffsets(rk, list, o, q);
        asked += list->cnt;
        lists.push_back(list);
        options.push_back(o);
    }
    long long sum = 0, answered = 0;
    for (size_t i = 0; i < lists.size() && sum >= 0; ++i) {
        rd_kafka_event_t *ev = rd_kafka_queue_poll(q, timeoutMs + 1000);
        if (!ev || rd_kafka_event_error(ev) || !rd_kafka_event_ListOffsets_result(ev)) {
            sum = -1;
        } else {
            size_t n = 0;
            const rd_kafka_ListOffsetsResultInfo_t **infos =
                rd_kafka_ListOffsets_result_infos(rd_kafka_event_ListOffsets_result(ev), &n);
            for (size_t j = 0; j < n && sum >= 0; ++j) {
                const rd_kafka_topic_partition_t *tp = rd_kafka_ListOffsetsResultInfo_topic_partition(infos[j]);
                sum = tp->err ? -1 : sum + tp->offset;
            }
            answered += (long long)n;
        }
        if (ev)
            rd_kafka_event_destroy(ev);
    }
    if (answered != asked)
        sum = -1;
    rd_kafka_queue_destroy(q); // a late answer goes with it
    for (rd_kafka_AdminOptions_t *o : options)
        rd_kafka_AdminOptions_destroy(o);
    for (rd_kafka_topic_partition_list_t *l : lists)
        rd_kafka_topic_partition_list_destroy(l);
    return sum;
}

// Wall times at which a count passed 10% and 90% of the total, for the steady rate.
struct Progress {
    long long total = 0;
    double t10 = -1, t90 = -1, first = -1, done = -1;
    void update(long long n, double now)
    {
        if (n > 0 && first < 0)
            first = now;
        if (t10 < 0 && n * 10 >= total)
            t10 = now;
        if (t90 < 0 && n * 10 >= total * 9)
            t90 = now;
        if (done < 0 && n >= total)
            done = now;
    }
    void print(const char *what, int size) const
    {
        const double span = (t90 - t10) / 1000.0;
        const double rate = span > 0 ? double(total) * 0.8 / span : 0;
        std::printf("RESULT %s records=%lld first_ms=%.1f t10_ms=%.1f t90_ms=%.1f done_ms=%.1f steady_rps=%.0f "
                    "steady_mbps=%.2f\n",
                    what, total, first, t10, t90, done, rate, rate * double(size) / 1e6);
        std::fflush(stdout);
    }
};

int cmdCreate(const Args &a)
{
    rd_kafka_t *rk = client(RD_KAFKA_PRODUCER, baseConf(a));
    const std::vector<std::string> names = topicNames(a);
    std::vector<rd_kafka_NewTopic_t *> nts;
    for (const std::string &name : names)
        nts.push_back(rd_kafka_NewTopic_new(name.c_str(), a.partitions, 1, nullptr, 0));
    rd_kafka_queue_t *q = rd_kafka_queue_new(rk);
    rd_kafka_CreateTopics(rk, nts.data(), nts.size(), nullptr, q);
    rd_kafka_event_t *ev = rd_kafka_queue_poll(q, 30000 + 100 * int(names.size()));
    if (!ev)
        die("CreateTopics timed out");
    const rd_kafka_CreateTopics_result_t *res = rd_kafka_event_CreateTopics_result(ev);
    size_t n = 0;
    const rd_kafka_topic_result_t **tr = res ? rd_kafka_CreateTopics_result_topics(res, &n) : nullptr;
    if (rd_kafka_event_error(ev))
        die(std::string("CreateTopics: ") + rd_kafka_event_error_string(ev));
    for (size_t i = 0; i < n; ++i)
        if (rd_kafka_topic_result_error(tr[i]))
            die(std::string("CreateTopics: ") + rd_kafka_topic_result_name(tr[i]) + ": " +
                rd_kafka_topic_result_error_string(tr[i]));
    rd_kafka_event_destroy(ev);
    rd_kafka_queue_destroy(q);
    for (rd_kafka_NewTopic_t *nt : nts)
        rd_kafka_NewTopic_destroy(nt);
    // KRaft: a fresh topic may not answer ListOffsets for a moment.
    const auto deadline = Clock::now() + std::chrono::seconds(30 + int(names.size()) / 10);
    const auto ready = [&] {
        if (a.topics <= 0)
            return partitionsOf(rk, a.topic) == a.partitions && highWatermarks(rk, a.topic, a.partitions) >= 0;
        const std::vector<int> counts = partitionsOfAll(rk, names);
        return std::all_of(counts.begin(), counts.end(), [&](int c) { return c == a.partitions; }) &&
               endOffsetsOf(rk, names, counts, false, 5000) >= 0;
    };
    while (!ready()) {
        if (Clock::now() > deadline)
            die("topic " + a.topic + (a.topics > 0 ? "-*" : "") + " did not become ready");
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    rd_kafka_destroy(rk);
    if (a.topics > 0)
        std::printf("RESULT create topic=%s topics=%d partitions=%d\n", a.topic.c_str(), a.topics, a.partitions);
    else
        std::printf("RESULT create topic=%s partitions=%d\n", a.topic.c_str(), a.partitions);
    return 0;
}

int cmdDelete(const Args &a)
{
    rd_kafka_t *rk = client(RD_KAFKA_PRODUCER, baseConf(a));
    const std::vector<std::string> names = topicNames(a);
    std::vector<rd_kafka_DeleteTopic_t *> dts;
    for (const std::string &name : names)
        dts.push_back(rd_kafka_DeleteTopic_new(name.c_str()));
    rd_kafka_queue_t *q = rd_kafka_queue_new(rk);
    rd_kafka_DeleteTopics(rk, dts.data(), dts.size(), nullptr, q);
    rd_kafka_event_t *ev = rd_kafka_queue_poll(q, 30000 + 100 * int(names.size()));
    if (!ev)
        die("DeleteTopics timed out");
    const rd_kafka_DeleteTopics_result_t *res = rd_kafka_event_DeleteTopics_result(ev);
    size_t n = 0;
    const rd_kafka_topic_result_t **tr = res ? rd_kafka_DeleteTopics_result_topics(res, &n) : nullptr;
    if (rd_kafka_event_error(ev))
        die(std::string("DeleteTopics: ") + rd_kafka_event_error_string(ev));
    for (size_t i = 0; i < n; ++i)
        if (rd_kafka_topic_result_error(tr[i]))
            die(std::string("DeleteTopics: ") + rd_kafka_topic_result_name(tr[i]) + ": " +
                rd_kafka_topic_result_error_string(tr[i]));
    rd_kafka_event_destroy(ev);
    rd_kafka_queue_destroy(q);
    for (rd_kafka_DeleteTopic_t *dt : dts)
        rd_kafka_DeleteTopic_destroy(dt);
    rd_kafka_destroy(rk);
    if (a.topics > 0)
        std::printf("RESULT delete topic=%s topics=%d\n", a.topic.c_str(), a.topics);
    else
        std::printf("RESULT delete topic=%s\n", a.topic.c_str());
    return 0;
}

struct LoadState {
    long long acked = 0, failed = 0;
    Progress progress;
};

void onDelivery(rd_kafka_t *, const rd_kafka_message_t *m, void *opaque)
{
    auto *s = static_cast<LoadState *>(opaque);
    if (m->err) {
        ++s->failed;
        return;
    }
    ++s->acked;
}

// The engine's producer settings (idempotent, acks=all, linger.ms=5) with room for every
// record of a run in the queue; `st` counts the delivery reports.
rd_kafka_t *benchProducer(const std::string &bootstrap, LoadState *st,
                          void (*dr)(rd_kafka_t *, const rd_kafka_message_t *, void *))
{
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    set(conf, "bootstrap.servers", bootstrap.c_str());
    set(conf, "enable.idempotence", "true");
    set(conf, "acks", "all");
    set(conf, "linger.ms", "5");
    set(conf, "queue.buffering.max.messages", "1000000");
    rd_kafka_conf_set_opaque(conf, st);
    rd_kafka_conf_set_dr_msg_cb(conf, dr);
    return client(RD_KAFKA_PRODUCER, conf);
}

// Serves delivery reports until `sent` records are answered; dies if any failed.
void awaitDeliveries(rd_kafka_t *producer, LoadState &st, long long sent)
{
    while (st.acked + st.failed < sent) {
        rd_kafka_poll(producer, 5);
        st.progress.update(st.acked, wallMs());
    }
    if (st.failed)
        die(std::to_string(st.failed) + " records failed");
}

int cmdLoad(const Args &a)
{
    if (a.records <= 0 || a.size < 8)
        die("load needs --records > 0 and --size >= 8");
    LoadState st;
    st.progress.total = a.records;
    rd_kafka_t *rk = benchProducer(a.bootstrap, &st, &onDelivery);
    // Every partition of every topic, round-robin.
    const std::vector<std::string> names = topicNames(a);
    const std::vector<int> counts =
        a.topics > 0 ? partitionsOfAll(rk, names) : std::vector<int>{partitionsOf(rk, a.topic)};
    std::vector<rd_kafka_topic_t *> rkts;
    std::vector<std::pair<rd_kafka_topic_t *, int>> slots;
    for (size_t i = 0; i < names.size(); ++i) {
        if (counts[i] <= 0)
            die("topic " + names[i] + " does not exist");
        rkts.push_back(rd_kafka_topic_new(rk, names[i].c_str(), nullptr));
        for (int p = 0; p < counts[i]; ++p)
            slots.emplace_back(rkts.back(), p);
    }

    std::vector<char> value(size_t(a.size), 'x');
    for (size_t i = 8; i < value.size(); ++i)
        value[i] = char('a' + i % 26);
    const double start = wallMs();
    const auto t0 = Clock::now();
    long long sent = 0;
    while (sent < a.records) {
        if (a.rate > 0) {
            // Paced: as many records as the elapsed time allows, then a short sleep.
            const double elapsed = std::chrono::duration<double>(Clock::now() - t0).count();
            const long long allowed = std::min(a.records, (long long)(elapsed * a.rate) + 1);
            if (sent >= allowed) {
                rd_kafka_poll(rk, 0);
                std::this_thread::sleep_for(std::chrono::microseconds(200));
                st.progress.update(st.acked, wallMs());
                continue;
            }
        }
        const int64_t now = wallUs();
        std::memcpy(value.data(), &now, 8);
        char key[24];
        const int keyLen = std::snprintf(key, sizeof key, "k%lld", sent);
        const auto &[rkt, partition] = slots[size_t(sent % (long long)slots.size())];
        if (rd_kafka_produce(rkt, partition, RD_KAFKA_MSG_F_COPY, value.data(), value.size(), key, size_t(keyLen),
                             nullptr) != 0) {
            if (rd_kafka_last_error() == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
                rd_kafka_poll(rk, 5);
                st.progress.update(st.acked, wallMs());
                continue;
            }
            die(std::string("produce: ") + rd_kafka_err2str(rd_kafka_last_error()));
        }
        ++sent;
        if ((sent & 1023) == 0) {
            rd_kafka_poll(rk, 0);
            st.progress.update(st.acked, wallMs());
        }
    }
    awaitDeliveries(rk, st, a.records);
    const double end = wallMs();
    for (rd_kafka_topic_t *rkt : rkts)
        rd_kafka_topic_destroy(rkt);
    rd_kafka_destroy(rk);
    st.progress.print("load", a.size);
    std::printf("RESULT load_total start_ms=%.1f end_ms=%.1f rps=%.0f\n", start, end,
                double(a.records) / ((end - start) / 1000.0));
    return 0;
}

rd_kafka_t *assignedConsumer(const Args &a, int *partsOut, const char *fetchWait)
{
    rd_kafka_conf_t *conf = baseConf(a);
    set(conf, "group.id", "bench-kafka-unused"); // required by librdkafka; nothing is committed
    set(conf, "enable.auto.commit", "false");
    set(conf, "enable.auto.offset.store", "false");
    if (fetchWait)
        set(conf, "fetch.wait.max.ms", fetchWait);
    // As MirrorDesk's consumers: fetch again 10 ms after a full prefetch queue, not 1 s.
    set(conf, "fetch.queue.backoff.ms", "10");
    rd_kafka_t *rk = client(RD_KAFKA_CONSUMER, conf);
    rd_kafka_poll_set_consumer(rk);
    const std::vector<std::string> names = topicNames(a);
    std::vector<int> counts;
    const auto deadline = Clock::now() + std::chrono::seconds(int(a.timeoutS));
    for (;;) {
        counts = a.topics > 0 ? partitionsOfAll(rk, names) : std::vector<int>{partitionsOf(rk, a.topic)};
        if (std::all_of(counts.begin(), counts.end(), [](int c) { return c > 0; }))
            break;
        if (Clock::now() > deadline)
            die("topic " + a.topic + (a.topics > 0 ? "-*" : "") + " never appeared");
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    int parts = 0;
    for (int c : counts)
        parts += c;
    rd_kafka_topic_partition_list_t *list = rd_kafka_topic_partition_list_new(parts);
    for (size_t i = 0; i < names.size(); ++i)
        for (int p = 0; p < counts[i]; ++p)
            rd_kafka_topic_partition_list_add(list, names[i].c_str(), p)->offset = RD_KAFKA_OFFSET_BEGINNING;
    if (rd_kafka_assign(rk, list) != RD_KAFKA_RESP_ERR_NO_ERROR)
        die("assign failed");
    rd_kafka_topic_partition_list_destroy(list);
    *partsOut = parts;
    return rk;
}

int cmdConsume(const Args &a)
{
    if (a.records <= 0)
        die("consume needs --records > 0");
    const double start = wallMs();
    int parts = 0;
    rd_kafka_t *rk = assignedConsumer(a, &parts, nullptr);
    Progress pr;
    pr.total = a.records;
    long long n = 0, bytes = 0;
    const auto deadline = Clock::now() + std::chrono::seconds(int(a.timeoutS));
    while (n < a.records) {
        if (Clock::now() > deadline)
            die("timed out after " + std::to_string(n) + " records");
        rd_kafka_message_t *m = rd_kafka_consumer_poll(rk, 100);
        if (!m)
            continue;
        if (!m->err) {
            ++n;
            bytes += long(m->len);
            if ((n & 255) == 0 || n == a.records)
                pr.update(n, wallMs());
        }
        rd_kafka_message_destroy(m);
    }
    pr.update(n, wallMs());
    const double end = wallMs();
    rd_kafka_consumer_close(rk);
    rd_kafka_destroy(rk);
    pr.print("consume", a.size);
    std::printf("RESULT consume_total start_ms=%.1f end_ms=%.1f bytes=%lld\n", start, end, bytes);
    return 0;
}

void onCopyDelivery(rd_kafka_t *, const rd_kafka_message_t *m, void *opaque)
{
    auto *s = static_cast<LoadState *>(opaque);
    ++(m->err ? s->failed : s->acked);
    rd_kafka_message_destroy(static_cast<rd_kafka_message_t *>(m->_private)); // the source record
}

int cmdCopy(const Args &a)
{
    if (a.records <= 0 || a.toBootstrap.empty() || a.toTopic.empty())
        die("copy needs --records > 0, --to BOOTSTRAP and --to-topic TOPIC");
    const double start = wallMs();
    LoadState st;
    st.progress.total = a.records;
    rd_kafka_t *producer = benchProducer(a.toBootstrap, &st, &onCopyDelivery);
    rd_kafka_topic_t *rkt = rd_kafka_topic_new(producer, a.toTopic.c_str(), nullptr);
    int parts = 0;
    rd_kafka_t *consumer = assignedConsumer(a, &parts, nullptr);
    if (partitionsOf(producer, a.toTopic) < parts)
        die("target topic " + a.toTopic + " needs at least " + std::to_string(parts) + " partitions");
    long long sent = 0;
    const auto deadline = Clock::now() + std::chrono::seconds(int(a.timeoutS));
    rd_kafka_message_t *pending = nullptr; // consumed, refused by a full producer queue
    while (sent < a.records) {
        if (Clock::now() > deadline)
            die("timed out after " + std::to_string(sent) + " records");
        rd_kafka_message_t *m = pending ? pending : rd_kafka_consumer_poll(consumer, sent > st.acked ? 1 : 100);
        pending = nullptr;
        if (!m)
            continue;
        if (m->err) {
            rd_kafka_message_destroy(m);
            continue;
        }
        rd_kafka_headers_t *hdrs = nullptr;
        if (rd_kafka_message_detach_headers(m, &hdrs) != RD_KAFKA_RESP_ERR_NO_ERROR)
            hdrs = nullptr;
        const int64_t ts = rd_kafka_message_timestamp(m, nullptr);
        const rd_kafka_resp_err_t err = rd_kafka_producev(
            producer, RD_KAFKA_V_RKT(rkt), RD_KAFKA_V_PARTITION(m->partition), RD_KAFKA_V_VALUE(m->payload, m->len),
            RD_KAFKA_V_KEY(m->key, m->key_len), RD_KAFKA_V_TIMESTAMP(ts > 0 ? ts : 0), RD_KAFKA_V_OPAQUE(m),
            RD_KAFKA_V_HEADERS(hdrs), RD_KAFKA_V_END);
        if (err) {
            if (hdrs)
                rd_kafka_message_set_headers(m, hdrs); // not taken: back to the message
            if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL)
                die(std::string("produce: ") + rd_kafka_err2str(err));
            pending = m;
            rd_kafka_poll(producer, 5);
            continue;
        }
        if ((++sent & 255) == 0) {
            rd_kafka_poll(producer, 0);
            st.progress.update(st.acked, wallMs());
        }
    }
    awaitDeliveries(producer, st, sent);
    const double end = wallMs();
    rd_kafka_consumer_close(consumer);
    rd_kafka_destroy(consumer);
    rd_kafka_topic_destroy(rkt);
    rd_kafka_destroy(producer);
    st.progress.print("copy", a.size);
    std::printf("RESULT copy_total start_ms=%.1f end_ms=%.1f\n", start, end);
    return 0;
}

int cmdWatch(const Args &a)
{
    if (a.records <= 0)
        die("watch needs --records > 0");
    const double start = wallMs();
    rd_kafka_t *rk = client(RD_KAFKA_PRODUCER, baseConf(a));
    Progress pr;
    pr.total = a.records;
    const auto deadline = Clock::now() + std::chrono::seconds(int(a.timeoutS));
    int parts = -1;
    const std::vector<std::string> names = topicNames(a);
    std::vector<int> counts;
    long long n = 0;
    while (n < a.records) {
        if (Clock::now() > deadline) {
            std::fprintf(stderr, "bench_kafka watch: timed out at %lld of %lld records\n", n, a.records);
            pr.print("watch_timeout", a.size);
            return 2;
        }
        const auto next = Clock::now() + std::chrono::milliseconds(100);
        if (a.topics > 0) {
            // All topics once they all exist (a mirror creates them before it copies).
            if (counts.empty() || std::any_of(counts.begin(), counts.end(), [](int c) { return c <= 0; }))
                counts = partitionsOfAll(rk, names);
            if (std::all_of(counts.begin(), counts.end(), [](int c) { return c > 0; })) {
                const long long hw = endOffsetsOf(rk, names, counts, a.committed, 5000);
                if (hw >= 0) {
                    n = hw;
                    pr.update(n, wallMs());
                }
            }
        } else if (parts <= 0) {
            parts = partitionsOf(rk, a.topic);
        }
        if (a.topics <= 0 && parts > 0) {
            const long long hw =
                a.committed ? lastStableOffsets(rk, a.topic, parts) : highWatermarks(rk, a.topic, parts);
            if (hw >= 0) {
                n = hw;
                pr.update(n, wallMs());
            }
        }
        std::this_thread::sleep_until(next);
    }
    rd_kafka_destroy(rk);
    pr.print("watch", a.size);
    std::printf("RESULT watch_total start_ms=%.1f\n", start);
    return 0;
}

int cmdLatency(const Args &a)
{
    if (a.records <= 0)
        die("latency needs --records > 0");
    int parts = 0;
    // A short fetch wait: this probe must not add its own long-poll delay.
    rd_kafka_t *rk = assignedConsumer(a, &parts, "10");
    std::vector<double> lat;
    lat.reserve(size_t(a.records));
    long long n = 0;
    auto deadline = Clock::now() + std::chrono::seconds(int(a.timeoutS));
    while (n < a.records) {
        if (Clock::now() > deadline) {
            std::fprintf(stderr, "bench_kafka latency: timed out at %lld of %lld records\n", n, a.records);
            break;
        }
        rd_kafka_message_t *m = rd_kafka_consumer_poll(rk, 100);
        if (!m)
            continue;
        if (!m->err && m->len >= 8) {
            int64_t sent = 0;
            std::memcpy(&sent, m->payload, 8);
            if (n++ >= a.skip)
                lat.push_back(double(wallUs() - sent) / 1000.0);
        }
        rd_kafka_message_destroy(m);
    }
    rd_kafka_consumer_close(rk);
    rd_kafka_destroy(rk);
    std::sort(lat.begin(), lat.end());
    auto q = [&](double p) {
        return lat.empty() ? -1.0 : lat[std::min(lat.size() - 1, size_t(p * double(lat.size() - 1) + 0.5))];
    };
    std::printf("RESULT latency records=%lld measured=%zu p50_ms=%.2f p99_ms=%.2f p999_ms=%.2f max_ms=%.2f\n", n,
                lat.size(), q(0.5), q(0.99), q(0.999), lat.empty() ? -1.0 : lat.back());
    return n >= a.records ? 0 : 2;
}

} // namespace

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

// Load generator, limit probes and target watcher for tests/bench/mm2-compare.sh (issue 7).
//
//   bench_kafka create  BOOTSTRAP TOPIC PARTITIONS
//   bench_kafka delete  BOOTSTRAP TOPIC
//   bench_kafka load    BOOTSTRAP TOPIC --records N --size BYTES [--rate R]
//   bench_kafka consume BOOTSTRAP TOPIC --records N
//   bench_kafka watch   BOOTSTRAP TOPIC --records N [--timeout S] [--committed 1]
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
};

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
    rd_kafka_NewTopic_t *nt = rd_kafka_NewTopic_new(a.topic.c_str(), a.partitions, 1, nullptr, 0);
    rd_kafka_queue_t *q = rd_kafka_queue_new(rk);
    rd_kafka_CreateTopics(rk, &nt, 1, nullptr, q);
    rd_kafka_event_t *ev = rd_kafka_queue_poll(q, 30000);
    if (!ev)
        die("CreateTopics timed out");
    const rd_kafka_CreateTopics_result_t *res = rd_kafka_event_CreateTopics_result(ev);
    size_t n = 0;
    const rd_kafka_topic_result_t **tr = res ? rd_kafka_CreateTopics_result_topics(res, &n) : nullptr;
    if (rd_kafka_event_error(ev))
        die(std::string("CreateTopics: ") + rd_kafka_event_error_string(ev));
    if (n == 1 && rd_kafka_topic_result_error(tr[0]))
        die(std::string("CreateTopics: ") + rd_kafka_topic_result_error_string(tr[0]));
    rd_kafka_event_destroy(ev);
    rd_kafka_queue_destroy(q);
    rd_kafka_NewTopic_destroy(nt);
    // KRaft: a fresh topic may not answer ListOffsets for a moment.
    const auto deadline = Clock::now() + std::chrono::seconds(30);
    while (partitionsOf(rk, a.topic) != a.partitions || highWatermarks(rk, a.topic, a.partitions) < 0) {
        if (Clock::now() > deadline)
            die("topic " + a.topic + " did not become ready");
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    rd_kafka_destroy(rk);
    std::printf("RESULT create topic=%s partitions=%d\n", a.topic.c_str(), a.partitions);
    return 0;
}

int cmdDelete(const Args &a)
{
    rd_kafka_t *rk = client(RD_KAFKA_PRODUCER, baseConf(a));
    rd_kafka_DeleteTopic_t *dt = rd_kafka_DeleteTopic_new(a.topic.c_str());
    rd_kafka_queue_t *q = rd_kafka_queue_new(rk);
    rd_kafka_DeleteTopics(rk, &dt, 1, nullptr, q);
    rd_kafka_event_t *ev = rd_kafka_queue_poll(q, 30000);
    if (!ev)
        die("DeleteTopics timed out");
    const rd_kafka_DeleteTopics_result_t *res = rd_kafka_event_DeleteTopics_result(ev);
    size_t n = 0;
    const rd_kafka_topic_result_t **tr = res ? rd_kafka_DeleteTopics_result_topics(res, &n) : nullptr;
    if (rd_kafka_event_error(ev))
        die(std::string("DeleteTopics: ") + rd_kafka_event_error_string(ev));
    if (n == 1 && rd_kafka_topic_result_error(tr[0]))
        die(std::string("DeleteTopics: ") + rd_kafka_topic_result_error_string(tr[0]));
    rd_kafka_event_destroy(ev);
    rd_kafka_queue_destroy(q);
    rd_kafka_DeleteTopic_destroy(dt);
    rd_kafka_destroy(rk);
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
    const int parts = partitionsOf(rk, a.topic);
    if (parts <= 0)
        die("topic " + a.topic + " does not exist");
    rd_kafka_topic_t *rkt = rd_kafka_topic_new(rk, a.topic.c_str(), nullptr);

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
        const int partition = int(sent % parts);
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
    int parts = -1;
    const auto deadline = Clock::now() + std::chrono::seconds(int(a.timeoutS));
    while ((parts = partitionsOf(rk, a.topic)) <= 0) {
        if (Clock::now() > deadline)
            die("topic " + a.topic + " never appeared");
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    rd_kafka_topic_partition_list_t *list = rd_kafka_topic_partition_list_new(parts);
    for (int p = 0; p < parts; ++p)
        rd_kafka_topic_partition_list_add(list, a.topic.c_str(), p)->offset = RD_KAFKA_OFFSET_BEGINNING;
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
    long long n = 0;
    while (n < a.records) {
        if (Clock::now() > deadline) {
            std::fprintf(stderr, "bench_kafka watch: timed out at %lld of %lld records\n", n, a.records);
            pr.print("watch_timeout", a.size);
            return 2;
        }
        const auto next = Clock::now() + std::chrono::milliseconds(100);
        if (parts <= 0)
            parts = partitionsOf(rk, a.topic);
        if (parts > 0) {
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

// bench_kafka consume, copy, watch and latency: the commands that read a topic (the
// source-alone limit, the bare copy loop, the target watcher, the latency probe; the command
// line is in bench_kafka.cpp).

#include "bench_kafka_common.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace benchkafka {

namespace {

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

void onCopyDelivery(rd_kafka_t *, const rd_kafka_message_t *m, void *opaque)
{
    auto *s = static_cast<LoadState *>(opaque);
    ++(m->err ? s->failed : s->acked);
    rd_kafka_message_destroy(static_cast<rd_kafka_message_t *>(m->_private)); // the source record
}

} // namespace

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

} // namespace benchkafka

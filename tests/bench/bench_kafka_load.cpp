// bench_kafka create, delete and load: a run's topics, and the load generator whose values
// carry their send time (the command line is in bench_kafka.cpp).

#include "bench_kafka_common.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace benchkafka {

namespace {

void onDelivery(rd_kafka_t *, const rd_kafka_message_t *m, void *opaque)
{
    auto *s = static_cast<LoadState *>(opaque);
    if (m->err) {
        ++s->failed;
        return;
    }
    ++s->acked;
}

} // namespace

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
    // With --wire-id the send time follows the 5-byte wire-format prefix.
    const size_t timeAt = a.wireId > 0 ? 5 : 0;
    if (a.wireId > 0) {
        if (a.size < 13)
            die("--wire-id needs --size >= 13 (prefix and send time)");
        value[0] = 0;
        for (int i = 0; i < 4; ++i)
            value[size_t(1 + i)] = char((unsigned(a.wireId) >> (24 - 8 * i)) & 0xff);
    }
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
        std::memcpy(value.data() + timeAt, &now, 8);
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

} // namespace benchkafka

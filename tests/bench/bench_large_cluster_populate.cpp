// bench_large_cluster populate: fills a real cluster for the browse measurement (issue 20).
// Raw librdkafka, no engine code: what it measures is the broker, not MirrorDesk.

#include "bench_large_cluster.h"

#include "engine/core/KafkaHandles.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace md::bench {

namespace {

// Creating 500 topics is a few thousand metadata records for the controller: allow minutes
// on a loaded machine rather than fail half-way.
constexpr int kCreateTimeoutMs = 180'000;

KafkaPtr makeClient(const QString &bootstrap, std::initializer_list<std::pair<const char *, const char *>> props)
{
    char errstr[512];
    KafkaConfPtr conf(rd_kafka_conf_new());
    rd_kafka_conf_set(conf.get(), "bootstrap.servers", bootstrap.toUtf8().constData(), errstr, sizeof errstr);
    for (const auto &[key, value] : props) {
        if (rd_kafka_conf_set(conf.get(), key, value, errstr, sizeof errstr) != RD_KAFKA_CONF_OK) {
            std::fprintf(stderr, "bench: %s\n", errstr);
            return nullptr;
        }
    }
    KafkaPtr rk(rd_kafka_new(RD_KAFKA_PRODUCER, conf.get(), errstr, sizeof errstr));
    if (!rk) {
        std::fprintf(stderr, "bench: %s\n", errstr);
        return nullptr;
    }
    (void)conf.release(); // rd_kafka_new took it
    return rk;
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// One CreateTopics request per batch, waited for; returns false on any error but "exists".
bool createTopics(rd_kafka_t *rk, const PopulateOptions &o)
{
    QueuePtr queue(rd_kafka_queue_new(rk));
    std::vector<double> batchMs;
    QElapsedTimer total;
    total.start();
    int existed = 0;
    for (int first = 0; first < o.topics; first += o.batch) {
        const int n = std::min(o.batch, o.topics - first);
        std::vector<NewTopicPtr> owned;
        std::vector<rd_kafka_NewTopic_t *> raw;
        char errstr[512];
        for (int t = first; t < first + n; ++t) {
            owned.emplace_back(rd_kafka_NewTopic_new(topicName(t).constData(), o.partitions, 1, errstr, sizeof errstr));
            raw.push_back(owned.back().get());
        }
        AdminOptionsPtr options(rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_CREATETOPICS));
        rd_kafka_AdminOptions_set_operation_timeout(options.get(), kCreateTimeoutMs, errstr, sizeof errstr);
        rd_kafka_AdminOptions_set_request_timeout(options.get(), kCreateTimeoutMs + 10'000, errstr, sizeof errstr);
        QElapsedTimer batch;
        batch.start();
        rd_kafka_CreateTopics(rk, raw.data(), raw.size(), options.get(), queue.get());
        EventPtr ev(rd_kafka_queue_poll(queue.get(), kCreateTimeoutMs + 20'000));
        batchMs.push_back(double(batch.nsecsElapsed()) / 1e6);
        if (!ev || rd_kafka_event_error(ev.get())) {
            std::printf("FAIL: CreateTopics of topics %d..%d: %s\n", first, first + n - 1,
                        ev ? rd_kafka_event_error_string(ev.get()) : "no answer");
            return false;
        }
        size_t count = 0;
        const rd_kafka_topic_result_t **results =
            rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev.get()), &count);
        for (size_t i = 0; i < count; ++i) {
            const rd_kafka_resp_err_t err = rd_kafka_topic_result_error(results[i]);
            if (err == RD_KAFKA_RESP_ERR_TOPIC_ALREADY_EXISTS) {
                ++existed;
            } else if (err) {
                std::printf("FAIL: creating %s: %s\n", rd_kafka_topic_result_name(results[i]),
                            rd_kafka_topic_result_error_string(results[i]));
                return false;
            }
        }
        if (o.progress)
            std::printf("  created %d of %d topics (batch %.0f ms)\n", first + n, o.topics, batchMs.back());
    }
    const double seconds = double(total.elapsed()) / 1000.0;
    std::printf("create: %d topics x %d partitions in %zu requests of %d in %.1f s (%.0f topics/s; batch median "
                "%.0f ms, max %.0f ms; %d existed)\n",
                o.topics, o.partitions, batchMs.size(), o.batch, seconds, double(o.topics) / seconds, median(batchMs),
                *std::max_element(batchMs.begin(), batchMs.end()), existed);
    std::printf("RESULT populate create_s=%.1f batch=%d batch_median_ms=%.0f batch_max_ms=%.0f\n", seconds, o.batch,
                median(batchMs), *std::max_element(batchMs.begin(), batchMs.end()));
    return true;
}

// Until every topic is in the metadata with a leader for each partition (the brokers learn
// of new partitions from the controller a little after CreateTopics answers).
bool waitForLeaders(rd_kafka_t *rk, const PopulateOptions &o)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 300'000) {
        const rd_kafka_metadata_t *raw = nullptr;
        if (rd_kafka_metadata(rk, 1, nullptr, &raw, 30'000) == RD_KAFKA_RESP_ERR_NO_ERROR) {
            MetadataPtr md(raw);
            int ready = 0;
            for (int i = 0; i < md->topic_cnt; ++i) {
                const auto &topic = md->topics[i];
                if (topic.err || !QByteArray(topic.topic).startsWith(kTopicPrefix))
                    continue;
                bool led = topic.partition_cnt == o.partitions;
                for (int p = 0; led && p < topic.partition_cnt; ++p)
                    led = topic.partitions[p].leader >= 0 && !topic.partitions[p].err;
                ready += led ? 1 : 0;
            }
            if (ready >= o.topics) {
                std::printf("leaders: every partition led %.1f s after the last CreateTopics answered\n",
                            double(t.elapsed()) / 1000.0);
                return true;
            }
        }
        rd_kafka_poll(rk, 500);
    }
    std::printf("FAIL: not every partition had a leader within 300 s\n");
    return false;
}

bool produceRecords(rd_kafka_t *rk, const PopulateOptions &o)
{
    QElapsedTimer t;
    t.start();
    const QByteArray value(64, 'x');
    qint64 sent = 0;
    for (int topic = 0; topic < o.topics; ++topic) {
        // A handle per topic: producing by name looks the topic up in a list, which
        // over 10,000 topics took minutes of CPU.
        TopicPtr handle(rd_kafka_topic_new(rk, topicName(topic).constData(), nullptr));
        for (int p = 0; p < o.partitions; ++p) {
            for (int r = 0; r < o.records; ++r) {
                while (rd_kafka_produce(handle.get(), p, RD_KAFKA_MSG_F_COPY, const_cast<char *>(value.constData()),
                                        size_t(value.size()), nullptr, 0, nullptr) != 0) {
                    const rd_kafka_resp_err_t err = rd_kafka_last_error();
                    if (err != RD_KAFKA_RESP_ERR__QUEUE_FULL) {
                        std::printf("FAIL: produce to %s: %s\n", rd_kafka_topic_name(handle.get()),
                                    rd_kafka_err2str(err));
                        return false;
                    }
                    rd_kafka_poll(rk, 50);
                }
                ++sent;
            }
        }
        rd_kafka_poll(rk, 0);
    }
    if (rd_kafka_flush(rk, 300'000)) {
        std::printf("FAIL: records not delivered within 300 s\n");
        return false;
    }
    std::printf("produce: %lld records of 64 B (%d per partition) in %.1f s\n", static_cast<long long>(sent), o.records,
                double(t.elapsed()) / 1000.0);
    return true;
}

// The first error in an AlterConsumerGroupOffsets answer: the request's, the group's or a
// partition's (a coordinator still loading fails the partitions, not the request).
QByteArray alterError(rd_kafka_event_t *ev)
{
    if (rd_kafka_event_error(ev))
        return rd_kafka_event_error_string(ev);
    size_t n = 0;
    const rd_kafka_group_result_t **groups =
        rd_kafka_AlterConsumerGroupOffsets_result_groups(rd_kafka_event_AlterConsumerGroupOffsets_result(ev), &n);
    for (size_t g = 0; g < n; ++g) {
        if (const rd_kafka_error_t *e = rd_kafka_group_result_error(groups[g]))
            return rd_kafka_error_string(e);
        const rd_kafka_topic_partition_list_t *parts = rd_kafka_group_result_partitions(groups[g]);
        for (int p = 0; parts && p < parts->cnt; ++p) {
            if (parts->elems[p].err)
                return rd_kafka_err2str(parts->elems[p].err);
        }
    }
    return {};
}

// AlterConsumerGroupOffsets makes an Empty group with those offsets: group g commits
// half of each partition's records on five topics, so every group has lag to show.
// Groups refused (the offsets topic's partitions are still being created and loaded when
// the first commits arrive) are tried again.
bool seedGroups(rd_kafka_t *rk, const PopulateOptions &o)
{
    QElapsedTimer t;
    t.start();
    QueuePtr queue(rd_kafka_queue_new(rk));
    constexpr int kWindow = 64; // librdkafka takes one group per request
    constexpr int kTopicsPerGroup = 5;
    std::vector<int> todo(size_t(o.groups));
    for (int g = 0; g < o.groups; ++g)
        todo[size_t(g)] = g;
    int retried = 0;
    QByteArray lastError;
    for (int round = 0; round < 10 && !todo.empty(); ++round) {
        if (round > 0) {
            retried += int(todo.size());
            rd_kafka_poll(rk, 1000);
        }
        std::vector<int> failed;
        size_t next = 0;
        int outstanding = 0;
        while (next < todo.size() || outstanding > 0) {
            for (; next < todo.size() && outstanding < kWindow; ++next, ++outstanding) {
                const int g = todo[next];
                PartitionListPtr list(rd_kafka_topic_partition_list_new(kTopicsPerGroup * o.partitions));
                for (int k = 0; k < kTopicsPerGroup; ++k) {
                    const QByteArray topic = topicName((g * kTopicsPerGroup + k) % o.topics);
                    for (int p = 0; p < o.partitions; ++p)
                        rd_kafka_topic_partition_list_add(list.get(), topic.constData(), p)->offset = o.records / 2;
                }
                const QByteArray id = groupName(g);
                std::unique_ptr<rd_kafka_AlterConsumerGroupOffsets_t, KafkaDeleter> req(
                    rd_kafka_AlterConsumerGroupOffsets_new(id.constData(), list.get()));
                rd_kafka_AlterConsumerGroupOffsets_t *arr[] = {req.get()};
                AdminOptionsPtr options(rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_ALTERCONSUMERGROUPOFFSETS));
                rd_kafka_AdminOptions_set_opaque(options.get(), reinterpret_cast<void *>(intptr_t(g)));
                rd_kafka_AlterConsumerGroupOffsets(rk, arr, 1, options.get(), queue.get());
            }
            EventPtr ev(rd_kafka_queue_poll(queue.get(), 60'000));
            if (!ev) {
                std::printf("FAIL: no answer to AlterConsumerGroupOffsets within 60 s\n");
                return false;
            }
            --outstanding;
            if (QByteArray e = alterError(ev.get()); !e.isEmpty()) {
                failed.push_back(int(reinterpret_cast<intptr_t>(rd_kafka_event_opaque(ev.get()))));
                lastError = e;
            }
        }
        todo = std::move(failed);
    }
    std::printf("groups: %d groups with committed offsets on %d partitions each in %.1f s (%d tried again%s%s)\n",
                o.groups - int(todo.size()), kTopicsPerGroup * o.partitions, double(t.elapsed()) / 1000.0, retried,
                retried ? ", last refusal: " : "", lastError.constData());
    if (!todo.empty())
        std::printf("FAIL: %zu groups still refused after 10 rounds\n", todo.size());
    return todo.empty();
}

} // namespace

QByteArray topicName(int index)
{
    return kTopicPrefix + QByteArray::number(index).rightJustified(5, '0');
}

QByteArray groupName(int index)
{
    return kGroupPrefix + QByteArray::number(index).rightJustified(5, '0');
}

int populate(const PopulateOptions &o)
{
    KafkaPtr rk = makeClient(o.bootstrap, {{"linger.ms", "100"},
                                           {"batch.num.messages", "10000"},
                                           {"queue.buffering.max.messages", "1000000"},
                                           {"log_level", "3"}});
    if (!rk)
        return 2;
    if (!createTopics(rk.get(), o) || !waitForLeaders(rk.get(), o))
        return 1;
    if (o.records > 0 && !produceRecords(rk.get(), o))
        return 1;
    if (o.groups > 0 && !seedGroups(rk.get(), o))
        return 1;
    return 0;
}

} // namespace md::bench

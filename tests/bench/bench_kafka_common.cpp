// bench_kafka's shared parts (see bench_kafka_common.h): the command line, clocks, client
// setup, partition counts and end offsets, the progress lines and the bench producer.

#include "bench_kafka_common.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_map>
#include <vector>

namespace benchkafka {

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
        else if (k == "--wire-id")
            a.wireId = std::atoi(v);
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

void Progress::update(long long n, double now)
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

void Progress::print(const char *what, int size) const
{
    const double span = (t90 - t10) / 1000.0;
    const double rate = span > 0 ? double(total) * 0.8 / span : 0;
    std::printf("RESULT %s records=%lld first_ms=%.1f t10_ms=%.1f t90_ms=%.1f done_ms=%.1f steady_rps=%.0f "
                "steady_mbps=%.2f\n",
                what, total, first, t10, t90, done, rate, rate * double(size) / 1e6);
    std::fflush(stdout);
}

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

void awaitDeliveries(rd_kafka_t *producer, LoadState &st, long long sent)
{
    while (st.acked + st.failed < sent) {
        rd_kafka_poll(producer, 5);
        st.progress.update(st.acked, wallMs());
    }
    if (st.failed)
        die(std::to_string(st.failed) + " records failed");
}

} // namespace benchkafka

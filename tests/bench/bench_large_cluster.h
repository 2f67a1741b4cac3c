#pragma once

// bench_large_cluster's two halves: filling a real cluster (bench_large_cluster_populate.cpp)
// and measuring a cluster pane on it (bench_large_cluster.cpp).

#include <QByteArray>
#include <QString>

namespace md::bench {

inline constexpr char kTopicPrefix[] = "bench.topic.";
inline constexpr char kGroupPrefix[] = "bench.group.";

// "bench.topic.00042", "bench.group.00042".
QByteArray topicName(int index);
QByteArray groupName(int index);

struct PopulateOptions {
    QString bootstrap;
    int topics = 10000;
    int partitions = 5;
    int batch = 500;   // topics per CreateTopics request
    int records = 4;   // per partition
    int groups = 2000; // each with committed offsets on five topics
    bool progress = false;
};

// Creates the topics, waits for their leaders, writes the records and commits the groups'
// offsets, printing what each step took. 0 when all of it succeeded.
int populate(const PopulateOptions &options);

} // namespace md::bench

// Group offset sync at scale, and consumer groups for mm2-compare.sh --map-cost (issue 14).
//
//   bench_groupsync scale SOURCE TARGET [--groups 1000] [--partitions 100] [--repeat 3]
//                         [--cpu-pids PID,PID]
//     per repeat, on fresh topics: seeds GROUPS source groups with committed offsets on
//     PARTITIONS partitions (AlterConsumerGroupOffsets, the same writes the first sync
//     makes, with nothing else), builds an in-memory offset map covering them, then times
//     planGroupSync, applyGroupSync (the first write of every offset) and a second
//     plan + apply that finds everything there (the periodic pass of a running job).
//     --cpu-pids: CPU seconds those processes (the brokers) spent in each phase.
//     Prints one line per repeat:
//       RESULT scale run=R groups=G partitions=P seed_ms= plan_ms= write_ms= noop_ms=
//              [seed_cpu= plan_cpu= write_cpu= noop_cpu=] self_cpu=
//   bench_groupsync commit-rate BOOTSTRAP [--groups 1000] [--partitions 100] [--clients K]
//                               [--window W] [--cpu-pids PID]
//     the levers of the first write, without the engine: the same AlterConsumerGroupOffsets
//     writes from K clients (K connections, the groups split between them) with W requests
//     in flight each, then the same groups read back (ListConsumerGroupOffsets) the same way.
//     RESULT commit-rate clients=K window=W ms= read_ms= [cpu= read_cpu=]
//   bench_groupsync seed BOOTSTRAP TOPIC --groups N --prefix NAME --partitions P --offset O [--spread]
//     commits offset O on every partition of TOPIC for groups NAME-0000..NAME-(N-1);
//     --spread: group g at O * (g + 1) / N instead.
//
// Engine code (planGroupSync, applyGroupSync) against real brokers; seeding is raw librdkafka.

#include "KafkaTestUtil.h"
#include "engine/core/KafkaHandles.h"
#include "engine/groupsync/GroupOffsetSync.h"
#include "engine/offsetmap/OffsetMap.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QStringList>

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

using namespace md;

namespace {

[[noreturn]] void die(const QString &why)
{
    std::fprintf(stderr, "bench_groupsync: %s\n", qPrintable(why));
    std::exit(1);
}

// utime + stime of a process in seconds (/proc/PID/stat fields 14 and 15).
double processCpu(int pid)
{
    std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    if (!std::getline(f, line))
        return 0;
    std::istringstream rest(line.substr(line.rfind(')') + 2)); // fields from 3 on
    std::string field;
    unsigned long long utime = 0, stime = 0;
    for (int i = 3; i <= 15 && rest >> field; ++i) {
        if (i == 14)
            utime = std::stoull(field);
        if (i == 15)
            stime = std::stoull(field);
    }
    return double(utime + stime) / double(sysconf(_SC_CLK_TCK));
}

double selfCpu()
{
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// Commits offsets(group index, partition) for every group (AlterConsumerGroupOffsets
// makes an empty group), or deletes the groups when offsets is empty; 64 requests in flight.
// Returns the first error (empty: all done).
QString trySeedGroups(const QString &bootstrap, const QStringList &groups, const QString &topic, int partitions,
                      const std::function<qint64(int, int)> &offsets, int window = 64)
{
    char errstr[512];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.toUtf8().constData(), errstr, sizeof errstr);
    KafkaPtr rk(rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr));
    if (!rk)
        die(QString::fromUtf8(errstr));
    QueuePtr q(rd_kafka_queue_new(rk.get()));
    const QByteArray t = topic.toUtf8();
    int outstanding = 0;
    qsizetype next = 0;
    while (next < groups.size() || outstanding > 0) {
        for (; next < groups.size() && outstanding < window; ++next, ++outstanding) {
            const QByteArray id = groups.at(next).toUtf8();
            if (offsets) {
                PartitionListPtr list(rd_kafka_topic_partition_list_new(partitions));
                for (int p = 0; p < partitions; ++p)
                    rd_kafka_topic_partition_list_add(list.get(), t.constData(), p)->offset = offsets(int(next), p);
                std::unique_ptr<rd_kafka_AlterConsumerGroupOffsets_t, KafkaDeleter> req(
                    rd_kafka_AlterConsumerGroupOffsets_new(id.constData(), list.get()));
                rd_kafka_AlterConsumerGroupOffsets_t *arr[] = {req.get()};
                rd_kafka_AlterConsumerGroupOffsets(rk.get(), arr, 1, nullptr, q.get());
            } else {
                DeleteGroupPtr del(rd_kafka_DeleteGroup_new(id.constData()));
                rd_kafka_DeleteGroup_t *arr[] = {del.get()};
                rd_kafka_DeleteGroups(rk.get(), arr, 1, nullptr, q.get());
            }
        }
        EventPtr ev(rd_kafka_queue_poll(q.get(), 60000));
        if (!ev)
            return QStringLiteral("no answer from %1 within 60 s").arg(bootstrap);
        --outstanding;
        if (rd_kafka_event_error(ev.get()) && offsets)
            return QString::fromUtf8(rd_kafka_event_error_string(ev.get()));
    }
    return {};
}

void seedGroups(const QString &bootstrap, const QStringList &groups, const QString &topic, int partitions,
                const std::function<qint64(int, int)> &offsets)
{
    // Fresh brokers create __consumer_offsets (50 partitions) at the first commit, and
    // the coordinators are not there until it is: one group first, again until it lands.
    for (int attempt = 1; offsets; ++attempt) {
        const QString why = trySeedGroups(bootstrap, groups.mid(0, 1), topic, partitions, offsets);
        if (why.isEmpty())
            break;
        if (attempt == 10)
            die(why);
        std::fprintf(stderr, "bench_groupsync: first commit on %s: %s; trying again\n", qPrintable(bootstrap),
                     qPrintable(why));
    }
    const QString why = trySeedGroups(bootstrap, groups, topic, partitions, offsets);
    if (!why.isEmpty())
        die(why);
}

// ListConsumerGroupOffsets of every group, `window` in flight; the first error.
QString tryReadGroups(const QString &bootstrap, const QStringList &groups, int window)
{
    char errstr[512];
    rd_kafka_conf_t *conf = rd_kafka_conf_new();
    rd_kafka_conf_set(conf, "bootstrap.servers", bootstrap.toUtf8().constData(), errstr, sizeof errstr);
    KafkaPtr rk(rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr));
    if (!rk)
        return QString::fromUtf8(errstr);
    QueuePtr q(rd_kafka_queue_new(rk.get()));
    int outstanding = 0;
    qsizetype next = 0;
    while (next < groups.size() || outstanding > 0) {
        for (; next < groups.size() && outstanding < window; ++next, ++outstanding) {
            const QByteArray id = groups.at(next).toUtf8();
            std::unique_ptr<rd_kafka_ListConsumerGroupOffsets_t, KafkaDeleter> req(
                rd_kafka_ListConsumerGroupOffsets_new(id.constData(), nullptr));
            rd_kafka_ListConsumerGroupOffsets_t *arr[] = {req.get()};
            rd_kafka_ListConsumerGroupOffsets(rk.get(), arr, 1, nullptr, q.get());
        }
        EventPtr ev(rd_kafka_queue_poll(q.get(), 60000));
        if (!ev)
            return QStringLiteral("no answer from %1 within 60 s").arg(bootstrap);
        --outstanding;
        if (rd_kafka_event_error(ev.get()))
            return QString::fromUtf8(rd_kafka_event_error_string(ev.get()));
    }
    return {};
}

QStringList groupNames(const QString &prefix, int n)
{
    QStringList groups;
    for (int g = 0; g < n; ++g)
        groups << QStringLiteral("%1-%2").arg(prefix).arg(g, 4, 10, QLatin1Char('0'));
    return groups;
}

QString option(const QStringList &args, const QString &name, const QString &fallback)
{
    const qsizetype i = args.indexOf(name);
    if (i < 0)
        return fallback;
    if (i + 1 >= args.size())
        die(name + QStringLiteral(" needs a value"));
    return args.at(i + 1);
}

int positive(const QStringList &args, const QString &name, int fallback)
{
    bool ok = false;
    const int v = option(args, name, QString::number(fallback)).toInt(&ok);
    if (!ok || v < 1)
        die(name + QStringLiteral(" must be a positive integer"));
    return v;
}

void scale(const QStringList &args)
{
    const QString source = args.at(2), target = args.at(3);
    const int groups = positive(args, QStringLiteral("--groups"), 1000);
    const int partitions = positive(args, QStringLiteral("--partitions"), 100);
    const int repeat = positive(args, QStringLiteral("--repeat"), 3);
    std::vector<int> pids;
    for (const QString &p :
         option(args, QStringLiteral("--cpu-pids"), QString()).split(QLatin1Char(','), Qt::SkipEmptyParts))
        pids.push_back(p.toInt());
    const auto brokersCpu = [&] {
        double s = 0;
        for (int pid : pids)
            s += processCpu(pid);
        return s;
    };
    const auto at = [](int g, int p) { return qint64((g * 7 + p) % 1000); };

    for (int r = 1; r <= repeat; ++r) {
        const QString stamp = QString::number(QDateTime::currentMSecsSinceEpoch());
        const QString topic = QStringLiteral("scale-%1-%2").arg(r).arg(stamp);
        const QString targetTopic = QStringLiteral("src.") + topic;
        const QStringList names = groupNames(QStringLiteral("scale-app-%1-%2").arg(r).arg(stamp), groups);
        QString error;
        if (!test::createTopic(source, topic, partitions, {}, &error) ||
            !test::createTopic(target, targetTopic, partitions, {}, &error))
            die(error);
        // The target's group coordinators too, before anything is timed (a fresh
        // cluster answers the first group calls only once __consumer_offsets is there).
        const QStringList warm = {QStringLiteral("scale-warm-%1").arg(stamp)};
        seedGroups(target, warm, targetTopic, 1, [](int, int) { return qint64(0); });
        seedGroups(target, warm, targetTopic, 1, {});

        QString line = QStringLiteral("RESULT scale run=%1 groups=%2 partitions=%3").arg(r).arg(groups).arg(partitions);
        QString cpu;
        QElapsedTimer t;
        double c0 = brokersCpu();
        const auto phase = [&](const char *name) {
            const double c1 = brokersCpu();
            line += QStringLiteral(" %1_ms=%2").arg(QLatin1String(name)).arg(t.elapsed());
            if (!pids.empty())
                cpu += QStringLiteral(" %1_cpu=%2").arg(QLatin1String(name)).arg(c1 - c0, 0, 'f', 1);
            c0 = c1;
            t.restart();
        };

        t.start();
        seedGroups(source, names, topic, partitions, at);
        phase("seed");

        // Every partition copied 0..999 to 5..1004, as in tst_groupsync.
        OffsetMap map;
        for (int p = 0; p < partitions; ++p)
            map.apply(topic, p, OffsetSegment{0, 1000, 5, 1000, targetTopic});
        MirrorJobSpec spec;
        spec.name = QStringLiteral("scale");
        spec.source.alias = QStringLiteral("src");
        spec.source.bootstrap = source;
        spec.target.alias = QStringLiteral("dst");
        spec.target.bootstrap = target;
        spec.include = {QRegularExpression::escape(topic)};
        spec.groupsInclude = {QRegularExpression::escape(names.first().chopped(5)) + QStringLiteral("-.*")};
        GroupSyncOptions options;
        options.allowPartial = true;

        const double s0 = selfCpu();
        t.restart();
        const GroupSyncPlan plan = planGroupSync(spec, map, options, 120000);
        if (!plan.ok || plan.count(GroupSyncAction::Write) != groups * partitions)
            die(QStringLiteral("plan: %1 (%2 writes)").arg(plan.error).arg(plan.count(GroupSyncAction::Write)));
        phase("plan");
        const GroupSyncOutcome written = applyGroupSync(spec, plan, 120000);
        if (!written.ok || written.partitionsWritten != groups * partitions)
            die(QStringLiteral("apply: %1 (%2 written)").arg(written.error).arg(written.partitionsWritten));
        phase("write");
        const GroupSyncPlan again = planGroupSync(spec, map, options, 120000);
        if (!again.ok || again.count(GroupSyncAction::AlreadyThere) != groups * partitions)
            die(QStringLiteral("second plan: %1").arg(again.error));
        if (!applyGroupSync(spec, again, 120000).ok)
            die(QStringLiteral("second apply failed"));
        phase("noop");
        line += cpu + QStringLiteral(" self_cpu=%1").arg(selfCpu() - s0, 0, 'f', 1);
        std::printf("%s\n", qPrintable(line));
        std::fflush(stdout);

        seedGroups(source, names, topic, partitions, {});
        seedGroups(target, names, targetTopic, partitions, {});
        test::deleteTopic(source, topic);
        test::deleteTopic(target, targetTopic);
    }
}

void commitRate(const QStringList &args)
{
    const QString bootstrap = args.at(2);
    const int groups = positive(args, QStringLiteral("--groups"), 1000);
    const int partitions = positive(args, QStringLiteral("--partitions"), 100);
    const int clients = positive(args, QStringLiteral("--clients"), 1);
    const int window = positive(args, QStringLiteral("--window"), 64);
    const int pid = option(args, QStringLiteral("--cpu-pids"), QStringLiteral("0")).toInt();
    const QString stamp = QString::number(QDateTime::currentMSecsSinceEpoch());
    const QString topic = QStringLiteral("rate-%1").arg(stamp);
    QString error;
    if (!test::createTopic(bootstrap, topic, partitions, {}, &error))
        die(error);
    const QStringList names = groupNames(QStringLiteral("rate-app-%1").arg(stamp), groups);
    const auto at = [](int g, int p) { return qint64((g * 7 + p) % 1000); };
    seedGroups(bootstrap, names.mid(0, 1), topic, partitions, at); // coordinators up
    const double c0 = pid ? processCpu(pid) : 0;
    QElapsedTimer t;
    t.start();
    std::vector<std::thread> threads;
    std::vector<QString> errors(static_cast<size_t>(clients));
    for (int c = 0; c < clients; ++c) {
        QStringList slice;
        for (qsizetype g = c; g < names.size(); g += clients)
            slice << names.at(g);
        threads.emplace_back(
            [&, c, slice] { errors[size_t(c)] = trySeedGroups(bootstrap, slice, topic, partitions, at, window); });
    }
    for (std::thread &th : threads)
        th.join();
    const qint64 ms = t.elapsed();
    const double c1 = pid ? processCpu(pid) : 0;
    for (const QString &e : errors)
        if (!e.isEmpty())
            die(e);
    // The same groups read back the same way: what the plan's per-group reads are bound by.
    threads.clear();
    t.restart();
    for (int c = 0; c < clients; ++c) {
        QStringList slice;
        for (qsizetype g = c; g < names.size(); g += clients)
            slice << names.at(g);
        threads.emplace_back([&, c, slice] { errors[size_t(c)] = tryReadGroups(bootstrap, slice, window); });
    }
    for (std::thread &th : threads)
        th.join();
    const qint64 readMs = t.elapsed();
    for (const QString &e : errors)
        if (!e.isEmpty())
            die(e);
    std::printf(
        "RESULT commit-rate groups=%d partitions=%d clients=%d window=%d ms=%lld read_ms=%lld%s\n", groups, partitions,
        clients, window, ms, readMs,
        pid ? qPrintable(
                  QStringLiteral(" cpu=%1 read_cpu=%2").arg(c1 - c0, 0, 'f', 1).arg(processCpu(pid) - c1, 0, 'f', 1))
            : "");
    std::fflush(stdout);
    seedGroups(bootstrap, names, topic, partitions, {});
    test::deleteTopic(bootstrap, topic);
}

void seed(const QStringList &args)
{
    const int groups = positive(args, QStringLiteral("--groups"), 20);
    const int partitions = positive(args, QStringLiteral("--partitions"), 12);
    const QString prefix = option(args, QStringLiteral("--prefix"), QStringLiteral("bench-app"));
    bool ok = false;
    const qint64 offset = option(args, QStringLiteral("--offset"), QStringLiteral("0")).toLongLong(&ok);
    if (!ok || offset < 0)
        die(QStringLiteral("--offset must be 0 or more"));
    const bool spread = args.contains(QStringLiteral("--spread"));
    seedGroups(args.at(2), groupNames(prefix, groups), args.at(3), partitions,
               [=](int g, int) { return spread ? offset * (g + 1) / groups : offset; });
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const QString command = args.value(1);
    if (command == QLatin1String("scale") && args.size() >= 4)
        scale(args);
    else if (command == QLatin1String("seed") && args.size() >= 4)
        seed(args);
    else if (command == QLatin1String("commit-rate") && args.size() >= 3)
        commitRate(args);
    else
        die(QStringLiteral("usage: bench_groupsync scale SOURCE TARGET | commit-rate BOOTSTRAP | seed BOOTSTRAP TOPIC "
                           "[options] (see the source's header)"));
    return 0;
}

#pragma once

// The admin connections of group offset sync (GroupOffsetSyncKafka.cpp) and of a job's
// progress (JobProgress.cpp): one client of one cluster with a deadline and a cancel
// flag, single calls or a bounded window of requests on its queue, and per-group
// requests spread over several such connections. Internal to the engine.

#include "engine/admin/AdminCall.h"
#include "engine/core/ClusterConfig.h"
#include "engine/core/KafkaHandles.h"
#include "engine/core/Tasks.h"

#include <QDeadlineTimer>
#include <QMutex>
#include <QString>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

namespace md::groupadmin {

// Per-group requests in flight at once. More does not help: a broker serves one
// connection's requests in order, and the coordinators' log writes are the cost.
constexpr int kGroupWindow = 64;
// Offset writes go over up to this many connections, one per kGroupsPerConnection
// groups. A broker answers one connection's requests one at a time, and each offset
// commit waits for the group coordinator's append, which lingers a few ms to batch
// writes: over one connection 1,000 commits took ~7 s, over 8 ~1.5 s. Reads are not
// spread: 1,000 of them take ~0.5 s over one connection and ~0.35 s over four, not
// worth opening connections on every periodic pass (docs/PERFORMANCE.md,
// "1,000 groups x 100 partitions").
constexpr int kGroupConnections = 8;
constexpr int kGroupsPerConnection = 32;

inline QString utf8(const char *s)
{
    return s ? QString::fromUtf8(s) : QString();
}

struct ClientErrors {
    QMutex mutex;
    QString last;
};

inline void onClientError(rd_kafka_t *, int err, const char *reason, void *opaque)
{
    auto *errors = static_cast<ClientErrors *>(opaque);
    QMutexLocker lock(&errors->mutex);
    errors->last = reason && *reason ? QString::fromUtf8(reason) : kafkaErrorText(rd_kafka_resp_err_t(err));
}

// One admin client of one cluster for the calls of one plan or apply, each
// bounded by what is left of the caller's timeout, all giving up when cancelled
// (cancel may be null: never cancelled).
class Admin final {
public:
    Admin(const ClusterConfig &cluster, const QString &side, int timeoutMs, const std::atomic<bool> *cancel)
        : m_deadline(std::max(timeoutMs, 1000)), m_cancel(cancel), m_cluster(cluster), m_side(side)
    {
        m_where = side + QStringLiteral(" cluster ") +
                  (cluster.alias.isEmpty() ? QString() : cluster.alias + QLatin1Char(' ')) + QLatin1Char('(') +
                  cluster.bootstrap + QLatin1Char(')');
        if (cluster.bootstrap.trimmed().isEmpty()) {
            m_error = m_where + QStringLiteral(": no bootstrap servers given");
            return;
        }
        const int connectMs = std::clamp(timeoutMs, 1000, 30000);
        // A group.id of its own, never joined: ListConsumerGroupOffsets on a
        // handle without one crashes on NOT_COORDINATOR (ProbeClient::createForGroupOffsets).
        ConfResult conf =
            makeKafkaConf(cluster, ClientRole::Admin,
                          {{QStringLiteral("enable.auto.commit"), QStringLiteral("false")},
                           {QStringLiteral("group.id"), offsetFetchGroupId()},
                           {QStringLiteral("socket.connection.setup.timeout.ms"), QString::number(connectMs)}});
        if (!conf.conf) {
            m_error = m_where + QStringLiteral(": invalid client setting ") + conf.error;
            return;
        }
        rd_kafka_conf_set_opaque(conf.conf.get(), &m_errors);
        rd_kafka_conf_set_error_cb(conf.conf.get(), &onClientError);
        rd_kafka_conf_set_log_cb(conf.conf.get(), [](const rd_kafka_t *, int, const char *, const char *) {});
        char errstr[512];
        // A consumer-type handle: admin calls only, never joins a group.
        m_rk.reset(rd_kafka_new(RD_KAFKA_CONSUMER, conf.conf.get(), errstr, sizeof errstr));
        if (!m_rk) {
            m_error = m_where + QStringLiteral(": ") + QString::fromUtf8(errstr);
            return;
        }
        conf.conf.release(); // rd_kafka_new took ownership
    }

    rd_kafka_t *rk() const { return m_rk.get(); }
    bool ok() const { return m_rk != nullptr; }
    // For a client kept across passes (Clients below): a fresh deadline, and no
    // client error of an earlier pass in this pass's messages.
    void rearm(int timeoutMs)
    {
        m_deadline = QDeadlineTimer(std::max(timeoutMs, 1000));
        QMutexLocker lock(&m_errors.mutex);
        m_errors.last.clear();
    }
    // Another connection to the same cluster, with what is left of this one's time.
    std::unique_ptr<Admin> sibling() const
    {
        return std::make_unique<Admin>(m_cluster, m_side, int(std::max<qint64>(1000, m_deadline.remainingTime())),
                                       m_cancel);
    }
    const QString &error() const { return m_error; }
    bool cancelled() const { return m_cancel && m_cancel->load(); }
    int callTimeoutMs() const { return int(std::max<qint64>(1000, m_deadline.remainingTime())); }

    // "source cluster eu (host:9092): <call>: <reason> (last client error: ...)"
    QString failure(const QString &call, const QString &reason)
    {
        QString text = m_where + QStringLiteral(": ") + call + QStringLiteral(": ") + reason;
        QMutexLocker lock(&m_errors.mutex);
        if (!m_errors.last.isEmpty() && !reason.contains(m_errors.last))
            text += QStringLiteral(" (last client error: ") + m_errors.last + QLatin1Char(')');
        return text;
    }

    // One admin request answered or *error set; the event owns the results.
    template <typename Call> EventPtr call(rd_kafka_admin_op_t op, const QString &what, Call &&issue, QString *error)
    {
        if (cancelled()) {
            *error = failure(what, QStringLiteral("cancelled"));
            return {};
        }
        QString reason;
        EventPtr ev = adminCall(m_rk.get(), op, callTimeoutMs(), std::forward<Call>(issue), &reason);
        if (!ev)
            *error = failure(what, reason);
        return ev;
    }

    // `count` requests on one queue, at most `window` outstanding: issue(i, options, queue)
    // sends request i, take(i, event, error) reads its answer (false: give up). A request
    // that fails as a whole, no answer in time, or a cancel fails the batch.
    template <typename Issue, typename Take>
    bool batch(rd_kafka_admin_op_t op, const QString &what, int count, int window, Issue &&issue, Take &&take,
               QString *error)
    {
        if (count <= 0)
            return true;
        QueuePtr queue(rd_kafka_queue_new(m_rk.get()));
        const int timeout = callTimeoutMs();
        const QDeadlineTimer deadline(timeout + 2000);
        int sent = 0, answered = 0;
        char errstr[256];
        while (answered < count) {
            for (; sent < count && sent - answered < window; ++sent) {
                AdminOptionsPtr options(rd_kafka_AdminOptions_new(m_rk.get(), op));
                rd_kafka_AdminOptions_set_request_timeout(options.get(), timeout, errstr, sizeof errstr);
                rd_kafka_AdminOptions_set_opaque(options.get(), reinterpret_cast<void *>(intptr_t(sent)));
                issue(sent, options.get(), queue.get()); // the request keeps a copy of the options
            }
            if (cancelled()) {
                *error = failure(what, QStringLiteral("cancelled"));
                return false;
            }
            if (deadline.hasExpired()) {
                *error = failure(what, QStringLiteral("no answer within %1 ms").arg(timeout + 2000));
                return false;
            }
            EventPtr ev(rd_kafka_queue_poll(queue.get(), 100)); // short: a cancel is seen soon
            if (!ev)
                continue;
            ++answered;
            if (rd_kafka_event_error(ev.get())) {
                *error = failure(what, utf8(rd_kafka_event_error_string(ev.get())));
                return false;
            }
            if (!take(int(intptr_t(rd_kafka_event_opaque(ev.get()))), ev.get(), error))
                return false;
        }
        return true;
    }

private:
    QDeadlineTimer m_deadline;
    const std::atomic<bool> *m_cancel;
    ClusterConfig m_cluster;
    QString m_side;
    QString m_where;
    QString m_error;
    ClientErrors m_errors;
    KafkaPtr m_rk; // destroyed before m_errors, which its error callback writes to
};

// Connections a caller keeps across calls of planGroupSync and applyGroupSync
// (GroupSyncOptions::clients): a running job's periodic sync. Opening a client
// (threads, connection, metadata) cost more than a quiet pass's requests: ~12 ms
// of CPU a pass at a 1 s interval, and broker work (docs/PERFORMANCE.md).
struct Clients {
    std::unique_ptr<Admin> source;
    std::unique_ptr<Admin> target;

    // The kept client of a cluster, rearmed, or a new one (kept when `kept` is
    // given, else in *own). A client that failed to open is not kept.
    static Admin &use(std::unique_ptr<Admin> *kept, std::unique_ptr<Admin> *own, const ClusterConfig &cluster,
                      const QString &side, int timeoutMs, const std::atomic<bool> *cancel)
    {
        if (kept && *kept && (*kept)->ok()) {
            (*kept)->rearm(timeoutMs);
            return **kept;
        }
        std::unique_ptr<Admin> &slot = kept ? *kept : *own;
        slot = std::make_unique<Admin>(cluster, side, timeoutMs, cancel);
        return *slot;
    }
};

// Per-group requests (count of them) over `admin` and up to kGroupConnections - 1 more
// connections to its cluster, one per kGroupsPerConnection requests, concurrently:
// part(connection, c, n, error) sends requests c, c + n, c + 2n, ... A connection that
// cannot be opened leaves its share to the others. False with the first error.
template <typename Part> bool spread(Admin &admin, int count, Part &&part, QString *error)
{
    const int wanted = std::clamp(count / kGroupsPerConnection, 1, kGroupConnections);
    std::vector<std::unique_ptr<Admin>> more;
    for (int c = 1; c < wanted; ++c) {
        std::unique_ptr<Admin> a = admin.sibling();
        if (!a->ok())
            break;
        more.push_back(std::move(a));
    }
    std::vector<Admin *> admins{&admin};
    for (const auto &a : more)
        admins.push_back(a.get());
    const int n = int(admins.size());
    std::vector<QString> errors(admins.size());
    std::vector<char> done(admins.size(), 0);
    // The tasks' results are read here once QFuture says they are finished:
    // Qt orders that with a QMutex (a futex), which ThreadSanitizer cannot see.
    // This lock shows it the order; without it TSan took a task's last use of
    // this frame for a race with whatever the stack held next.
    std::mutex handOff;
    const auto run = [&](int c) {
        const bool ok = part(*admins[size_t(c)], c, n, &errors[size_t(c)]);
        std::lock_guard lock(handOff);
        done[size_t(c)] = ok;
    };
    // Tasks (engine/core/Tasks.h): waitForFinished() runs one here if no pool thread took it.
    std::vector<QFuture<void>> tasks;
    for (int c = 1; c < n; ++c)
        tasks.push_back(runTask(run, c));
    run(0);
    for (QFuture<void> &t : tasks)
        t.waitForFinished();
    std::lock_guard lock(handOff);
    for (int c = 0; c < n; ++c) {
        if (!done[size_t(c)]) {
            *error = errors[size_t(c)];
            return false;
        }
    }
    return true;
}

// How many of `count` requests connection c of n sends (requests c, c + n, ...).
inline int shareOf(int count, int c, int n)
{
    return (count - c + n - 1) / n;
}

} // namespace md::groupadmin

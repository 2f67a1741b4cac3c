#pragma once

#include "engine/mirror/MetricsSnapshot.h"
#include "model/monitor/LagStatus.h"

#include <QHash>
#include <QHostAddress>
#include <QMutex>
#include <QObject>
#include <QString>

class QTcpServer;
class QTcpSocket;

namespace md {

// Serves the jobs' latest figures to Prometheus, for `mirrordesk run FILE --metrics-port N`.
//
// Every series carries `job` and `instance` labels; instance is the snapshot's instance id
// (static membership), else "<hostname>-<pid>", so several instances of one profile can be
// scraped into one Prometheus (scrape them with honor_labels: true to keep this label).
//
// GET /metrics answers the text exposition format 0.0.4 (# HELP / # TYPE, one family each,
// label values escaped); any other path is 404, any other method 405. Listens on 127.0.0.1
// unless given another address (`run --metrics-address`).
//
// A small server of its own rather than QHttpServer: Debian 12's QHttpServer 6.4 answers HEAD
// with a body, closes on a malformed request without a 400, and keeps idle or oversized
// requests open with no limit, which the guards below exist to prevent.
//
// update() may be called from any thread (the engine's): it only stores the snapshot under a
// mutex. The text is rendered when scraped, on the exporter's thread, so a fast sampling tick
// costs nothing when nobody scrapes. Each connection reads at most 16 KiB of request head and
// is dropped after 10 s of silence, so a slow or hostile client cannot pin the server.
class PrometheusExporter final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PrometheusExporter)

public:
    explicit PrometheusExporter(QObject *parent = nullptr);
    ~PrometheusExporter() override;

    // port 0 picks a free port (see serverPort()). Loopback unless told otherwise: a
    // Prometheus on another host needs the address of an interface (or 0.0.0.0). On
    // failure returns false and, if error is given, says why ("127.0.0.1:9404: address in use").
    bool listen(quint16 port, QString *error = nullptr,
                const QHostAddress &address = QHostAddress(QHostAddress::LocalHost));
    void close();
    bool isListening() const;
    quint16 serverPort() const;

    // status: the job's lag status rolled up.
    void update(const MetricsSnapshot &snapshot, JobLagStatus status);
    void removeJob(const QString &jobName);

    // A watched consumer group (`mirrordesk lag`): a GroupLagSampler's snapshot (jobName =
    // the group id), its Burrow status, and what its describe said (type "classic",
    // "consumer", "share"; state; members, -1 unknown). Served as mirrordesk_group_* series
    // labelled `group`; a share group's position is its start offset.
    struct GroupInfo {
        QString type;
        QString state;
        int members = -1;
    };
    void updateGroup(const MetricsSnapshot &snapshot, JobLagStatus status, const GroupInfo &info);
    // The group's last poll failed: mirrordesk_group_up 0 and no other series until the next.
    void groupDown(const QString &groupId);

    // The exposition text as served (also handy for tests and for `run` diagnostics).
    QByteArray render() const;

    static QString escapeLabelValue(const QString &value);
    // The `instance` label of a snapshot without an instance id: "<hostname>-<pid>".
    static QString defaultInstance();

private:
    void onNewConnection();
    void onReadyRead(QTcpSocket *socket);
    void respond(QTcpSocket *socket, int code, const QByteArray &reason, const QByteArray &body, bool headOnly,
                 const QByteArray &contentType);

    struct VanishedCount {
        QString topic;
        int partition = -1;
        qint64 base = 0; // counted before the engine's count last started over
        qint64 last = 0; // the engine's latest count
    };
    struct JobEntry {
        MetricsSnapshot snapshot;
        JobLagStatus status = JobLagStatus::Ok;
        QHash<QString, VanishedCount> vanished; // every partition ever assigned, by topic + partition
    };

    QTcpServer *m_server = nullptr;
    mutable QMutex m_mutex;
    QHash<QString, JobEntry> m_jobs; // guarded by m_mutex
    struct GroupEntry {
        QString groupId;
        bool up = false;
        MetricsSnapshot snapshot;
        JobLagStatus status = JobLagStatus::Ok;
        GroupInfo info;
    };
    QHash<QString, GroupEntry> m_groups; // guarded by m_mutex
    static void appendGroups(QByteArray &out, QList<GroupEntry> groups);
};

} // namespace md

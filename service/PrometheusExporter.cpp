#include "service/PrometheusExporter.h"

#include "service/HttpRequestHead.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QMutexLocker>
#include <QSysInfo>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace md {

namespace {

constexpr int kIdleTimeoutMs = 10000;
const char *const kBufferProperty = "md_request";

const QByteArray kTextFormat = QByteArrayLiteral("text/plain; version=0.0.4; charset=utf-8");
const QByteArray kPlain = QByteArrayLiteral("text/plain; charset=utf-8");

// Prometheus float: Go's ParseFloat syntax; NaN and infinities spelled its way.
QByteArray number(double v)
{
    if (std::isnan(v))
        return QByteArrayLiteral("NaN");
    if (std::isinf(v))
        return v > 0 ? QByteArrayLiteral("+Inf") : QByteArrayLiteral("-Inf");
    if (v == std::floor(v) && std::abs(v) < 1e15)
        return QByteArray::number(qint64(v));
    return QByteArray::number(v, 'g', 17);
}

QByteArray number(qint64 v)
{
    return QByteArray::number(v);
}

QString escapeHelp(const QString &text)
{
    QString out = text;
    out.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    out.replace(QLatin1Char('\n'), QLatin1String("\\n"));
    return out;
}

using Label = std::pair<const char *, QString>;

// One metric family: HELP and TYPE once, then its samples, whatever job they belong to.
class Family {
public:
    Family(const char *name, const char *type, const char *help) : m_name(name), m_type(type), m_help(help) {}

    void sample(const QList<Label> &labels, const QByteArray &value)
    {
        QByteArray line = m_name;
        if (labels.size() > 0) {
            line += '{';
            bool first = true;
            for (const auto &[key, val] : labels) {
                if (!first)
                    line += ',';
                first = false;
                line += key;
                line += "=\"";
                line += PrometheusExporter::escapeLabelValue(val).toUtf8();
                line += '"';
            }
            line += '}';
        }
        line += ' ';
        line += value;
        line += '\n';
        m_samples += line;
    }

    void appendTo(QByteArray &out) const
    {
        if (m_samples.isEmpty())
            return; // a family with no sample says nothing (e.g. no committed offsets yet)
        out += "# HELP " + m_name + ' ' + escapeHelp(QString::fromUtf8(m_help)).toUtf8() + '\n';
        out += "# TYPE " + m_name + ' ' + m_type + '\n';
        out += m_samples;
    }

private:
    QByteArray m_name;
    QByteArray m_type;
    QByteArray m_help;
    QByteArray m_samples;
};

QString partitionKey(const QString &topic, int partition)
{
    return topic + QLatin1Char('\x1f') + QString::number(partition);
}

} // namespace

QString PrometheusExporter::defaultInstance()
{
    static const QString name =
        QSysInfo::machineHostName() + QLatin1Char('-') + QString::number(QCoreApplication::applicationPid());
    return name;
}

PrometheusExporter::PrometheusExporter(QObject *parent) : QObject(parent), m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &PrometheusExporter::onNewConnection);
}

PrometheusExporter::~PrometheusExporter() = default;

bool PrometheusExporter::listen(quint16 port, QString *error, const QHostAddress &address)
{
    if (m_server->isListening())
        m_server->close();
    if (m_server->listen(address, port))
        return true;
    if (error) {
        const QString host = address.protocol() == QAbstractSocket::IPv6Protocol
                                 ? QLatin1Char('[') + address.toString() + QLatin1Char(']')
                                 : address.toString();
        *error = QStringLiteral("cannot serve metrics on %1:%2: %3").arg(host).arg(port).arg(m_server->errorString());
    }
    return false;
}

void PrometheusExporter::close()
{
    m_server->close();
}

bool PrometheusExporter::isListening() const
{
    return m_server->isListening();
}

quint16 PrometheusExporter::serverPort() const
{
    return m_server->serverPort();
}

void PrometheusExporter::update(const MetricsSnapshot &snapshot, JobLagStatus status)
{
    QMutexLocker lock(&m_mutex);
    JobEntry &entry = m_jobs[snapshot.jobName];
    entry.snapshot = snapshot;
    entry.status = status;
    // A partition that moved to another instance keeps its count here: a counter never goes
    // down. A count lower than the last one seen is the engine starting over (Prometheus'
    // counter-reset rule): what was counted before stays in the base.
    for (const PartitionMetrics &p : snapshot.partitions) {
        VanishedCount &v = entry.vanished[partitionKey(p.topic, p.partition)];
        v.topic = p.topic;
        v.partition = p.partition;
        if (p.vanishedRecords < v.last)
            v.base += v.last;
        v.last = p.vanishedRecords;
    }
}

void PrometheusExporter::removeJob(const QString &jobName)
{
    QMutexLocker lock(&m_mutex);
    m_jobs.remove(jobName);
}

void PrometheusExporter::updateGroup(const MetricsSnapshot &snapshot, JobLagStatus status, const GroupInfo &info)
{
    QMutexLocker lock(&m_mutex);
    GroupEntry &entry = m_groups[snapshot.jobName];
    entry.groupId = snapshot.jobName;
    entry.up = true;
    entry.snapshot = snapshot;
    entry.status = status;
    entry.info = info;
}

void PrometheusExporter::groupDown(const QString &groupId)
{
    QMutexLocker lock(&m_mutex);
    GroupEntry &entry = m_groups[groupId];
    entry.groupId = groupId;
    entry.up = false;
}

void PrometheusExporter::appendGroups(QByteArray &out, QList<GroupEntry> groups)
{
    std::sort(groups.begin(), groups.end(),
              [](const GroupEntry &a, const GroupEntry &b) { return a.groupId < b.groupId; });
    Family up("mirrordesk_group_up", "gauge",
              "1 while the watched group's offsets and lag were read at the last poll.");
    Family info("mirrordesk_group_info", "gauge",
                "The group's protocol type (classic, consumer, share) and state as labels; always 1.");
    Family members("mirrordesk_group_members", "gauge", "Members of the group at the last poll.");
    Family status("mirrordesk_group_status", "gauge",
                  "Lag status of the group by Burrow's rules: 1 for the current status, 0 for the others.");
    Family lag("mirrordesk_group_lag_records", "gauge", "Sum of the group's known partition lags, in records.");
    Family lagSeconds("mirrordesk_group_lag_seconds", "gauge",
                      "The group's largest partition lag in seconds (now minus the timestamp of the record at its "
                      "position); 0 when caught up.");
    Family partLag("mirrordesk_group_partition_lag", "gauge",
                   "End offset minus the group's position (a share group's: its start offset).");
    Family position("mirrordesk_group_partition_offset", "gauge",
                    "The group's committed offset; a share group's start offset (every record before it "
                    "acknowledged); absent while there is none.");
    Family end("mirrordesk_group_partition_end_offset", "gauge", "Partition end offset (high watermark).");
    Family partSeconds("mirrordesk_group_partition_lag_seconds", "gauge",
                       "Now minus the timestamp of the record at the group's position, in seconds; 0 when caught "
                       "up.");
    for (const GroupEntry &g : std::as_const(groups)) {
        const QList<Label> id{{"group", g.groupId}};
        const auto with = [&id](std::initializer_list<Label> extra) { return id + QList<Label>(extra); };
        up.sample(id, number(qint64(g.up ? 1 : 0)));
        if (!g.up)
            continue;
        info.sample(with({{"type", g.info.type}, {"state", g.info.state}}), number(qint64(1)));
        if (g.info.members >= 0)
            members.sample(id, number(qint64(g.info.members)));
        for (JobLagStatus st : {JobLagStatus::Ok, JobLagStatus::Warn, JobLagStatus::Err})
            status.sample(with({{"status", jobLagStatusName(st)}}), number(qint64(st == g.status ? 1 : 0)));
        lag.sample(id, number(g.snapshot.totalLag));
        if (g.snapshot.maxLagMs >= 0)
            lagSeconds.sample(id, number(double(g.snapshot.maxLagMs) / 1000.0));
        QList<PartitionMetrics> parts = g.snapshot.partitions;
        std::sort(parts.begin(), parts.end(), [](const PartitionMetrics &a, const PartitionMetrics &b) {
            return a.topic != b.topic ? a.topic < b.topic : a.partition < b.partition;
        });
        for (const PartitionMetrics &p : std::as_const(parts)) {
            const QList<Label> labels = with({{"topic", p.topic}, {"partition", QString::number(p.partition)}});
            if (p.lag >= 0)
                partLag.sample(labels, number(p.lag));
            if (p.committedOffset >= 0)
                position.sample(labels, number(p.committedOffset));
            if (p.endOffset >= 0)
                end.sample(labels, number(p.endOffset));
            if (p.lagMs >= 0)
                partSeconds.sample(labels, number(double(p.lagMs) / 1000.0));
        }
    }
    for (const Family *f : {&up, &info, &members, &status, &lag, &lagSeconds, &partLag, &position, &end, &partSeconds})
        f->appendTo(out);
}

QString PrometheusExporter::escapeLabelValue(const QString &value)
{
    QString out;
    out.reserve(value.size() + 8);
    for (const QChar c : value) {
        if (c == QLatin1Char('\\'))
            out += QLatin1String("\\\\");
        else if (c == QLatin1Char('"'))
            out += QLatin1String("\\\"");
        else if (c == QLatin1Char('\n'))
            out += QLatin1String("\\n");
        else
            out += c;
    }
    return out;
}

QByteArray PrometheusExporter::render() const
{
    QList<JobEntry> jobs;
    QList<GroupEntry> groups;
    {
        QMutexLocker lock(&m_mutex);
        jobs = m_jobs.values();
        groups = m_groups.values();
    }
    std::sort(jobs.begin(), jobs.end(),
              [](const JobEntry &a, const JobEntry &b) { return a.snapshot.jobName < b.snapshot.jobName; });

    Family up("mirrordesk_job_up", "gauge",
              "1 while the mirror job runs (starting, running, paused), 0 once stopped or failed.");
    Family status("mirrordesk_job_status", "gauge",
                  "Lag status of the job by Burrow's rules: 1 for the current status, 0 for the others.");
    Family state("mirrordesk_job_state", "gauge",
                 "Engine state of the job: 1 for the current state, 0 for the others.");
    Family jobLag("mirrordesk_job_lag_records", "gauge", "Sum of the known partition lags of the job, in records.");
    Family lagTime("mirrordesk_job_lag_time_ms", "gauge",
                   "Newest source record timestamp minus newest mirrored record timestamp, in milliseconds.");
    Family jobLagSeconds("mirrordesk_job_lag_seconds", "gauge",
                         "The largest partition lag in seconds of the job (mirrordesk_lag_seconds); 0 when caught "
                         "up.");
    Family catchUp("mirrordesk_catch_up_seconds", "gauge",
                   "Time until the job has caught up: the slowest partition's lag over its smoothed net drain rate; "
                   "+Inf while the backlog does not shrink.");
    Family atRisk("mirrordesk_retention_at_risk_partitions", "gauge",
                  "Partitions whose next record to copy is older than the source topic's retention.ms minus a "
                  "margin (10%, at least a minute): about to be removed before the job copies it.");
    Family consumed("mirrordesk_job_records_consumed_total", "counter",
                    "Records consumed from the source since the job started.");
    Family produced("mirrordesk_job_records_produced_total", "counter",
                    "Records acknowledged by the target since the job started.");
    Family inFlight("mirrordesk_job_in_flight_records", "gauge",
                    "Records produced to the target and not yet acknowledged.");
    Family latency("mirrordesk_replication_latency_ms", "gauge",
                   "Replication latency (target acknowledgement time minus source record timestamp) over the last "
                   "sampling interval, by quantile.");
    Family throttle("mirrordesk_job_throttle_bytes_per_second", "gauge",
                    "Byte-rate budget of the job, 0 when unthrottled.");
    Family partLag("mirrordesk_partition_lag", "gauge", "Source end offset minus next offset to mirror.");
    Family lagSeconds("mirrordesk_lag_seconds", "gauge",
                      "Now minus the timestamp of the next record to copy (its CreateTime or LogAppendTime, as the "
                      "topic says), in seconds; 0 when the partition is caught up.");
    Family endOffset("mirrordesk_partition_end_offset", "gauge", "Source partition end offset (high watermark).");
    Family mirrored("mirrordesk_partition_mirrored_offset", "gauge",
                    "Next source offset to mirror: everything before it is acknowledged by the target.");
    Family committed("mirrordesk_partition_committed_offset", "gauge",
                     "Committed offset of the job's consumer group; absent while there is none.");
    Family records("mirrordesk_records_copied_total", "counter", "Records copied to the target since the job started.");
    Family bytes("mirrordesk_bytes_copied_total", "counter",
                 "Bytes (key, value and headers) copied to the target since the job started.");
    Family vanished("mirrordesk_records_vanished_total", "counter",
                    "Records that vanished from the source before the job copied them (retention, DeleteRecords), "
                    "since this instance started; kept for partitions that moved to another instance.");

    for (const JobEntry &entry : std::as_const(jobs)) {
        const MetricsSnapshot &s = entry.snapshot;
        // Every series names the job and the instance, so the instances of one profile
        // (several machines, one consumer group) never collide in one Prometheus.
        const QList<Label> id{{"job", s.jobName},
                              {"instance", s.instanceId.isEmpty() ? defaultInstance() : s.instanceId}};
        const auto with = [&id](std::initializer_list<Label> extra) { return id + QList<Label>(extra); };
        const bool running = s.state != JobState::Stopped && s.state != JobState::Failed;
        up.sample(id, number(qint64(running ? 1 : 0)));

        for (JobLagStatus st : {JobLagStatus::Ok, JobLagStatus::Warn, JobLagStatus::Err})
            status.sample(with({{"status", jobLagStatusName(st)}}), number(qint64(st == entry.status ? 1 : 0)));
        for (JobState js : {JobState::Starting, JobState::Running, JobState::Paused, JobState::Stopping,
                            JobState::Stopped, JobState::Failed}) {
            state.sample(with({{"state", jobStateName(js)}}), number(qint64(js == s.state ? 1 : 0)));
        }
        jobLag.sample(id, number(s.totalLag));
        if (s.lagTimeMs >= 0)
            lagTime.sample(id, number(s.lagTimeMs));
        if (s.maxLagMs >= 0)
            jobLagSeconds.sample(id, number(double(s.maxLagMs) / 1000.0));
        if (s.catchUpSeconds >= 0)
            catchUp.sample(id, number(s.catchUpSeconds));
        atRisk.sample(id, number(qint64(s.retentionAtRisk)));
        consumed.sample(id, number(s.recordsConsumed));
        produced.sample(id, number(s.recordsProduced));
        inFlight.sample(id, number(s.inFlight));
        if (s.latency.p50Ms >= 0)
            latency.sample(with({{"quantile", QStringLiteral("0.5")}}), number(s.latency.p50Ms));
        if (s.latency.p99Ms >= 0)
            latency.sample(with({{"quantile", QStringLiteral("0.99")}}), number(s.latency.p99Ms));
        throttle.sample(id, number(s.throttleBytesPerSecond));

        QList<PartitionMetrics> parts = s.partitions;
        std::sort(parts.begin(), parts.end(), [](const PartitionMetrics &a, const PartitionMetrics &b) {
            return a.topic != b.topic ? a.topic < b.topic : a.partition < b.partition;
        });
        for (const PartitionMetrics &p : std::as_const(parts)) {
            const QString partition = QString::number(p.partition);
            const QList<Label> labels = with({{"topic", p.topic}, {"partition", partition}});
            // Unknown (-1) values are left out rather than exported as a misleading number.
            if (p.lag >= 0)
                partLag.sample(labels, number(p.lag));
            if (p.lagMs >= 0)
                lagSeconds.sample(labels, number(double(p.lagMs) / 1000.0));
            if (p.endOffset >= 0)
                endOffset.sample(labels, number(p.endOffset));
            if (p.nextOffset >= 0)
                mirrored.sample(labels, number(p.nextOffset));
            if (p.committedOffset >= 0)
                committed.sample(labels, number(p.committedOffset));
            records.sample(labels, number(p.records));
            bytes.sample(labels, number(p.bytes));
        }
        QList<VanishedCount> counts = entry.vanished.values();
        std::sort(counts.begin(), counts.end(), [](const VanishedCount &a, const VanishedCount &b) {
            return a.topic != b.topic ? a.topic < b.topic : a.partition < b.partition;
        });
        for (const VanishedCount &v : std::as_const(counts))
            vanished.sample(with({{"topic", v.topic}, {"partition", QString::number(v.partition)}}),
                            number(v.base + v.last));
    }

    QByteArray out;
    out.reserve(4096);
    for (const Family *f : {&up,         &status,    &state,    &jobLag,    &lagTime, &jobLagSeconds, &catchUp,
                            &atRisk,     &consumed,  &produced, &inFlight,  &latency, &throttle,      &partLag,
                            &lagSeconds, &endOffset, &mirrored, &committed, &records, &bytes,         &vanished}) {
        f->appendTo(out);
    }
    appendGroups(out, std::move(groups));
    return out;
}

void PrometheusExporter::onNewConnection()
{
    while (QTcpSocket *socket = m_server->nextPendingConnection()) {
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        auto *idle = new QTimer(socket);
        idle->setSingleShot(true);
        connect(idle, &QTimer::timeout, socket, [socket] {
            socket->abort();
            socket->deleteLater();
        });
        idle->start(kIdleTimeoutMs);
    }
}

void PrometheusExporter::onReadyRead(QTcpSocket *socket)
{
    if (socket->property("md_done").toBool()) {
        socket->readAll(); // answered already; ignore anything pipelined after
        return;
    }
    const QByteArray buffer = socket->property(kBufferProperty).toByteArray() + socket->readAll();
    using Kind = HttpRequestVerdict::Kind;
    const HttpRequestVerdict verdict = readHttpRequestHead(buffer);
    if (verdict.kind == Kind::Incomplete) {
        socket->setProperty(kBufferProperty, buffer); // partial request: wait for the rest
        return;
    }
    socket->setProperty("md_done", true);
    switch (verdict.kind) {
    case Kind::Incomplete: break;
    case Kind::TooLarge:
        respond(socket, 431, "Request Header Fields Too Large", "request head too large\n", false, kPlain);
        break;
    case Kind::Malformed: respond(socket, 400, "Bad Request", "malformed request line\n", false, kPlain); break;
    case Kind::MethodNotAllowed:
        respond(socket, 405, "Method Not Allowed", "only GET and HEAD\n", false, kPlain);
        break;
    case Kind::NotFound:
        respond(socket, 404, "Not Found", "not found; metrics are at /metrics\n", verdict.head, kPlain);
        break;
    case Kind::Metrics: respond(socket, 200, "OK", render(), verdict.head, kTextFormat); break;
    }
}

void PrometheusExporter::respond(QTcpSocket *socket, int code, const QByteArray &reason, const QByteArray &body,
                                 bool headOnly, const QByteArray &contentType)
{
    QByteArray response = "HTTP/1.1 " + QByteArray::number(code) + ' ' + reason + "\r\n";
    response += "Content-Type: " + contentType + "\r\n";
    response += "Content-Length: " + QByteArray::number(body.size()) + "\r\n";
    response += "Connection: close\r\n";
    if (code == 405)
        response += "Allow: GET, HEAD\r\n";
    response += "\r\n";
    if (!headOnly)
        response += body;
    socket->setProperty(kBufferProperty, QVariant());
    socket->write(response);
    // One request per connection keeps the server trivial; Prometheus reconnects cheaply.
    socket->disconnectFromHost();
}

} // namespace md

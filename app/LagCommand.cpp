#include "app/AppCommands.h"
#include "app/CommandLine.h"

#include "app/ProfileLoader.h"
#include "app/SignalBridge.h"
#include "engine/admin/AdminService.h"
#include "engine/admin/GroupLagSampler.h"
#include "model/monitor/LagStatus.h"
#include "model/session/MonitoredJob.h"
#include "model/tables/NumberFormat.h"
#include "service/PrometheusExporter.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QRegularExpression>

#include <map>
#include <memory>

namespace md {

namespace {

// One watched group: its poller, its history (for the Burrow status) and what its
// describe last said.
struct Watched {
    std::unique_ptr<GroupLagSampler> sampler;
    std::unique_ptr<MonitoredJob> history;
    PrometheusExporter::GroupInfo info;
    bool answered = false; // sampled or failed once (--once waits for every group)
    bool failed = false;
};

QString groupLine(const QString &group, const PrometheusExporter::GroupInfo &info, const MetricsSnapshot &s,
                  JobLagStatus status)
{
    int known = 0;
    for (const PartitionMetrics &p : s.partitions)
        known += p.lag >= 0 ? 1 : 0;
    QString line =
        QStringLiteral("%1 (%2, %3): lag %4").arg(group, info.type, info.state, formatCount(double(s.totalLag)));
    if (s.maxLagMs >= 0)
        line += QStringLiteral(" (%1)").arg(lagTimeText(s.maxLagMs));
    line += QStringLiteral(" over %1 of %2 partitions").arg(known).arg(s.partitions.size());
    if (info.members >= 0)
        line += QStringLiteral(", %1 member(s)").arg(info.members);
    return line + QStringLiteral(", status %1").arg(jobLagStatusName(status));
}

} // namespace

int runLagCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    CommandLine cli(QStringLiteral("lag"),
                    QStringLiteral("FILE.mirrorjob [--side source|target] (--group ID ... | --groups REGEX) "
                                   "[--interval SECONDS] [--once] [--metrics-port N [--metrics-address ADDR]]"));
    cli.setDescription(QStringLiteral(
        "Watches consumer groups of one of the profile's clusters, of any type (classic, KIP-848 consumer, KIP-932 "
        "share): their lag in records and in time and their Burrow-style status, a line per group and poll, and "
        "as Prometheus metrics (mirrordesk_group_*). A share group's position is its start offset."));
    const QCommandLineOption side(QStringLiteral("side"), QStringLiteral("The cluster: source (default) or target."),
                                  QStringLiteral("source|target"), QStringLiteral("source"));
    const QCommandLineOption group(QStringLiteral("group"), QStringLiteral("A group to watch (repeatable)."),
                                   QStringLiteral("ID"));
    const QCommandLineOption groups(QStringLiteral("groups"),
                                    QStringLiteral("Watch every group whose id matches (listed once, at start)."),
                                    QStringLiteral("REGEX"));
    const QCommandLineOption interval(QStringLiteral("interval"),
                                      QStringLiteral("Seconds between polls (default 10, at least 1)."),
                                      QStringLiteral("SECONDS"), QStringLiteral("10"));
    const QCommandLineOption once(
        QStringLiteral("once"), QStringLiteral("Poll every group once, print, and exit (1 if one could not be read)."));
    const QCommandLineOption metricsPort(QStringLiteral("metrics-port"),
                                         QStringLiteral("Serve Prometheus metrics on 127.0.0.1:N/metrics."),
                                         QStringLiteral("N"));
    const QCommandLineOption metricsAddress(QStringLiteral("metrics-address"),
                                            QStringLiteral("The address --metrics-port listens on (default "
                                                           "127.0.0.1; 0.0.0.0 for every interface)."),
                                            QStringLiteral("ADDR"), QStringLiteral("127.0.0.1"));
    cli.addOptions({side, group, groups, interval, once, metricsPort, metricsAddress});
    cli.setArguments(QStringLiteral("profile"), 1, 1);
    if (const std::optional<int> exitCode = cli.parse(args, out, err))
        return *exitCode;

    const QString sideName = cli.value(side).trimmed().toLower();
    if (sideName != QLatin1String("source") && sideName != QLatin1String("target"))
        return cli.usageError(err, QStringLiteral("--side: \"%1\" is neither source nor target").arg(sideName));
    bool ok = false;
    const int seconds = cli.value(interval).toInt(&ok);
    if (!ok || seconds < 1 || seconds > 86400)
        return cli.usageError(err, QStringLiteral("--interval needs a number of seconds from 1 to 86400"));
    QStringList ids = cli.values(group);
    for (const QString &id : std::as_const(ids)) {
        if (id.trimmed().isEmpty())
            return cli.usageError(err, QStringLiteral("--group needs a group id"));
    }
    QRegularExpression pattern;
    if (cli.isSet(groups)) {
        pattern.setPattern(QRegularExpression::anchoredPattern(cli.value(groups)));
        if (!pattern.isValid())
            return cli.usageError(err, QStringLiteral("--groups: %1").arg(pattern.errorString()));
    }
    if (ids.isEmpty() && !cli.isSet(groups))
        return cli.usageError(err, QStringLiteral("name the groups to watch: --group ID or --groups REGEX"));
    int port = 0;
    if (cli.isSet(metricsPort)) {
        port = cli.value(metricsPort).toInt(&ok);
        if (!ok || port <= 0 || port > 65535)
            return cli.usageError(err, QStringLiteral("--metrics-port needs a port number from 1 to 65535"));
    }
    QHostAddress address;
    if (!address.setAddress(cli.value(metricsAddress)))
        return cli.usageError(
            err,
            QStringLiteral("--metrics-address: \"%1\" is not an IPv4 or IPv6 address").arg(cli.value(metricsAddress)));
    if (cli.isSet(metricsAddress) && !cli.isSet(metricsPort))
        return cli.usageError(err, QStringLiteral("--metrics-address needs --metrics-port"));

    const QString file = cli.arguments().first();
    const std::optional<MirrorJobSpec> spec = loadJobSpec(file, nullptr, err);
    if (!spec)
        return 2;
    const ClusterConfig &cluster = sideName == QLatin1String("target") ? spec->target : spec->source;

    // What each group is, once: the type and state of the line's first poll (later polls
    // update them from the describe they make anyway).
    QString error;
    std::unique_ptr<AdminService> admin = AdminService::create(cluster, &error);
    if (!admin) {
        err << "mirrordesk lag: " << error << Qt::endl;
        return 2;
    }
    std::map<QString, PrometheusExporter::GroupInfo> known;
    const AdminResult<QList<ConsumerGroupInfo>> listed = admin->consumerGroups();
    if (!listed.ok()) {
        err << "mirrordesk lag: " << sideName << " cluster " << cluster.bootstrap << ": " << listed.error << Qt::endl;
        // Named groups can still be read by whoever may describe them, not list every group.
        if (cli.isSet(groups))
            return 2;
    }
    for (const ConsumerGroupInfo &g : listed.value) {
        known[g.groupId] = {groupTypeName(g.type), groupStateName(g.state),
                            g.type == GroupType::Streams ? -1 : int(g.members.size())};
        if (cli.isSet(groups) && pattern.match(g.groupId).hasMatch() && !ids.contains(g.groupId))
            ids.append(g.groupId);
    }
    admin.reset();
    if (ids.isEmpty()) {
        err << "mirrordesk lag: no group on " << cluster.bootstrap << " matches " << cli.value(groups) << Qt::endl;
        return 1;
    }

    std::unique_ptr<PrometheusExporter> metrics;
    if (port > 0) {
        metrics = std::make_unique<PrometheusExporter>();
        if (!metrics->listen(quint16(port), &error, address)) {
            err << "mirrordesk lag: " << error << Qt::endl;
            return 1;
        }
        out << "serving Prometheus metrics on http://" << address.toString() << ':' << port << "/metrics" << Qt::endl;
    }

    const bool oneShot = cli.isSet(once);
    std::map<QString, Watched> watched;
    const auto finishOnce = [&] {
        if (!oneShot)
            return;
        int failed = 0;
        for (const auto &[id, w] : watched) {
            if (!w.answered)
                return;
            failed += w.failed ? 1 : 0;
        }
        QCoreApplication::exit(failed > 0 ? 1 : 0);
    };
    for (const QString &id : std::as_const(ids)) {
        Watched &w = watched[id];
        const auto it = known.find(id);
        // A group the listing does not know may still have commits (a simple group).
        w.info = it != known.end()
                     ? it->second
                     : PrometheusExporter::GroupInfo{QStringLiteral("unknown"), QStringLiteral("Unknown"), -1};
        w.history = std::make_unique<MonitoredJob>(MonitoredJob::statusOnlyConfig());
        w.sampler = std::make_unique<GroupLagSampler>(cluster, id);
        w.sampler->setIntervalMs(seconds * 1000);
        GroupLagSampler *sampler = w.sampler.get();
        // The describe of the same poll comes right after its offsets: keep what it says.
        QObject::connect(sampler, &GroupLagSampler::membersSampled, sampler,
                         [&w](const ConsumerGroupInfo &g, const MetricsSnapshot &) {
                             w.info = {groupTypeName(g.type), groupStateName(g.state),
                                       g.type == GroupType::Streams ? -1 : int(g.members.size())};
                         });
        QObject::connect(sampler, &GroupLagSampler::sampled, w.history.get(), &MonitoredJob::addSnapshot);
        QObject::connect(w.history.get(), &MonitoredJob::snapshotAdded, sampler, [&, id](const MetricsSnapshot &s) {
            Watched &me = watched[id];
            out << groupLine(id, me.info, s, me.history->status()) << Qt::endl;
            if (metrics)
                metrics->updateGroup(s, me.history->status(), me.info);
            me.answered = true;
            finishOnce();
        });
        QObject::connect(sampler, &GroupLagSampler::failed, sampler, [&, id](const QString &why) {
            Watched &me = watched[id];
            err << "mirrordesk lag: " << why << Qt::endl;
            if (metrics)
                metrics->groupDown(id);
            me.answered = true;
            me.failed = true;
            finishOnce();
        });
    }

    SignalBridge bridge([](int) { QCoreApplication::exit(0); });
    out << "watching " << ids.size() << " group(s) on the " << sideName << " cluster " << cluster.bootstrap
        << (oneShot ? QStringLiteral(" once") : QStringLiteral(" every %1 s").arg(seconds)) << Qt::endl;
    for (auto &[id, w] : watched)
        w.sampler->start();
    const int code = QCoreApplication::exec();
    for (auto &[id, w] : watched)
        w.sampler->stop();
    return code;
}

} // namespace md
